package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/ingest/corpus"
)

// askOptions are the flags of ask: eval's, and the paper.
type askOptions struct {
	evalOptions
	paper string
}

func newAskCmd(g *globalOptions) *cobra.Command {
	var o askOptions
	cmd := &cobra.Command{
		Use:   "ask [--paper ID] [--mode hybrid] [--model M] QUESTION",
		Short: "Answer one question over the indexed corpus and show the passages used, with scores",
		Long: `ask answers one question in one mode and prints the passages it was given
(rank, score, passage id) and the model's answer. Options may be inline
("... A. x B. y"); then the extracted answer letters are shown too.

The model is asked to cite the passages it uses as [p3] (passage 3 of the
paper); the cited passages that were in its context are listed under the
answer with their section and first words. In mode self-route it is told
to reply "unanswerable" when the passages do not suffice, and is then
asked again with the whole paper.

Without --model (or with --model ir) it answers with the offline ir
baseline, which needs no key.`,
		Example: `  paperlens ask --paper tidal-token-pruning "How are parked tokens restored?"
  paperlens ask --paper trpo --mode full+hybrid --model gpt-4o-mini --base-url https://api.openai.com/v1 "What does the trust region bound?"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAsk(cmd.Context(), g, &o, cmd.Flags().Changed, args)
		},
	}
	addEvalFlags(cmd, &o.evalOptions)
	cmd.Flags().StringVar(&o.paper, "paper", "", "paper to answer from ('paperlens papers' lists the ids)")
	return cmd
}

// runAsk answers the question the words of args make, without a model
// (or with ir) by the offline ir baseline, in mode hybrid unless told.
func runAsk(ctx context.Context, g *globalOptions, o *askOptions, changed func(string) bool, args []string) error {
	text := strings.Join(args, " ")
	if o.cfg.Model == "" {
		o.cfg.Model = "ir"
	}
	mode := o.modes
	if mode == "" {
		mode = run.ModeHybrid
	}
	req, err := o.request(g, changed)
	if err != nil {
		return err
	}
	q := bench.Question{ID: bench.StableID("ask-", o.paper, text), PaperID: o.paper, Text: text, MCQ: mcq.Parse(text), Type: "short"}
	if len(q.MCQ.Options) >= 2 {
		q.Type = "SA-MCQ"
	}
	a, err := session.Ask(ctx, req, q, mode)
	if err != nil {
		return err
	}
	rec, c, out := a.Record, a.Config, g.out
	if o.asJSON {
		return json.NewEncoder(g.stdout).Encode(map[string]any{"record": rec, "passages": a.Hits})
	}
	fmt.Fprintf(out, "Passages given to the model (%s, mode %s):\n\n", o.paper, mode)
	for _, h := range a.Hits {
		fmt.Fprintf(out, "%2d  %8.4f  %s\n    %s\n\n", h.Rank, h.Score, h.PassageID, truncate(strings.Join(strings.Fields(h.Text), " "), 400))
	}
	if n := expanded(rec); n != "" {
		fmt.Fprintf(out, "--expand added their neighbours: %s\n\n", n)
	}
	if rec.TruncatedTokens > 0 {
		fmt.Fprintf(out, "(%d tokens cut to fit --budget)\n", rec.TruncatedTokens)
	}
	if rec.Error != "" {
		if c.Offline() && q.Type == "short" {
			fmt.Fprintln(out, "No model configured, and the offline ir baseline answers multiple-choice questions only:\n"+
				"pass --model NAME --base-url URL (key in $OPENAI_API_KEY) to get an answer.")
			return nil
		}
		return fmt.Errorf("%s", rec.Error)
	}
	if rec.Route == run.RouteFull {
		fmt.Fprintf(out, "Route: full. The model said the passages do not suffice, so it answered again from the whole paper.\n\n")
	}
	fmt.Fprintf(out, "Answer (%s):\n%s\n", c.Model, rec.Output)
	if rec.Extracted != "" && q.Type != "short" {
		fmt.Fprintf(out, "\nExtracted: %s\n", rec.Extracted)
	}
	printCited(out, a.Passages, rec.Cited)
	return nil
}

// expanded lists the passages --expand added beside the hits, or "".
func expanded(rec run.Record) string {
	var ids []string
	for _, c := range rec.Context {
		if c.Expanded {
			ids = append(ids, c.PassageID)
		}
	}
	return strings.Join(ids, ", ")
}

// printCited lists the passages the answer cites: id, section and first
// words, so that a reader can check each claim against its source.
func printCited(w io.Writer, byID map[string]corpus.Passage, cited []string) {
	if len(cited) == 0 {
		return
	}
	fmt.Fprintf(w, "\nCited passages:\n")
	for _, id := range cited {
		p, ok := byID[id]
		if !ok {
			fmt.Fprintf(w, "  [%s] %s (no longer in the corpus)\n", citeShort(id), id)
			continue
		}
		sec := ""
		if p.Section != "" {
			sec = " · § " + p.Section
		}
		fmt.Fprintf(w, "  [%s] %s%s\n      %s\n", citeShort(id), id, sec, firstWords(p.Text, 16))
	}
}

// citeShort is the label the prompt offered for a passage id: p3 for x#3.
func citeShort(id string) string {
	if i := strings.LastIndexByte(id, '#'); i >= 0 {
		return "p" + id[i+1:]
	}
	return id
}

// firstWords is the first n words of s, with "…" when there is more.
func firstWords(s string, n int) string {
	ws := strings.Fields(s)
	if len(ws) <= n {
		return strings.Join(ws, " ")
	}
	return strings.Join(ws[:n], " ") + " …"
}
