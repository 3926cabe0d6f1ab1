package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/inspector"
)

func newServeCmd(g *globalOptions) *cobra.Command {
	var addr, data string
	cmd := &cobra.Command{
		Use:   "serve [--home DIR] [--data FILE] [--addr 127.0.0.1:7575] RUN_DIR...",
		Short: "Browse runs in a read-only web inspector: per question, every mode side by side",
		Long: `serve starts a local, read-only web UI over the given run folders:
  /                 every run with its summary table (accuracy and 95% interval,
                    RAG effect against the baseline, evidence recall, miss rate,
                    replies cut by the token limit, tokens per question, cost)
  /r/N/             the questions of run N, filtered by mode, outcome, type,
                    breakdown field and "flipped" (right in full but wrong with
                    retrieval, or the reverse; with vs=K, against the same mode
                    in run K, offered when K is the same model on the same data
                    under another paradigm, e.g. base and reasoning), sortable
                    by any column
  /r/N/q/ID         one question: for each mode side by side, the passages in rank
                    order with scores and retriever, gold evidence highlighted,
                    gold sentences that were not retrieved with their section and
                    offset, web results, the output, reasoning and extracted answer,
                    finish reason, and the server's (cached, reasoning) tokens
  /r/N/paper/ID     the cleaned paper with passage boundaries and all gold evidence

It binds to 127.0.0.1 unless --addr says otherwise, serves only the runs named,
runs no scripts, loads nothing from the network, and never shows API keys.
Questions come from the dataset and paper passages from the corpus home
recorded in each run's config.json. A path recorded relative to where eval
ran is also looked for next to the run folder (its parent and grandparent),
so serve works from any directory; --data and --home override them (for a
run folder copied from another machine; they apply to every run given).
A run still going is re-read when its results.jsonl changes; a run stopped
before the end is summarised from its records and marked incomplete.`,
		Example: `  paperlens serve runs/study-ir-base runs/study-random-base
  paperlens serve runs/gpt-5-base runs/gpt-5-reasoning   # then /r/2/?vs=1&flipped=lost
  paperlens serve --addr 127.0.0.1:0 runs/elaipbench-gpt-4o-base   # any free port`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt := inspector.Options{Log: g.errOut, Data: data}
			if cmd.Flags().Changed("home") {
				opt.Home = g.homeDir()
			}
			return runServe(cmd.Context(), g, addr, opt, args)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "the runs' dataset, when config.json's path no longer finds it")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:7575", "address to listen on (127.0.0.1 keeps it to this machine; port 0 picks a free one)")
	return cmd
}

// runServe serves the runs read-only at addr until ctx ends.
func runServe(ctx context.Context, g *globalOptions, addr string, opt inspector.Options, args []string) error {
	site, err := inspector.Load(args, opt)
	if err != nil {
		return err
	}
	return site.ListenAndServe(ctx, addr, g.stdout, g.errOut)
}
