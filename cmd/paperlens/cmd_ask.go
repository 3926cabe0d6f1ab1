package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
)

func newAskCmd() *cobra.Command {
	var f evalFlags
	var paper, mode string
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
			ctx := cmd.Context()
			text := strings.Join(args, " ")
			if f.cfg.Model == "" {
				f.cfg.Model = "ir"
			}
			mode = f.modes
			if mode == "" {
				mode = run.ModeHybrid
			}
			f.cfg.Runs, f.cfg.Data, f.cfg.Bench = 1, "(ask)", "jsonl"
			c := f.cfg
			c.Home = homeDir(cmd)
			c.Modes = []string{mode}
			if err := f.applyRequest(&c, cmd.Flags().Changed); err != nil {
				return err
			}
			if !cmd.Flags().Changed("max-tokens") && !cmd.Flags().Changed("max-completion-tokens") && !c.Offline() && c.Paradigm != run.Reasoning {
				c.MaxTokens = 1024 // a free-form question wants room for an answer
			}
			if c.BaseURL == "" {
				c.BaseURL = os.Getenv("OPENAI_BASE_URL")
			}
			q := bench.Question{ID: bench.StableID("ask-", paper, text), PaperID: paper, Text: text, MCQ: mcq.Parse(text), Type: "short"}
			if len(q.MCQ.Options) >= 2 {
				q.Type = "SA-MCQ"
			}
			if paper == "" && mode != run.ClosedBook {
				return fmt.Errorf("--paper ID is required for mode %s ('paperlens papers' lists the ids)", mode)
			}
			st, ix, _, err := openIndex(ctx, c.Home, &f.index, true)
			if err != nil {
				return err
			}
			defer st.Close()
			defer ix.Close()
			if err := f.rerank.apply(&c); err != nil {
				return err
			}
			opt := run.Options{Config: c, Corpus: st, Index: ix, Header: f.header, JudgeHeader: f.judgeHeader, Cite: true}
			if !c.Offline() {
				c.Out = os.TempDir()
				chat, closer, err := newChat(c.Out+"/paperlens-ask", c.BaseURL, os.Getenv(f.apiKeyEnv), &f, 1)
				if err != nil {
					return err
				}
				defer closer.Close()
				opt.Chat = chat
			}
			rr, rrCloser, err := f.rerank.forRun(c, opt.Chat, filepath.Join(os.TempDir(), "paperlens-ask"), &f, os.Stderr)
			if err != nil {
				return err
			}
			defer rrCloser.Close()
			opt.Rerank = rr
			rec, hits, err := run.Ask(ctx, opt, q, mode)
			if err != nil {
				return err
			}
			if f.asJSON {
				return json.NewEncoder(os.Stdout).Encode(map[string]any{"record": rec, "passages": hits})
			}
			fmt.Fprintf(stdout, "Passages given to the model (%s, mode %s):\n\n", paper, mode)
			for _, h := range hits {
				fmt.Fprintf(stdout, "%2d  %8.4f  %s\n    %s\n\n", h.Rank, h.Score, h.PassageID, truncate(strings.Join(strings.Fields(h.Text), " "), 400))
			}
			if n := expanded(rec); n != "" {
				fmt.Fprintf(stdout, "--expand added their neighbours: %s\n\n", n)
			}
			if rec.TruncatedTokens > 0 {
				fmt.Fprintf(stdout, "(%d tokens cut to fit --budget)\n", rec.TruncatedTokens)
			}
			if rec.Error != "" {
				if c.Offline() && q.Type == "short" {
					fmt.Fprintln(stdout, "No model configured, and the offline ir baseline answers multiple-choice questions only:\n"+
						"pass --model NAME --base-url URL (key in $OPENAI_API_KEY) to get an answer.")
					return nil
				}
				return fmt.Errorf("%s", rec.Error)
			}
			if rec.Route == run.RouteFull {
				fmt.Fprintf(stdout, "Route: full. The model said the passages do not suffice, so it answered again from the whole paper.\n\n")
			}
			fmt.Fprintf(stdout, "Answer (%s):\n%s\n", c.Model, rec.Output)
			if rec.Extracted != "" && q.Type != "short" {
				fmt.Fprintf(stdout, "\nExtracted: %s\n", rec.Extracted)
			}
			printCited(stdout, st, paper, rec.Cited)
			return nil
		},
	}
	addEvalFlags(cmd, &f)
	cmd.Flags().StringVar(&paper, "paper", "", "paper to answer from ('paperlens papers' lists the ids)")
	return cmd
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
func printCited(w io.Writer, st *corpus.Store, paperID string, cited []string) {
	if len(cited) == 0 {
		return
	}
	byID := map[string]corpus.Passage{}
	if ps, err := st.Passages(paperID); err == nil {
		for _, p := range ps {
			byID[p.PassageID] = p
		}
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
