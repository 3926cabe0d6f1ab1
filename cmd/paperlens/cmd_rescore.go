package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/cliflags"
)

func newRescoreCmd(g *globalOptions) *cobra.Command {
	var f cliflags.Rescore
	cmd := &cobra.Command{
		Use:     "rescore RUN_DIR [--judge-model NAME] [--data FILE] [--json]",
		Short:   "Score a run's saved replies again by the current rules (and judge), without asking the model",
		Long:    helpText("rescore"),
		Example: helpText("rescore.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			home := ""
			if cmd.Flags().Changed("home") {
				home = g.homeDir()
			}
			req, err := f.Request(args[0], home, g.invocation(), cmd.Flags().Changed)
			if err != nil {
				return err
			}
			return runRescore(cmd.Context(), g, f.JSON, req)
		},
	}
	f.Add(cmd.Flags())
	return cmd
}

// runRescore rescores the run folder, prints the new summary (or the
// result as JSON) and maps failed judge calls to exit status 1.
func runRescore(ctx context.Context, g *globalOptions, asJSON bool, req session.RescoreRequest) error {
	res, err := session.Rescore(ctx, req)
	if err != nil {
		return err
	}
	if asJSON {
		if res.Changes == nil {
			res.Changes = []run.Change{}
		}
		enc := json.NewEncoder(g.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return fmt.Errorf("rescore: %w", err)
		}
	} else {
		b, _ := run.Dir(req.Dir).SummaryMarkdown()
		g.stdout.Write(b)
		for _, c := range res.Changes {
			fmt.Fprintf(g.errOut, "%s %s run %d: %s -> %s\n", c.QuestionID, c.Mode, c.Run, verdictText(c.Was), verdictText(c.Now))
		}
		fmt.Fprintf(g.errOut, "\n%d records rescored, %d changed, %d re-judged; run folder %s\n", res.Rescored, len(res.Changes), res.Rejudged, req.Dir)
	}
	if res.Failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d judge calls failed: those records keep their earlier score; run rescore again to retry them", res.Failed)}
	}
	return nil
}

// verdictText is a verdict in a few words: right or wrong, and what was
// read from the reply.
func verdictText(v run.Verdict) string {
	s := "wrong"
	if v.Correct {
		s = "right"
	}
	if v.Score != nil {
		s += fmt.Sprintf(" (%s %.2f)", v.ScoreKind, *v.Score)
	}
	if v.Extracted != "" {
		s += fmt.Sprintf(" %q", v.Extracted)
	}
	return s
}
