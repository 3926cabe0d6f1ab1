package run

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"github.com/paperlens/paperlens/chunk/kind"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
)

// answer is what a solver says.
type answer struct {
	output, reasoning string
	usage             model.Usage
	latency           time.Duration
	cached            bool
	attempts          int
	finish            string
	cut               bool              // the reply was over --max-reply-bytes (any call's, when several)
	transcript        *agent.Transcript // tool modes: the whole exchange
	route             string            // self-route: RouteRAG or RouteFull
	calls             []RouteCall       // self-route: each call
}

// solver answers one question under one mode and run.
type solver interface {
	solve(ctx context.Context, q bench.Question, mode string, run int, b built) (answer, error)
}

// llmSolver asks a chat model.
type llmSolver struct {
	chat   model.Chat
	cfg    Config
	header http.Header
	// For the tool modes: the index search_paper searches, the web
	// tools, and the run's tool cache (nil: none).
	ix        Retrievers
	web       *WebTools
	toolCache agent.ToolCache
}

func (s llmSolver) solve(ctx context.Context, q bench.Question, name string, run int, b built) (answer, error) {
	m, _ := mode.Lookup(name)
	if !s.cfg.SharePrompts {
		// Every mode makes its own call: the mode is part of each
		// request's cache key, so two modes whose prompts are identical
		// are two samples, as two settings of the papers were.
		s.chat = scoped{Chat: s.chat, scope: name}
	}
	switch {
	case m.UsesTools():
		return s.solveTools(ctx, q, m, run, b)
	case m.Route:
		return s.solveRoute(ctx, q, run, b)
	}
	return s.call(ctx, b.messages, run)
}

// scoped sets the cache scope of every request it passes on.
type scoped struct {
	model.Chat
	scope string
}

func (c scoped) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	req.Scope = c.scope
	return c.Chat.Complete(ctx, req)
}

// seeded gives a deterministic random source per question, mode and run.
func seeded(seed int64, parts ...string) *rand.Rand {
	h := sha256.Sum256([]byte(fmt.Sprint(seed) + "\x00" + strings.Join(parts, "\x00")))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])))
}

// randomSolver guesses: one letter for a single-answer question, a random
// subset of two or more letters for a multi-answer one. It knows SA from
// MA, as a fair chance baseline must.
type randomSolver struct{ seed int64 }

func (s randomSolver) solve(_ context.Context, q bench.Question, mode string, run int, _ built) (answer, error) {
	letters := q.MCQ.Letters()
	if letters == "" {
		return answer{output: "I don't know."}, nil
	}
	r := seeded(s.seed, q.ID, mode, fmt.Sprint(run))
	var pick []byte
	if q.Type == "MA-MCQ" && len(letters) > 2 {
		n := 2 + r.IntN(len(letters)-1)
		perm := r.Perm(len(letters))
		for _, i := range perm[:n] {
			pick = append(pick, letters[i])
		}
	} else {
		pick = []byte{letters[r.IntN(len(letters))]}
	}
	sort.Slice(pick, func(i, j int) bool { return pick[i] < pick[j] })
	return answer{output: "Answer: " + strings.Join(strings.Split(string(pick), ""), ", ")}, nil
}

// irSolver is the information-retrieval solver of Clark et al. (2016): for
// each option it searches the question's paper with stem + option and takes
// the best passage's score; it answers the best-scoring option, and for a
// multi-answer question every option within threshold × the best score (at
// least two). It reads no context and calls no model, so it answers the same
// way in every mode.
type irSolver struct {
	ix        Retrievers
	retriever string
	threshold float64
	exclude   []kind.Kind // --exclude-kinds
}

func (s irSolver) solve(ctx context.Context, q bench.Question, _ string, _ int, _ built) (answer, error) {
	if len(q.MCQ.Options) == 0 {
		return answer{}, fmt.Errorf("the ir baseline answers multiple-choice questions only")
	}
	r, err := s.ix.Retriever(s.retriever)
	if err != nil {
		return answer{}, err
	}
	type scored struct {
		letter string
		score  float64
	}
	var ss []scored
	var lines []string
	for _, o := range q.MCQ.Options {
		hits, err := r.Search(ctx, retrieve.Query{Text: q.MCQ.Stem + "\n" + o.Text, PaperID: q.PaperID, K: 1, Exclude: s.exclude})
		if err != nil {
			return answer{}, fmt.Errorf("ir baseline, option %s: %w", o.Letter, err)
		}
		sc := 0.0
		if len(hits) > 0 {
			sc = hits[0].Score
			lines = append(lines, fmt.Sprintf("%s: %.4f (%s)", o.Letter, sc, hits[0].PassageID))
		}
		ss = append(ss, scored{o.Letter, sc})
	}
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].score > ss[j].score })
	pick := []string{ss[0].letter}
	if q.Type == "MA-MCQ" {
		for _, x := range ss[1:] {
			if x.score >= s.threshold*ss[0].score || len(pick) < 2 {
				pick = append(pick, x.letter)
			}
		}
	}
	sort.Strings(pick)
	return answer{output: "Answer: " + strings.Join(pick, ", "), reasoning: strings.Join(lines, "\n")}, nil
}
