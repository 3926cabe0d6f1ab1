package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
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
	// Answers and rankings are cached for the next question, outside any
	// run folder.
	dir := filepath.Join(os.TempDir(), "paperlens-ask")
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
