package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/retrieve"
)

// Answer is what Ask got: the record, the passages the model was given,
// and the paper's passages by id (to show what the answer cites).
type Answer struct {
	Config   run.Config
	Record   run.Record
	Hits     []retrieve.Hit
	Passages map[string]corpus.Passage
}

// Ask answers one question in one mode over the home's indexed corpus:
// the ask command. The model is asked to cite the passages it uses.
func Ask(ctx context.Context, req Request, q bench.Question, modeName string) (Answer, error) {
	c := req.Config
	c.Runs, c.Data, c.Bench = 1, "(ask)", "jsonl"
	c.Modes = []string{modeName}
	c.Defaults(&req.Overrides)
	if o := req.Overrides.Answer; o.MaxTokens == nil && o.MaxCompletionTokens == nil && !c.Offline() && c.Paradigm != run.Reasoning {
		c.MaxTokens = 1024 // a free-form question wants room for an answer
	}
	if c.BaseURL == "" {
		c.BaseURL = req.Getenv("OPENAI_BASE_URL")
	}
	if q.PaperID == "" && modeName != run.ClosedBook {
		return Answer{}, fmt.Errorf("--paper ID is required for mode %s ('paperlens papers' lists the ids)", modeName)
	}
	s := &Session{req: req, cfg: c}
	defer s.Close()
	st, ix, _, err := OpenIndex(ctx, c.Home, s.index(), nil)
	if err != nil {
		return Answer{}, err
	}
	s.onClose(st.Close)
	s.onClose(ix.Close)
	if err := req.Rerank.apply(&s.cfg, envOf(req.Env)); err != nil {
		return Answer{}, err
	}
	s.opt = run.Options{Config: s.cfg, Corpus: st, Index: ix, Header: req.Clients.Header, JudgeHeader: req.Clients.JudgeHeader, Cite: true}
	// Answers and rankings are cached for the next question in the home
	// the question is asked of (no run folder holds them): one cache per
	// corpus, not one shared through the temporary folder by every
	// invocation on the machine, whose file lock parallel asks would
	// contend for and whose answers a later server on a reused port
	// would be served.
	dir := filepath.Join(s.cfg.Home, "ask-cache")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		// A read-only home: answer without keeping the answer.
		if dir, err = os.MkdirTemp("", "paperlens-ask-"); err != nil {
			return Answer{}, fmt.Errorf("ask: no folder for the answer cache: %w", err)
		}
		s.onClose(func() error { return os.RemoveAll(dir) })
	}
	if !s.cfg.Offline() {
		chat, err := s.newChat(dir, s.cfg.BaseURL, s.cfg.APIKeyEnv, 1)
		if err != nil {
			return Answer{}, err
		}
		s.opt.Chat = chat
	}
	if s.opt.Rerank, err = s.forRun(s.opt.Chat, dir); err != nil {
		return Answer{}, err
	}
	rec, hits, err := run.Ask(ctx, s.opt, q, modeName)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Config: s.cfg, Record: rec, Hits: hits, Passages: map[string]corpus.Passage{}}
	if ps, err := st.Passages(q.PaperID); err == nil {
		for _, p := range ps {
			a.Passages[p.PassageID] = p
		}
	}
	return a, nil
}

// Write shows the answer to q in mode as ask prints it: the passages the
// model was given with their scores, what --expand added, the answer and
// the passages it cites. Without a model, a free-form question gets a note
// on how to get an answer instead of the ir baseline's error.
func (a Answer) Write(w io.Writer, q bench.Question, mode string) error {
	rec, c := a.Record, a.Config
	fmt.Fprintf(w, "Passages given to the model (%s, mode %s):\n\n", q.PaperID, mode)
	for _, h := range a.Hits {
		fmt.Fprintf(w, "%2d  %8.4f  %s\n    %s\n\n", h.Rank, h.Score, h.PassageID, clip(strings.Join(strings.Fields(h.Text), " "), 400))
	}
	if n := expanded(rec); n != "" {
		fmt.Fprintf(w, "--expand added their neighbours: %s\n\n", n)
	}
	if rec.TruncatedTokens > 0 {
		fmt.Fprintf(w, "(%d tokens cut to fit --budget)\n", rec.TruncatedTokens)
	}
	if rec.Error != "" {
		if c.Offline() && q.Type == "short" {
			fmt.Fprintln(w, "No model configured, and the offline ir baseline answers multiple-choice questions only:\n"+
				"pass --model NAME --base-url URL (key in $OPENAI_API_KEY) to get an answer.")
			return nil
		}
		return fmt.Errorf("%s", rec.Error)
	}
	if rec.Route == run.RouteFull {
		fmt.Fprintf(w, "Route: full. The model said the passages do not suffice, so it answered again from the whole paper.\n\n")
	}
	fmt.Fprintf(w, "Answer (%s):\n%s\n", c.Model, rec.Output)
	if rec.Extracted != "" && q.Type != "short" {
		fmt.Fprintf(w, "\nExtracted: %s\n", rec.Extracted)
	}
	printCited(w, a.Passages, rec.Cited)
	return nil
}

// clip is s cut to n runes, with "…" when cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
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
