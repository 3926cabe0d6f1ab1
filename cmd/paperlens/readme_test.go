package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// readmeUserFiles are files the README's commands name that a user
// downloads (the published benchmark): commands naming one are checked to
// parse (their flags, with --help), not run.
var readmeUserFiles = []string{"elabench.jsonl", "papers.zip"}

// readmeSkipped are the README's shell lines that are not paperlens
// commands, each with why this test does not run it. A line that is
// neither a paperlens command nor listed here fails the test, so that
// every exception is written down.
var readmeSkipped = []struct{ prefix, why string }{
	{"go install ", "builds the binary whose commands this test runs in process"},
	{"go build ", "builds the binary whose commands this test runs in process"},
	{"go test ", "the tests themselves, this one among them"},
}

// The README's commands run on a fresh clone, in the README's order: every
// `paperlens …` line of its ```sh blocks runs in this process (the real
// command tree) in a fresh working directory holding the repository's
// testdata, with the default home ./.paperlens, and must exit 0. The
// exceptions, each for a reason:
//
//   - a command that needs a model (a --model other than the offline
//     baselines random and ir) is sent to a loopback OpenAI-compatible
//     double: --base-url is replaced (or added) with the double's;
//   - serve listens on a free port (--addr 127.0.0.1:0 added), answers one
//     page and is stopped as Ctrl-C stops it;
//   - a command naming a file the user downloads (readmeUserFiles) is only
//     parsed, with --help appended: cobra parses every flag first;
//   - `export NAME=value` sets NAME for the commands after it;
//   - a ```jsonl NAME block is saved as NAME, as the README asks the
//     reader to do;
//   - the lines in readmeSkipped are not run.
//
// Every command a run suggests next ('paperlens serve runs/…' after study)
// must parse too, so the hints and the README agree on the installed
// binary.
//
// Not parallel: commands resolve relative paths (testdata/, runs/,
// ./.paperlens) against the process's working directory, which this test
// changes.
func TestReadmeCommandsRun(t *testing.T) {
	readme, err := filepath.Abs(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(src))
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(testdata, filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)

	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return "B", "" }})
	// What a fresh shell would not have set: the README's defaults apply.
	env := map[string]string{"PAPERLENS_HOME": "", "OPENAI_BASE_URL": "", "OPENAI_API_KEY": "", "QDRANT_URL": ""}
	ran := 0
	for _, blk := range blocks {
		switch {
		case blk.lang == "jsonl" && blk.name != "":
			if err := os.WriteFile(blk.name, []byte(blk.body), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		case blk.lang != "sh":
			continue
		}
		lines, err := shellLines(blk.body)
		if err != nil {
			t.Fatalf("README.md line %d: %v", blk.line, err)
		}
		for _, words := range lines {
			vars, args := leadingAssignments(words)
			if len(args) >= 2 && args[0] == "export" {
				for _, kv := range args[1:] {
					k, v, _ := strings.Cut(kv, "=")
					env[k] = v
				}
				continue
			}
			args, ok := paperlensArgs(args)
			if !ok {
				if why := skippedLine(words); why == "" {
					t.Errorf("README.md line %d: %q is neither a paperlens command nor a listed exception", blk.line, strings.Join(words, " "))
				} else {
					t.Logf("skipped %q: %s", strings.Join(words, " "), why)
				}
				continue
			}
			cmdEnv := []string{}
			for k, v := range env {
				cmdEnv = append(cmdEnv, k+"="+v)
			}
			for k, v := range vars {
				cmdEnv = append(cmdEnv, k+"="+v)
			}
			ran++
			runReadmeCommand(t, blk.line, cli{env: cmdEnv}, args, srv.BaseURL())
		}
	}
	if ran < 10 {
		t.Fatalf("ran %d README commands; the parser lost some", ran)
	}
}

// runReadmeCommand runs one README command, in the form its exception
// says, and fails the test unless it exits 0.
func runReadmeCommand(t *testing.T, line int, c cli, args []string, modelURL string) {
	t.Helper()
	shown := "paperlens " + strings.Join(args, " ")
	if f := userFile(args); f != "" {
		args = append(args, "--help")
		shown += "   [user's file " + f + ": flags parsed, not run]"
	}
	if needsModel(args) {
		args = withFlag(args, "--base-url", modelURL)
		shown += "   [--base-url: loopback double]"
	}
	if args[0] == "serve" && !hasFlag(args, "--help") {
		checkServe(t, line, c, withFlag(args, "--addr", "127.0.0.1:0"))
		return
	}
	stdout, stderr, code := c.run(t, args...)
	if code != 0 {
		t.Fatalf("README.md line %d: %s\nexit %d\nstdout:\n%s\nstderr:\n%s", line, shown, code, tail(stdout), tail(stderr))
	}
	t.Logf("ran %s", shown)
	checkHints(t, shown, stdout+stderr)
}

// hintRE finds the commands a command's output suggests next, quoted as
// 'paperlens serve runs/…'.
var hintRE = regexp.MustCompile(`'paperlens ([^']+)'`)

// checkHints checks that every command an output suggests parses, as the
// README's installed binary would take it.
func checkHints(t *testing.T, after, output string) {
	t.Helper()
	for _, m := range hintRE.FindAllStringSubmatch(output, -1) {
		words, err := shellLines(m[1])
		if err != nil || len(words) != 1 {
			t.Errorf("after %s: hint %q is not one command", after, m[0])
			continue
		}
		if _, stderr, code := paperlens(t, append(words[0], "--help")...); code != 0 {
			t.Errorf("after %s: hint %q does not parse: %s", after, m[0], stderr)
			continue
		}
		t.Logf("hint parses: %s", m[0])
	}
}

// checkServe starts serve, fetches its index page, and stops it as
// Ctrl-C does.
func checkServe(t *testing.T, line int, c cli, args []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	var errb lockedBuffer
	wait := c.startContext(ctx, w, &errb, args...)
	go func() {
		wait()
		w.Close()
	}()
	defer func() { cancel(); wait() }()
	first, err := bufio.NewReader(r).ReadString('\n')
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(first)
	if err != nil || m == "" {
		t.Fatalf("README.md line %d: serve did not print its address: %q %v\n%s", line, first, err, errb.String())
	}
	go io.Copy(io.Discard, r)
	resp, err := http.Get(m)
	if err != nil {
		t.Fatalf("README.md line %d: GET %s: %v", line, m, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("README.md line %d: GET %s: %s", line, m, resp.Status)
	}
	cancel()
	if code := wait(); code != 0 {
		t.Fatalf("README.md line %d: serve stopped with exit %d:\n%s", line, code, errb.String())
	}
	t.Logf("ran paperlens %s   [serve on a free port, one page, stopped]", strings.Join(args, " "))
}

// userFile is the first file of readmeUserFiles that args name, or "".
func userFile(args []string) string {
	for _, a := range args {
		for _, f := range readmeUserFiles {
			if filepath.Base(a) == f {
				return f
			}
		}
	}
	return ""
}

// needsModel reports whether a command asks a model that is not one of
// the offline baselines.
func needsModel(args []string) bool {
	if hasFlag(args, "--help") {
		return false
	}
	for _, name := range []string{"--model", "--models"} {
		if v, ok := flagValue(args, name); ok {
			for _, m := range strings.Split(v, ",") {
				if m != "random" && m != "ir" {
					return true
				}
			}
		}
	}
	return false
}

func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// withFlag sets --name to value, replacing the value given if any.
func withFlag(args []string, name, value string) []string {
	out := append([]string(nil), args...)
	for i, a := range out {
		if a == name && i+1 < len(out) {
			out[i+1] = value
			return out
		}
		if strings.HasPrefix(a, name+"=") {
			out[i] = name + "=" + value
			return out
		}
	}
	return append(out, name, value)
}

// paperlensArgs returns the arguments of a paperlens command line
// (`paperlens …` or `go run ./cmd/paperlens …`).
func paperlensArgs(words []string) ([]string, bool) {
	switch {
	case len(words) >= 2 && words[0] == "paperlens":
		return words[1:], true
	case len(words) >= 4 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/paperlens":
		return words[3:], true
	}
	return nil, false
}

func skippedLine(words []string) string {
	line := strings.Join(words, " ") + " "
	for _, s := range readmeSkipped {
		if strings.HasPrefix(line, s.prefix) {
			return s.why
		}
	}
	return ""
}

// leadingAssignments splits NAME=value words off the front of a command.
func leadingAssignments(words []string) (map[string]string, []string) {
	vars := map[string]string{}
	for len(words) > 0 {
		k, v, ok := strings.Cut(words[0], "=")
		if !ok || !regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`).MatchString(k) {
			break
		}
		vars[k] = v
		words = words[1:]
	}
	return vars, words
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// fence is one fenced code block of a Markdown file: its info string's
// language and name (```jsonl my-questions.jsonl), its text, and the line
// it starts on.
type fence struct {
	lang, name, body string
	line             int
}

// fencedBlocks returns the ``` blocks of a Markdown text, in order.
func fencedBlocks(md string) []fence {
	var out []fence
	var cur *fence
	var body strings.Builder
	for i, line := range strings.Split(md, "\n") {
		if cur == nil {
			if info, ok := strings.CutPrefix(line, "```"); ok {
				f := strings.Fields(info)
				cur = &fence{line: i + 1}
				if len(f) > 0 {
					cur.lang = f[0]
				}
				if len(f) > 1 {
					cur.name = f[1]
				}
				body.Reset()
			}
			continue
		}
		if strings.HasPrefix(line, "```") {
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
			continue
		}
		body.WriteString(line)
		body.WriteString("\n")
	}
	return out
}

// shellLines splits a shell block into commands of words, as sh would for
// these simple lines: comments, single and double quotes, backslash
// escapes and line continuations. Nothing is expanded.
func shellLines(s string) ([][]string, error) {
	var lines [][]string
	var words []string
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	endLine := func() {
		flush()
		if len(words) > 0 {
			lines = append(lines, words)
			words = nil
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\\' && i+1 < len(rs):
			i++
			if rs[i] != '\n' {
				w.WriteRune(rs[i])
				inWord = true
			}
		case c == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			w.WriteString(string(rs[i+1 : j]))
			inWord, i = true, j
		case c == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune(`"\$`+"`", rs[j+1]) {
					j++
				}
				w.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf(`unclosed " in %q`, s)
			}
			inWord, i = true, j
		case c == '#' && !inWord:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			endLine()
		case c == '\n':
			endLine()
		case c == ' ' || c == '\t':
			flush()
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	endLine()
	return lines, nil
}

// Every relative link of README.md and docs/*.md names a file of the
// repository, and every #anchor a heading of the page it points to.
func TestReadmeAndDocsLinksResolve(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(b))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, l := range markdownLinks(string(b)) {
			target := l.target
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			if _, err := os.Stat(path); err != nil {
				r, _ := filepath.Rel(root, path)
				t.Errorf("%s line %d: link %q: no file %s", rel, l.line, target, r)
				continue
			}
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchorsOf(path)[anchor] {
				t.Errorf("%s line %d: link %q: no heading with anchor #%s", rel, l.line, target, anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no links found: the parser lost them")
	}
}

type mdLink struct {
	target string
	line   int
}

var linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// markdownLinks returns the inline links and images of a Markdown text
// outside code blocks and code spans.
func markdownLinks(md string) []mdLink {
	var out []mdLink
	inFence := false
	for i, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		line = regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "")
		for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
			out = append(out, mdLink{target: m[1], line: i + 1})
		}
	}
	return out
}

// headingAnchors are the anchors GitHub gives a page's headings (a second
// heading with the same slug gets -1, a third -2), and the ids of any
// <a id="…"> or <a name="…"> in it.
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range regexp.MustCompile(`<a (?:id|name)="([^"]+)"`).FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		h := strings.TrimLeft(line, "#")
		if len(h) == len(line) || len(line)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		s := slug(strings.TrimSpace(h))
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// docsForeignFlags are flags the docs name that belong to other programs,
// not to paperlens.
var docsForeignFlags = map[string]string{
	"--reasoning-parser":        "vLLM",
	"--enable-auto-tool-choice": "vLLM",
	"--tool-call-parser":        "vLLM",
	"--jinja":                   "llama.cpp's llama-server",
	"--model-id":                "Text Embeddings Inference",
	"--profile":                 "docker compose",
}

// Every paperlens command in the ```sh blocks of docs/*.md parses: its
// command exists and every flag it gives is one of that command's (run with
// --help appended, which cobra answers only after parsing every flag). And
// every --flag the README and the docs name is a flag of some paperlens
// command, or of a program listed in docsForeignFlags.
func TestReadmeAndDocsCommandsParse(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"--help": true} // cobra adds it when a command runs
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { known["--"+f.Name] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { known["--"+f.Name] = true })
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot(newGlobals(nil, strings.NewReader(""), nil, nil, nil)))
	flagRE := regexp.MustCompile(`(?:^|[^\w-])(--[a-z][a-z0-9-]*)`)
	parsed := 0
	for _, page := range append([]string{filepath.Join(root, "README.md")}, pages...) {
		rel, _ := filepath.Rel(root, page)
		if rel == filepath.Join("docs", "reference.md") {
			continue // generated from the command tree itself
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range flagRE.FindAllStringSubmatch(line, -1) {
				name := m[1]
				if strings.HasSuffix(name, "-") { // a family: "the --judge- forms"
					found := false
					for k := range known {
						found = found || strings.HasPrefix(k, name)
					}
					if !found {
						t.Errorf("%s line %d: no paperlens flag starts with %s", rel, i+1, name)
					}
					continue
				}
				if !known[name] && docsForeignFlags[name] == "" {
					t.Errorf("%s line %d: %s is no flag of any paperlens command", rel, i+1, name)
				}
			}
		}
		if rel == "README.md" {
			continue // TestReadmeCommandsRun runs its commands
		}
		for _, blk := range fencedBlocks(string(b)) {
			if blk.lang != "sh" {
				continue
			}
			lines, err := shellLines(blk.body)
			if err != nil {
				t.Fatalf("%s line %d: %v", rel, blk.line, err)
			}
			for _, words := range lines {
				_, words = leadingAssignments(words)
				args, ok := paperlensArgs(words)
				if !ok {
					continue
				}
				parsed++
				if _, stderr, code := paperlens(t, append(args, "--help")...); code != 0 {
					t.Errorf("%s line %d: paperlens %s does not parse: %s", rel, blk.line, strings.Join(args, " "), stderr)
				}
			}
		}
	}
	if parsed < 20 {
		t.Fatalf("parsed %d commands of the docs; the parser lost some", parsed)
	}
}
