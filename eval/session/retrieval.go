package session

import (
	"context"
	"io"
	"slices"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Retrieval is what searching and scoring retrieval need: a home's
// corpus and index, and a reranker of their own (no answering model).
type Retrieval struct {
	Home   string
	Index  Index
	Rerank Rerank
	Env    map[string]string // overrides of the process's environment
	// Progress receives the index update's progress; nil: silent.
	Progress io.Writer
	// Log receives the reranker's notes and warnings; nil: discarded.
	Log io.Writer
	// Retrieved are run files by name (--retrieved NAME=FILE): each is
	// scored as retriever run:NAME, beside the index's (see
	// ScoreRetrieval).
	Retrieved map[string]string
}

// open opens the home's index (brought up to date) and the reranker.
func (r Retrieval) open(ctx context.Context) (*Session, *retrievalSource, error) {
	// Settings that cannot work fail before an index is built.
	if err := r.Rerank.Check(); err != nil {
		return nil, nil, err
	}
	s := &Session{req: Request{Env: r.Env, Log: r.Log}}
	x := r.Index
	if x.Env == nil {
		x.Env = r.Env
	}
	st, ix, _, err := OpenIndex(ctx, r.Home, x, r.Progress)
	if err != nil {
		return nil, nil, err
	}
	s.onClose(st.Close)
	s.onClose(ix.Close)
	rr, closer, err := r.Rerank.Standalone(r.Home, r.Env, r.Log)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	s.onClose(closer.Close)
	return s, &retrievalSource{src: retrieval.SweepSource{Store: st, Index: ix, IndexConfig: x.Config(r.Home)}, ix: ix, rr: rr}, nil
}

// retrievalSource is an open home and its reranker.
type retrievalSource struct {
	src retrieval.SweepSource
	ix  *index.Index // src.Index, for what only the home's index offers
	rr  rerank.Reranker
}

// ScoreRetrieval scores the configured retrievers against the questions'
// gold evidence (eval retrieval, the study's table), reranked as r says;
// each question's result goes to each (nil: none). Every run file of
// r.Retrieved is scored too, as retriever run:NAME after those cfg
// names (which may name it already); the files are checked against the
// corpus and the questions first. Passage recall is measured over the
// home's passages (retrieval.Config.Passages), unless cfg says
// otherwise.
func ScoreRetrieval(ctx context.Context, r Retrieval, qs []bench.Question, cfg retrieval.Config, each func(retrieval.QuestionResult)) (retrieval.Summary, error) {
	files, err := retrievedFiles(r.Retrieved)
	if err != nil {
		return retrieval.Summary{}, err
	}
	s, src, err := r.open(ctx)
	if err != nil {
		return retrieval.Summary{}, err
	}
	defer s.Close()
	cfg.Rerank, cfg.RerankDepth = src.rr, r.Rerank.Depth
	if cfg.Passages == nil {
		cfg.Passages = src.src.Store.Passages
	}
	ix := src.src.Index
	if len(files) > 0 {
		runs, err := openRuns(files, src.src.Store, qs)
		if err != nil {
			return retrieval.Summary{}, err
		}
		ix = withRuns{base: ix, runs: runs}
		cfg.Retrievers = slices.Clone(cfg.Retrievers)
		for _, f := range files {
			if name := mode.RunMode(f.Name); !slices.Contains(cfg.Retrievers, name) {
				cfg.Retrievers = append(cfg.Retrievers, name)
			}
		}
	}
	return retrieval.Run(ctx, ix, qs, cfg, each)
}

// Sweep scores a grid of retrieval configurations at equal token budgets
// over the home (eval retrieval --sweep, study --sweep), whose passages
// are homeTokens long: indexes for other passage sizes are built in a
// temporary folder and removed. The grid's rerank rows rerank with what r
// configures.
func Sweep(ctx context.Context, r Retrieval, homeTokens int, qs []bench.Question, grid retrieval.SweepConfig) (retrieval.Sweep, error) {
	s, src, err := r.open(ctx)
	if err != nil {
		return retrieval.Sweep{}, err
	}
	defer s.Close()
	grid.Rerank = r.Rerank.SweepWrap(src.rr)
	src.src.HomeTokens = homeTokens
	return retrieval.RunSweep(ctx, src.src, qs, grid)
}

// Searcher is the retriever of the search command: the home's index
// (brought up to date), without the excluded kinds, reranked as r says.
// The Closer releases the index.
func Searcher(ctx context.Context, r Retrieval, name string, exclude []kind.Kind) (retrieve.Retriever, io.Closer, error) {
	s, src, err := r.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	ret, err := src.src.Index.Retriever(name)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	ret = retrieve.Excluding(ret, exclude)
	return src.ix.WithKinds(rerank.Wrap(ret, src.rr, r.Rerank.Depth)), s, nil
}
