// Command paperlens answers questions over long documents with and without
// retrieval, and measures whether retrieval helps.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/internal/termsafe"
)

// globalOptions are what every command of one invocation shares: the home,
// the streams, the environment and the command line. main fills them from
// the process; a test from its own buffers. Nothing of an invocation is
// package state, so that tests run commands in parallel in one process.
type globalOptions struct {
	home  string // --home
	stdin io.Reader
	// stdout and stderr are the raw streams: JSON output (exact) and
	// progress bars.
	stdout, stderr io.Writer
	// out and errOut escape control characters and bidi overrides: where
	// human-readable results and messages that may quote untrusted text
	// go (papers, passages, replies, file names, per-question errors).
	out, errOut io.Writer
	// stdoutTTY and stderrTTY say whether the streams are terminals
	// (colour, live progress bars).
	stdoutTTY, stderrTTY bool
	// env overrides variables of the process's environment (a test's);
	// nil: none.
	env  map[string]string
	args []string // the command line after the program name
	iso  cliflags.Isolation
	// isolation is how this invocation parses untrusted documents,
	// settled before the command runs (prepareIsolation).
	isolation *ingest.Isolation
}

// newGlobals are the options of an invocation over these streams.
func newGlobals(args []string, stdin io.Reader, stdout, stderr io.Writer, env map[string]string) *globalOptions {
	return &globalOptions{stdin: stdin, stdout: stdout, stderr: stderr,
		out: termsafe.NewWriter(stdout), errOut: termsafe.NewWriter(stderr),
		env: env, args: args, iso: cliflags.DefaultIsolation()}
}

// exitError carries a process exit status out of a command without the
// usage dump cobra prints for ordinary errors.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func newRoot(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:           "paperlens",
		Short:         "Question answering over research papers, with and without retrieval",
		Long:          helpText("paperlens"),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			cliflags.WarnDeprecated(cmd.Flags(), g.stderr)
			return g.prepareIsolation(cmd)
		},
	}
	root.SetIn(g.stdin)
	root.SetOut(g.stdout)
	root.SetErr(g.stderr)
	root.PersistentFlags().StringVar(&g.home, "home", "", "corpus and index folder (default $PAPERLENS_HOME, else ./.paperlens)")
	root.AddCommand(newIngestCmd(g), newPapersCmd(g), newPassagesCmd(g), newIndexCmd(g), newSearchCmd(g), newEvalCmd(g), newStudyCmd(g),
		newAskCmd(g), newInspectCmd(g), newServeCmd(g), newReportCmd(g), newExportCmd(g), newRescoreCmd(g), newJudgeCheckCmd(g), newComposeCmd(g), newPromptCmd(g), newMeasureCmd(g, "measure"), newMeasureCmd(g, "bench"), newWorkerCmd())
	// Every command whose web modes fetch pages parses them in workers.
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("web-provider") != nil {
			g.iso.AddWeb(c.Flags())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return root
}

func main() {
	os.Exit(cliMain(os.Args[1:]))
}

// cliMain runs the CLI as the process: its streams, its environment, and
// the one place that turns Ctrl-C and SIGTERM into a cancelled context
// (every command works under cmd.Context(), stops at the next safe point
// and keeps what it finished).
func cliMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g := newGlobals(args, os.Stdin, os.Stdout, os.Stderr, nil)
	g.stdoutTTY, g.stderrTTY = isatty.IsTerminal(os.Stdout.Fd()), isatty.IsTerminal(os.Stderr.Fd())
	return runCLI(ctx, g)
}

// runCLI executes the command line of g and maps errors to exit statuses:
// 0 success, 1 some inputs failed (reported per input), 2 the command
// itself failed.
func runCLI(ctx context.Context, g *globalOptions) int {
	root := newRoot(g)
	root.SetArgs(g.args)
	// Here, not in PersistentPreRunE: --help skips that, and a script
	// asking an old command for its help should hear it is old.
	if cmd, _, err := root.Find(g.args); err == nil {
		warnDeprecatedCommand(cmd, g.stderr)
	}
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(g.stderr, "paperlens:", termsafe.Escape(ee.msg))
		}
		return ee.code
	}
	// Errors quote file names, paper ids and replies: escaped, never obeyed.
	fmt.Fprintln(g.stderr, "paperlens:", termsafe.Escape(err.Error()))
	return 2
}

// warnDeprecatedCommand warns when cmd is, or is under, a command kept
// only under its old name.
func warnDeprecatedCommand(cmd *cobra.Command, w io.Writer) {
	for c := cmd; c != nil; c = c.Parent() {
		if note := c.Annotations[cliflags.Deprecated]; note != "" {
			fmt.Fprintf(w, "Command %q has been deprecated, %s\n", c.Name(), note)
		}
	}
}

// getenv is name in the invocation's environment.
func (g *globalOptions) getenv(name string) string {
	if v, ok := g.env[name]; ok {
		return v
	}
	return os.Getenv(name)
}

// homeDir resolves --home, then $PAPERLENS_HOME, then ./.paperlens.
func (g *globalOptions) homeDir() string {
	if g.home != "" {
		return g.home
	}
	if h := g.getenv("PAPERLENS_HOME"); h != "" {
		return h
	}
	return ".paperlens"
}

// invocation is what the shared flag sets take from this invocation.
func (g *globalOptions) invocation() cliflags.Invocation {
	return cliflags.Invocation{Home: g.homeDir(), Args: g.args, Env: g.env, Isolation: g.isolation,
		DocTimeout: g.iso.Timeout, Log: g.errOut, Progress: g.stderr, Terminal: g.stderrTTY}
}

// The commands' help is prose kept in help/NAME.txt (the long
// description) and help/NAME.example.txt (the examples), read as written:
// easier to edit and review than Go string literals, as the prompt
// templates are.
//
//go:embed help
var helpFiles embed.FS

// helpText is the help file of name, its placeholders ({{kinds}},
// {{study-modes}}…) replaced by what the code uses (cliflags.HelpVars).
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(fmt.Sprintf("no help for %s: %v", name, err)) // a build without its help files
	}
	return strings.NewReplacer(cliflags.HelpVars()...).Replace(strings.TrimSuffix(string(b), "\n"))
}
