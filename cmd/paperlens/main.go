// Command paperlens answers questions over long documents with and without
// retrieval, and measures whether retrieval helps.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/termsafe"
)

// exitError carries a process exit status out of a command without the
// usage dump cobra prints for ordinary errors.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "paperlens",
		Short: "Question answering over research papers, with and without retrieval",
		Long: `paperlens reproduces the ElaipBench and LPFQA studies of retrieval-augmented
generation on your own models and corpus.

  study      the whole study on the sample, offline (start here)
  ingest     PDF, text, HTML or dataset files -> clean text -> passages
  papers     list what is stored; passages shows one paper's passages
  index      BM25 (Bleve, Okapi) and dense indexes; search queries them
  eval       a model on ElaipBench, LPFQA or your JSONL in every mode;
             eval retrieval scores retrievers against the gold evidence
  ask        one question, with the passages it was given
  prompt     the exact messages a question was sent (--log-prompts)
  bench      speed against a reference measured in the same run

Everything lives under --home (default $PAPERLENS_HOME, else ./.paperlens).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return prepareIsolation(cmd)
		},
	}
	root.PersistentFlags().String("home", "", "corpus and index folder (default $PAPERLENS_HOME, else ./.paperlens)")
	root.AddCommand(newIngestCmd(), newPapersCmd(), newPassagesCmd(), newIndexCmd(), newSearchCmd(), newEvalCmd(), newStudyCmd(), newAskCmd(), newInspectCmd(), newServeCmd(), newReportCmd(), newPromptCmd(), newBenchCmd(), newWorkerCmd())
	// Every command whose web modes fetch pages parses them in workers.
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("web-provider") != nil {
			addWebDocFlags(c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return root
}

// stderr is where messages that may quote untrusted text go (per-question
// errors, warnings naming files or papers): control characters and bidi
// overrides are escaped. Progress bars and --json output use the raw
// streams.
var stderr = termsafe.NewWriter(os.Stderr)

// stdout is where human-readable results that quote papers, passages or
// replies go (ask, search, passages, papers, prompt). JSON goes to the
// raw os.Stdout, exact.
var stdout = termsafe.NewWriter(os.Stdout)

func main() {
	os.Exit(runCLI(os.Args[1:]))
}

// run executes the CLI and maps errors to exit statuses: 0 success, 1 some
// inputs failed (reported per input), 2 the command itself failed.
func runCLI(args []string) int {
	root := newRoot()
	root.SetArgs(args)
	// The one place that turns Ctrl-C and SIGTERM into a cancelled context:
	// every command works under cmd.Context(), stops at the next safe point
	// and keeps what it finished.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(os.Stderr, "paperlens:", termsafe.Escape(ee.msg))
		}
		return ee.code
	}
	// Errors quote file names, paper ids and replies: escaped, never obeyed.
	fmt.Fprintln(os.Stderr, "paperlens:", termsafe.Escape(err.Error()))
	return 2
}

// homeDir resolves --home, then $PAPERLENS_HOME, then ./.paperlens.
func homeDir(cmd *cobra.Command) string {
	if h, _ := cmd.Flags().GetString("home"); h != "" {
		return h
	}
	if h := os.Getenv("PAPERLENS_HOME"); h != "" {
		return h
	}
	return ".paperlens"
}
