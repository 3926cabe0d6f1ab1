package session

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// DefaultFolder is where a run goes when no folder is given:
// runs/<bench>-<model>-<paradigm>, relative to the working directory
// (-composed added for eval --compose).
func DefaultFolder(c run.Config) string {
	name := fmt.Sprintf("%s-%s-%s", c.Bench, SafeName(c.Model), c.Paradigm)
	if c.Compose != nil {
		name += "-composed" // other questions: never resumed into the benchmark's own run
	}
	return filepath.Join("runs", name)
}

// SafeName is a model name as part of a folder name: / and : (a
// provider's prefix, a tag) become _.
func SafeName(model string) string {
	return strings.NewReplacer("/", "_", ":", "_").Replace(model)
}

// describe fills a run's provenance: absolute paths (so that inspect,
// serve and report work from any directory), the dataset's SHA-256, the
// build and the command line.
func describe(c *run.Config, command []string) error {
	for _, p := range []*string{&c.Data, &c.Papers, &c.Home, &c.Out, &c.PromptDir, &c.Labels} {
		if *p == "" {
			continue
		}
		a, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("resolve %s: %w", *p, err)
		}
		*p = a
	}
	sum, err := run.DataSHA256(c.Data)
	if err != nil {
		return fmt.Errorf("benchmark %s: %w", c.Data, err)
	}
	c.DataSHA256 = sum
	c.Version, c.Revision = buildInfo()
	c.Command = command
	return nil
}

// buildInfo is the module version and, when built from a git checkout, the
// commit ("+modified" for a dirty tree). go run and go test builds carry
// no VCS stamp; then the revision is empty.
func buildInfo() (version, revision string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", ""
	}
	version = bi.Main.Version
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if revision != "" && dirty {
		revision += "+modified"
	}
	return version, revision
}

// CommandLine is a command line as config.json records it: program and
// args as given, with the values of the secret options (header values may
// be tokens) replaced by "Name: [redacted]" and those of the URL options
// stripped of user info and query. Options are named as written, "--name",
// and take their value inline (--name=v) or as the next argument.
func CommandLine(program string, args []string, secret, urls map[string]bool) []string {
	out := make([]string, 0, len(args)+1)
	out = append(out, program)
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, inline := strings.Cut(a, "=")
		if !strings.HasPrefix(name, "--") {
			out = append(out, a)
			continue
		}
		clean := func(v string) string {
			switch {
			case secret[name]:
				h, _, _ := strings.Cut(v, ":")
				return strings.TrimSpace(h) + ": [redacted]"
			case urls[name]:
				return model.NormalizeEndpoint(v)
			}
			return v
		}
		if inline {
			out = append(out, name+"="+clean(val))
			continue
		}
		out = append(out, a)
		if (secret[name] || urls[name]) && i+1 < len(args) {
			i++
			out = append(out, clean(args[i]))
		}
	}
	return out
}
