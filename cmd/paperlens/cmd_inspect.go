package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/report"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/internal/termsafe"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

// inspectOptions are the flags of inspect.
type inspectOptions struct {
	mode, data  string
	plain       bool
	homeChanged bool // --home given: the corpus is there now
}

func newInspectCmd(g *globalOptions) *cobra.Command {
	var o inspectOptions
	cmd := &cobra.Command{
		Use:   "inspect RUN_DIR [QUESTION_ID]",
		Short: "Show, per question, what each mode retrieved, where the gold evidence was, and why it scored as it did",
		Long: `inspect reads a run folder. Without a question id it lists the questions
with a mark per mode (+ right, - wrong, ? miss, ! error). With one it shows,
for each mode: the passages in rank order with their scores and the gold
evidence marked in them, the gold sentences that were not retrieved with
where they are in the paper, web results, the model's output and reasoning,
the extracted answer, and tokens cut by the budget.

Gold evidence is highlighted in colour on a terminal and between »« otherwise.

It works from any directory: a dataset or corpus home that config.json
records relative to where eval ran is looked for there too (the run
folder's parents), and the path used is printed. --data and --home say
where they are now.`,
		Example: `  paperlens inspect runs/study-ir-base
  paperlens inspect runs/study-ir-base eb-61f104363ed3 --mode full+hybrid
  paperlens inspect ~/proj/runs/gpt-5-base eb-61f104363ed3 --data ~/proj/data/elaipbench.jsonl`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.homeChanged = cmd.Flags().Changed("home")
			return runInspect(g, o, args)
		},
	}
	cmd.Flags().StringVar(&o.mode, "mode", "", "show only this mode")
	cmd.Flags().BoolVar(&o.plain, "plain", false, "no colour even on a terminal")
	cmd.Flags().StringVar(&o.data, "data", "", "the run's dataset, when config.json's path no longer finds it")
	return cmd
}

// runInspect lists a run's questions with a mark per mode, or shows one
// question in every mode.
func runInspect(g *globalOptions, o inspectOptions, args []string) error {
	dir := args[0]
	over := report.Paths{Data: o.data}
	if o.homeChanged {
		over.Home = g.homeDir()
	}
	folder, err := report.ReadFolder(dir, over)
	if err != nil {
		return err
	}
	cfg := folder.Config
	recs, err := run.Dir(dir).Records()
	if err != nil {
		return err
	}
	if len(args) == 1 {
		return listQuestions(g.stdout, cfg, recs)
	}
	for _, n := range folder.Notes {
		fmt.Fprintln(g.errOut, n)
	}
	qs, _, err := folder.Questions()
	if err != nil {
		return fmt.Errorf("cannot show question %q: %w", args[1], err)
	}
	if w := folder.DataChanged(); w != "" {
		fmt.Fprintln(g.errOut, "warning: "+w)
	}
	var q *bench.Question
	for i := range qs {
		if qs[i].ID == args[1] {
			q = &qs[i]
		}
	}
	if q == nil {
		return fmt.Errorf("no question %q in %s; 'paperlens inspect %s' lists them", args[1], cfg.Data, dir)
	}
	var st *corpus.Store
	if s, err := corpus.Open(cfg.Home, true); err == nil {
		st = s
		defer st.Close()
	} else {
		fmt.Fprintf(g.errOut, "passages not shown: %v (--home DIR names the corpus home the run used)\n", err)
	}
	return showQuestion(g.stdout, *q, recs, o.mode, st, !o.plain && g.stdoutTTY)
}

func mark(r run.Record) string {
	switch {
	case r.Error != "":
		return "!"
	case r.Miss:
		return "?"
	case r.Correct:
		return "+"
	}
	return "-"
}

func listQuestions(w io.Writer, cfg run.Config, recs []run.Record) error {
	byQ := map[string]map[string]string{}
	types := map[string]string{}
	var ids []string
	for _, r := range recs {
		if byQ[r.QuestionID] == nil {
			byQ[r.QuestionID] = map[string]string{}
			ids = append(ids, r.QuestionID)
		}
		byQ[r.QuestionID][r.Mode] += mark(r)
		types[r.QuestionID] = r.QuestionType
	}
	sort.Strings(ids)
	fmt.Fprintf(w, "%-18s %-8s", "question", "type")
	for _, m := range cfg.Modes {
		fmt.Fprintf(w, " %-12s", m)
	}
	fmt.Fprintln(w)
	for _, id := range ids {
		fmt.Fprintf(w, "%-18s %-8s", termsafe.Line(id), termsafe.Line(types[id]))
		for _, m := range cfg.Modes {
			fmt.Fprintf(w, " %-12s", byQ[id][m])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\n+ right  - wrong  ? no answer extracted  ! error   (one mark per run)")
	return nil
}

// highlight marks the gold evidence found in a passage: the words that
// matched it (as in the web inspector), not a literal search.
func highlight(text string, gold *evidence.Gold, color bool) string {
	text = strings.Join(strings.Fields(text), " ")
	if gold == nil {
		return termsafe.Line(text)
	}
	open, close := "»", "«"
	if color {
		open, close = "\x1b[1;33m", "\x1b[0m"
	}
	// The passage is escaped piece by piece, so that only the marks are
	// terminal codes.
	var b strings.Builder
	at := 0
	for _, sp := range gold.Spans(text) {
		b.WriteString(termsafe.Line(text[at:sp.Start]))
		b.WriteString(open + termsafe.Line(text[sp.Start:sp.End]) + close)
		at = sp.End
	}
	b.WriteString(termsafe.Line(text[at:]))
	return b.String()
}

// showQuestion prints one question and its records. Everything it prints
// from the dataset, the corpus or a reply goes through termsafe: a model
// that answers with ESC sequences cannot clear the screen, retitle the
// window or reorder the text of whoever inspects it.
func showQuestion(w io.Writer, q bench.Question, recs []run.Record, only string, st *corpus.Store, color bool) error {
	esc, line := termsafe.Escape, termsafe.Line
	fmt.Fprintf(w, "%s  [%s]  paper %s\n\n%s\n\nGold answer: %s\n", line(q.ID), line(q.Type), line(q.PaperID), esc(q.Text), line(q.Answer))
	var gold *evidence.Gold
	if strings.TrimSpace(q.Evidence) != "" {
		gold = evidence.ParseGold(q.Evidence, evidence.Options{})
		fmt.Fprintf(w, "Gold evidence: %s\n", line(strings.Join(strings.Fields(q.Evidence), " ")))
	}
	texts := map[string]string{}
	var ids, all []string
	if st != nil {
		if ps, err := st.Passages(q.PaperID); err == nil {
			for _, p := range ps {
				texts[p.PassageID] = p.Text
				ids, all = append(ids, p.PassageID), append(all, p.Text)
			}
		}
	}
	for _, r := range recs {
		if r.QuestionID != q.ID || (only != "" && r.Mode != only) {
			continue
		}
		fmt.Fprintf(w, "\n═══ %s  run %d  %s  extracted %q (%s)  %d prompt tokens", line(r.Mode), r.Run, map[bool]string{true: "RIGHT", false: "WRONG"}[r.Correct], r.Extracted, r.Method, r.PromptTokens)
		if r.TruncatedTokens > 0 {
			fmt.Fprintf(w, ", %d cut to fit", r.TruncatedTokens)
		}
		fmt.Fprintln(w)
		if r.Error != "" {
			fmt.Fprintf(w, "error: %s\n", esc(r.Error))
		}
		var got []string
		for _, c := range r.Context {
			t := texts[c.PassageID]
			got = append(got, t)
			fmt.Fprintf(w, "  %2d  %8.4f  %s\n      %s\n", c.Rank, c.Score, line(c.PassageID), truncate(highlight(t, gold, color), 600))
		}
		for _, x := range r.Web {
			fmt.Fprintf(w, "  web %d  %-8s %s  %s (%d tokens)\n", x.Rank, line(x.Status), line(x.URL), line(x.Title), x.Tokens)
		}
		if gold != nil && len(r.Context) > 0 && st != nil {
			m := gold.Score(got)
			locs := gold.Locate(ids, all)
			for i, fr := range m.FirstRank {
				if fr == 0 {
					where := "not found in the paper's passages"
					if locs[i].PassageID != "" {
						where = fmt.Sprintf("in %s", line(locs[i].PassageID))
					}
					fmt.Fprintf(w, "  not retrieved: %q (%s)\n", truncate(locs[i].Sentence, 120), where)
				}
			}
		}
		if r.Reasoning != "" {
			fmt.Fprintf(w, "reasoning (%d chars): %s\n", len(r.Reasoning), line(truncate(strings.Join(strings.Fields(r.Reasoning), " "), 400)))
		}
		fmt.Fprintf(w, "output: %s\n", esc(truncate(strings.TrimSpace(r.Output), 800)))
	}
	return nil
}
