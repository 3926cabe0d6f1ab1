package main

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// describeRun fills a run's provenance: absolute paths (so that inspect,
// serve and report work from any directory), the dataset's SHA-256, the
// build and the command line without secrets.
func describeRun(c *run.Config, args []string) error {
	for _, p := range []*string{&c.Data, &c.Papers, &c.Home, &c.Out, &c.PromptDir} {
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
	c.Command = commandLine(args)
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

// secretFlags carry values that are never written: header values may be
// tokens.
var secretFlags = map[string]bool{"--header": true, "--judge-header": true}

// urlFlags carry URLs, written without user info or query.
var urlFlags = map[string]bool{"--base-url": true, "--judge-base-url": true, "--embed-base-url": true,
	"--searxng-url": true, "--qdrant-url": true, "--rerank-base-url": true}

// commandLine is args as given, with header values replaced by
// "Name: [redacted]" and URLs stripped of credentials.
func commandLine(args []string) []string {
	out := make([]string, 0, len(args)+1)
	out = append(out, "paperlens")
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, inline := strings.Cut(a, "=")
		if !strings.HasPrefix(name, "--") {
			out = append(out, a)
			continue
		}
		clean := func(v string) string {
			switch {
			case secretFlags[name]:
				h, _, _ := strings.Cut(v, ":")
				return strings.TrimSpace(h) + ": [redacted]"
			case urlFlags[name]:
				return model.NormalizeEndpoint(v)
			}
			return v
		}
		if inline {
			out = append(out, name+"="+clean(val))
			continue
		}
		out = append(out, a)
		if (secretFlags[name] || urlFlags[name]) && i+1 < len(args) {
			i++
			out = append(out, clean(args[i]))
		}
	}
	return out
}
