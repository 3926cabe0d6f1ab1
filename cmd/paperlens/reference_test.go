package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/internal/testkit/golden"
)

// docs/reference.md is generated from the command tree itself, so that it
// cannot drift from the flags: a changed flag, default or help text fails
// this test until the page is rewritten (REFERENCE_WRITE_GOLDEN=1).
func TestReferenceMatchesCLI(t *testing.T) {
	t.Parallel()
	root := newRoot(newGlobals(nil, strings.NewReader(""), nil, nil, nil))
	golden.Check(t, filepath.Join("..", "..", "docs", "reference.md"), referenceMarkdown(root), "REFERENCE_WRITE_GOLDEN")
}

// referenceMarkdown renders every visible command under root: usage, the
// long help, the examples and the flags (name, type, default, usage).
// Hidden commands (the old name bench, the extraction worker) and hidden
// flags (old names kept working) are left out.
func referenceMarkdown(root *cobra.Command) string {
	var cmds []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		cmds = append(cmds, c)
		for _, sub := range c.Commands() { // sorted by name
			walk(sub)
		}
	}
	walk(root)

	var b strings.Builder
	b.WriteString("# Command reference\n\n")
	b.WriteString("<!-- Generated from the command tree by TestReferenceMatchesCLI (cmd/paperlens/reference_test.go);\n")
	b.WriteString("     do not edit: REFERENCE_WRITE_GOLDEN=1 go test ./cmd/paperlens -run Reference rewrites it. -->\n\n")
	b.WriteString("Every command of `paperlens`, as `paperlens COMMAND --help` prints it. ")
	b.WriteString("`--home DIR` (default `$PAPERLENS_HOME`, else `./.paperlens`) applies to every command. ")
	b.WriteString("`paperlens completion bash|zsh|fish|powershell` prints a shell completion script.\n\n")
	for _, c := range cmds[1:] {
		fmt.Fprintf(&b, "- [%s](#%s): %s\n", c.CommandPath(), slug(c.CommandPath()), mdEscape(c.Short))
	}
	for _, c := range cmds {
		writeCommand(&b, c)
	}
	return b.String()
}

func writeCommand(b *strings.Builder, c *cobra.Command) {
	fmt.Fprintf(b, "\n## %s\n\n%s\n\n", c.CommandPath(), mdEscape(c.Short))
	fmt.Fprintf(b, "```\n%s\n```\n", c.UseLine())
	if c.Long != "" {
		b.WriteString("\n")
		writeProse(b, c.Long)
	}
	if c.Example != "" {
		fmt.Fprintf(b, "\nExamples:\n\n```sh\n%s\n```\n", dedent(c.Example))
	}
	var subs []string
	for _, s := range c.Commands() {
		if !s.Hidden {
			subs = append(subs, fmt.Sprintf("[%s](#%s)", s.Name(), slug(s.CommandPath())))
		}
	}
	if len(subs) > 0 {
		fmt.Fprintf(b, "\nSubcommands: %s.\n", strings.Join(subs, ", "))
	}
	var flags []*pflag.Flag
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" || (f.Name == "home" && c.HasParent()) {
			return
		}
		flags = append(flags, f)
	})
	if len(flags) == 0 {
		return
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
	b.WriteString("\n| flag | type | default | meaning |\n|---|---|---|---|\n")
	for _, f := range flags {
		typ, usage := pflag.UnquoteUsage(f)
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", " + name
		}
		def := ""
		if d, ok := helpDefault(f); ok {
			def = code(d)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", code(name), cell(typ), def, cell(mdEscape(usage)))
	}
}

// helpDefault is the default --help prints for f, when it prints one:
// pflag leaves out zero values (false, 0, "", []), and so does the
// reference, so that a flag whose usage names its real default ("default:
// number of CPUs") is not shown with a misleading 0.
func helpDefault(f *pflag.Flag) (string, bool) {
	fs := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.AddFlag(f)
	line := strings.TrimRight(fs.FlagUsages(), "\n")
	i := strings.LastIndex(line, " (default ")
	if i < 0 || !strings.HasSuffix(line, ")") {
		return "", false
	}
	d := line[i+len(" (default ") : len(line)-1]
	if f.Value.Type() == "string" && len(d) >= 2 && d[0] == '"' && d[len(d)-1] == '"' {
		d = d[1 : len(d)-1]
	}
	return d, true
}

// writeProse renders a help text: paragraphs of plain sentences as
// Markdown paragraphs, and paragraphs laid out in columns or indented
// lines (lists, tables, commands) as they are printed.
func writeProse(b *strings.Builder, text string) {
	paras := strings.Split(strings.Trim(text, "\n"), "\n\n")
	for i, p := range paras {
		p = strings.Trim(p, "\n")
		if p == "" {
			continue
		}
		if i > 0 {
			b.WriteString("\n")
		}
		laidOut := false
		for _, line := range strings.Split(p, "\n") {
			if strings.HasPrefix(line, " ") || strings.Contains(line, "   ") {
				laidOut = true
			}
		}
		if laidOut {
			fmt.Fprintf(b, "```text\n%s\n```\n", p)
			continue
		}
		fmt.Fprintf(b, "%s\n", mdEscape(p))
	}
}

// dedent removes the indentation the examples share.
func dedent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n")
}

// mdEscape keeps help text literal in Markdown: no emphasis, links, HTML
// or code spans where the text has none.
func mdEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

// code is s as a code span, in a table cell.
func code(s string) string {
	return cell("`" + s + "`")
}

// cell keeps a table cell one cell: pipes escaped (GitHub reads \| even
// inside code spans).
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// slug is GitHub's anchor for a heading: lower case, punctuation other than
// hyphens and underscores dropped, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127 && (unicode.IsLetter(r) || unicode.IsNumber(r)):
			b.WriteRune(r)
		}
	}
	return b.String()
}
