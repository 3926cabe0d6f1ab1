package rerank_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/internal/testkit/reranktest"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// sample indexes the ElaipBench sample's papers in passages of maxTokens
// (0: 512, as the commands do by default).
func sample(t testing.TB, maxTokens int) ([]bench.Question, *index.Index) {
	t.Helper()
	qs := sampletest.Questions(t)
	_, ix := sampletest.Home(t, qs, maxTokens)
	return qs, ix
}

// fullQuery is the question as eval retrieval's default query form asks
// it, which is also what a reranker is given.
func fullQuery(q bench.Question) string {
	texts, _ := retrieve.QueryTexts(retrieve.FormFull, q.MCQ.Stem, q.MCQ.OptionLines())
	return texts[0]
}

// goldScore stands in for a cross-encoder that knows the answer: a
// passage scores the share of its question's gold evidence it covers, so
// the passages holding the evidence come first.
func goldScore(qs []bench.Question) func(query, text string) float64 {
	golds := map[string]*evidence.Gold{}
	for _, q := range qs {
		golds[fullQuery(q)] = evidence.ParseGold(q.Evidence, evidence.Options{})
	}
	return func(query, text string) float64 {
		g := golds[query]
		if g == nil || g.Empty() {
			return 0
		}
		return g.Score([]string{text}).RecallAt(1)
	}
}

// With a double whose scores put the gold passages first, complete@5 (all
// of a question's evidence in the top 5) rises to 1 over the sample, in
// both protocols; without reranking BM25 leaves some evidence below 5.
func TestGoldFirstDoubleCompletesTop5(t *testing.T) {
	qs, ix := sample(t, 0)
	ctx := context.Background()
	base := retrieval.Config{Retrievers: []string{"bm25"}, Ks: []int{5}}
	before, err := retrieval.Run(ctx, ix, qs, base, nil)
	if err != nil {
		t.Fatal(err)
	}
	c0 := before.Retrievers["bm25+full"]["complete@5"]
	if c0 >= 1 {
		t.Fatalf("complete@5 without reranking is %.3f: the sample no longer shows the gap", c0)
	}
	for _, proto := range []string{reranktest.TEI, reranktest.Cohere} {
		t.Run(proto, func(t *testing.T) {
			srv := reranktest.NewServer(t, reranktest.Config{Protocol: proto, Score: goldScore(qs), RequireModel: true})
			rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.BaseURL(), Model: "BAAI/bge-reranker-v2-m3"})
			if err != nil {
				t.Fatal(err)
			}
			if rr.Protocol() != proto {
				t.Fatalf("base URL %s read as protocol %s, want %s", srv.BaseURL(), rr.Protocol(), proto)
			}
			cfg := base
			cfg.Rerank, cfg.RerankDepth = rr, rerank.DefaultDepth
			after, err := retrieval.Run(ctx, ix, qs, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			row := after.Retrievers["bm25>api+full"]
			t.Logf("%s: complete@5 %.3f without reranking, %.3f with (n=%v, %d requests, %d passages scored)",
				proto, c0, row["complete@5"], row["n"], srv.Calls(), srv.Texts())
			if row["complete@5"] != 1 || after.Errors != 0 {
				t.Errorf("complete@5 %.3f with %d errors, want 1", row["complete@5"], after.Errors)
			}
			// Depth 30 over 37 questions, in batches of at most 32.
			if srv.Texts() > 30*after.N || srv.Calls() < after.N {
				t.Errorf("%d requests scoring %d passages for %d questions at depth 30", srv.Calls(), srv.Texts(), after.N)
			}
		})
	}
}

func TestWrapKeepsTopKRenumbered(t *testing.T) {
	qs, ix := sample(t, 0)
	bm25, err := ix.Retriever("bm25")
	if err != nil {
		t.Fatal(err)
	}
	srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: goldScore(qs)})
	rr, _ := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.BaseURL()})
	q := qs[0]
	hits, err := rerank.Wrap(bm25, rr, 6).Search(context.Background(), retrieve.Query{Text: fullQuery(q), PaperID: q.PaperID, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || srv.Texts() != 6 {
		t.Fatalf("%d hits, %d passages scored; want 3 of 6", len(hits), srv.Texts())
	}
	score := goldScore(qs)
	for i, h := range hits {
		if h.Rank != i+1 || h.Retriever != "bm25>api" || h.Score != score(fullQuery(q), h.Text) || h.PaperID != q.PaperID {
			t.Errorf("hit %d: rank %d, retriever %q, score %v", i, h.Rank, h.Retriever, h.Score)
		}
		if i > 0 && h.Score > hits[i-1].Score {
			t.Errorf("hit %d scores %v above hit %d's %v", i, h.Score, i-1, hits[i-1].Score)
		}
	}
}

// evidenceRanker is a modeltest handler standing in for a chat model that
// ranks RankGPT windows perfectly: passages holding a gold sentence of the
// question first, the rest after, each group in the window's order.
func evidenceRanker(qs []bench.Question) func(modeltest.Request) (string, string) {
	golds := map[string]*evidence.Gold{}
	for _, q := range qs {
		golds[fullQuery(q)] = evidence.ParseGold(q.Evidence, evidence.Options{})
	}
	return func(r modeltest.Request) (string, string) {
		last := r.Messages[len(r.Messages)-1].Content
		query, _, _ := strings.Cut(strings.TrimPrefix(last, "Search Query: "), ". \nRank the")
		g := golds[query]
		var gold, rest []string
		for _, m := range r.Messages {
			id, text, ok := strings.Cut(m.Content, "] ")
			if m.Role != "user" || !ok || !strings.HasPrefix(id, "[") {
				continue
			}
			if g != nil && g.Score([]string{text}).HitAt(1) == 1 {
				gold = append(gold, id+"]")
			} else {
				rest = append(rest, id+"]")
			}
		}
		return strings.Join(append(gold, rest...), " > "), ""
	}
}

// holdsGold says whether a passage, as the prompt shows it (cut to
// RankGPT's 300 words), holds a gold sentence of q.
func holdsGold(q bench.Question, text string) bool {
	w := strings.Fields(text)
	if len(w) > rerank.DefaultPassageWords {
		w = w[:rerank.DefaultPassageWords]
	}
	return evidence.ParseGold(q.Evidence, evidence.Options{}).Score([]string{strings.Join(w, " ")}).HitAt(1) == 1
}

// The LLM reranker under a model that ranks each window perfectly puts
// exactly the gold passages first and the rest in BM25's order, across two
// windows; a second pass, through a fresh stack over the same cache file,
// makes no HTTP call and gives the same order. Passages of 128 tokens give
// most papers more than 20 candidates, so the window slides.
func TestLLMEvidenceOrderExactAndCached(t *testing.T) {
	qs, ix := sample(t, 128)
	ctx := context.Background()
	bm25, err := ix.Retriever("bm25")
	if err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: evidenceRanker(qs)})
	cache := filepath.Join(t.TempDir(), "cache.db")
	pass := func() (map[string][]string, rerank.LLMStats) {
		oa, err := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
		if err != nil {
			t.Fatal(err)
		}
		chat, closer, err := model.Stack(oa, model.StackOptions{CachePath: cache})
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		zero := 0.0
		rr, err := rerank.NewLLM(rerank.LLMOptions{Chat: chat, Model: "ranker", Request: model.Request{Temperature: &zero}})
		if err != nil {
			t.Fatal(err)
		}
		r := rerank.Wrap(bm25, rr, 30)
		got := map[string][]string{}
		for _, q := range qs {
			hits, err := r.Search(ctx, retrieve.Query{Text: fullQuery(q), PaperID: q.PaperID, K: 30})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hits {
				got[q.ID] = append(got[q.ID], h.PassageID)
			}
		}
		return got, rr.Stats()
	}
	first, st1 := pass()
	calls := srv.Count()
	moved := 0
	for _, q := range qs {
		cands, err := bm25.Search(ctx, retrieve.Query{Text: fullQuery(q), PaperID: q.PaperID, K: 30})
		if err != nil {
			t.Fatal(err)
		}
		var gold, rest []string
		for _, h := range cands {
			if holdsGold(q, h.Text) {
				gold = append(gold, h.PassageID)
			} else {
				rest = append(rest, h.PassageID)
			}
		}
		want := append(gold, rest...)
		if !slices.Equal(first[q.ID], want) {
			t.Errorf("%s: order\n%v\nwant gold first, then BM25's order:\n%v", q.ID, first[q.ID], want)
		}
		if len(gold) > 0 && cands[0].PassageID != gold[0] {
			moved++
		}
	}
	promptTokens := 0
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			promptTokens += tokens.Count(m.Content)
		}
	}
	t.Logf("%d windows, %d calls, %.0f prompt tokens (cl100k, message text) per window, %.0f per question; %d of %d questions had their gold moved to the top",
		st1.Windows, calls, float64(promptTokens)/float64(calls), float64(promptTokens)/float64(len(qs)), moved, len(qs))
	if calls != int(st1.Windows) || st1.Unparsed != 0 || moved == 0 || st1.Windows <= int64(len(qs)) {
		t.Errorf("%d calls for %d windows, %d unparsed, %d moved", calls, st1.Windows, st1.Unparsed, moved)
	}
	second, st2 := pass()
	if srv.Count() != calls || st2.Calls != 0 {
		t.Errorf("second pass made %d HTTP calls (stats %+v), want none", srv.Count()-calls, st2)
	}
	for id, order := range first {
		if !slices.Equal(order, second[id]) {
			t.Errorf("%s: cached order differs", id)
		}
	}
}

func TestWindows(t *testing.T) {
	cases := []struct {
		n    int
		want [][2]int
	}{
		{30, [][2]int{{10, 30}, {0, 20}}},
		{25, [][2]int{{5, 25}, {0, 15}}},
		{20, [][2]int{{0, 20}}},
		{5, [][2]int{{0, 5}}},
		{100, [][2]int{{80, 100}, {70, 90}, {60, 80}, {50, 70}, {40, 60}, {30, 50}, {20, 40}, {10, 30}, {0, 20}}},
		{0, nil},
	}
	for _, tc := range cases {
		if got := rerank.Windows(tc.n, 20, 10); !slices.Equal(got, tc.want) {
			t.Errorf("Windows(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

func TestParseOrder(t *testing.T) {
	cases := []struct {
		reply string
		n     int
		want  []int
		named int
	}{
		{"[3] > [1] > [2]", 3, []int{2, 0, 1}, 3},
		{"[2] > [1]", 4, []int{1, 0, 2, 3}, 2},                                     // short: the rest in old order
		{"[2] > [2] > [7] > [0] > [1]", 3, []int{1, 0, 2}, 2},                      // repeats and unknown ids ignored
		{"Ranking: [ 3 ]>[1]>[2]", 3, []int{2, 0, 1}, 3},                           // spacing
		{"3 > 1 > 2", 3, []int{2, 0, 1}, 3},                                        // no brackets
		{"Passage [2] is the most relevant, then 10 others", 3, []int{1, 0, 2}, 1}, // brackets win over bare numbers
		{"I cannot rank these passages.", 3, []int{0, 1, 2}, 0},                    // unreadable: old order
		{"", 2, []int{0, 1}, 0},
	}
	for _, tc := range cases {
		got, named := rerank.ParseOrder(tc.reply, tc.n)
		if !slices.Equal(got, tc.want) || named != tc.named {
			t.Errorf("ParseOrder(%q, %d) = %v, %d; want %v, %d", tc.reply, tc.n, got, named, tc.want, tc.named)
		}
	}
}

func hitsOf(ids ...string) []retrieve.Hit {
	var out []retrieve.Hit
	for i, id := range ids {
		out = append(out, retrieve.Hit{Rank: i + 1, PassageID: id, Text: "passage " + id})
	}
	return out
}

func ids(hits []retrieve.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.PassageID)
	}
	return out
}

// Replies a model may give: none loses a passage, and the ones it cannot
// read are reported.
func TestLLMBadReplies(t *testing.T) {
	cases := []struct {
		name, reply string
		want        []string
		warned      bool
	}{
		{"unparseable", "Sorry, I can't help with ranking.", []string{"a", "b", "c", "d"}, true},
		{"short list", "[3] > [1]", []string{"c", "a", "b", "d"}, false},
		{"duplicates and unknown ids", "[4] > [4] > [9] > [2]", []string{"d", "b", "a", "c"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return tc.reply, "" }})
			oa, _ := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
			var warns []string
			rr, err := rerank.NewLLM(rerank.LLMOptions{Chat: oa, Model: "m", Warn: func(m string) { warns = append(warns, m) }})
			if err != nil {
				t.Fatal(err)
			}
			got, err := rr.Rerank(context.Background(), "q", hitsOf("a", "b", "c", "d"))
			if err != nil || !slices.Equal(ids(got), tc.want) {
				t.Fatalf("%v %v, want %v", ids(got), err, tc.want)
			}
			if (len(warns) > 0) != tc.warned || (tc.warned && !strings.Contains(warns[0], "keeps its order")) {
				t.Errorf("warnings %q", warns)
			}
			if got[0].Score != 1 || got[1].Score != 0.5 {
				t.Errorf("scores %v, %v: want 1/rank", got[0].Score, got[1].Score)
			}
		})
	}
	t.Run("HTTP 500 then success", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{
			Answer: func(modeltest.Request) (string, string) { return "[2] > [1]", "" },
			Inject: func(r modeltest.Request) *modeltest.Fault {
				if r.Attempt == 1 {
					return &modeltest.Fault{Kind: modeltest.ServerError}
				}
				return nil
			},
		})
		oa, _ := model.NewOpenAI(model.Options{BaseURL: srv.BaseURL()})
		chat, closer, err := model.Stack(oa, model.StackOptions{Retry: model.RetryOptions{MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		defer closer.Close()
		rr, _ := rerank.NewLLM(rerank.LLMOptions{Chat: chat, Model: "m"})
		got, err := rr.Rerank(context.Background(), "q", hitsOf("a", "b"))
		if err != nil || !slices.Equal(ids(got), []string{"b", "a"}) || srv.Count() != 2 {
			t.Errorf("%v %v after %d calls", ids(got), err, srv.Count())
		}
	})
}

// An API server's failures: a 500 is retried, a 400 is not and says what
// to do, and neither error carries the key the server echoed.
func TestAPIErrors(t *testing.T) {
	const key = "rk-SECRET-42"
	score := func(_, text string) float64 { return float64(len(text)) }
	fast := func(base string) rerank.APIOptions {
		return rerank.APIOptions{BaseURL: base, APIKey: key, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
	}
	t.Run("500 then success", func(t *testing.T) {
		srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: score, Key: key,
			Fail: func(n int) int { return map[bool]int{true: 500}[n == 1] }})
		rr, _ := rerank.NewAPI(fast(srv.BaseURL()))
		got, err := rr.Rerank(context.Background(), "q", []retrieve.Hit{{PassageID: "short", Text: "x"}, {PassageID: "long", Text: "xxxx"}})
		if err != nil || !slices.Equal(ids(got), []string{"long", "short"}) || srv.Calls() != 2 {
			t.Errorf("%v %v after %d calls", ids(got), err, srv.Calls())
		}
	})
	cases := []struct {
		name   string
		proto  string
		base   func(*reranktest.Server) string
		opt    func(*rerank.APIOptions)
		status int
		want   []string
	}{
		{"400 from TEI", reranktest.TEI, (*reranktest.Server).BaseURL, nil, 400,
			[]string{"400 Bad Request from http://127.0.0.1:", "/rerank", "injected failure", "protocol cohere"}},
		{"TEI body sent to a Cohere server", reranktest.Cohere, (*reranktest.Server).BaseURL,
			func(o *rerank.APIOptions) { o.Protocol = rerank.TEI }, 0,
			[]string{"400 Bad Request", "/v1/rerank", `this server takes "documents"`, "protocol cohere"}},
		{"wrong root", reranktest.TEI, func(s *reranktest.Server) string { return s.URL + "/v1" }, nil, 0,
			[]string{"404 Not Found from http://127.0.0.1:", "/v1/rerank", "is the base URL the server's root?"}},
		{"401", reranktest.Cohere, (*reranktest.Server).BaseURL, func(o *rerank.APIOptions) { o.APIKey = key + "x" }, 0,
			[]string{"401 Unauthorized", "check the API key"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := reranktest.NewServer(t, reranktest.Config{Protocol: tc.proto, Score: score, Key: key,
				Fail: func(int) int { return tc.status }})
			o := fast(tc.base(srv))
			if tc.opt != nil {
				tc.opt(&o)
			}
			rr, _ := rerank.NewAPI(o)
			_, err := rr.Rerank(context.Background(), "q", hitsOf("a", "b"))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
			if strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), httpx.Redacted) && tc.status != 0 {
				t.Errorf("key leaked or not redacted: %v", err)
			}
			var he *httpx.HTTPError
			if !errors.As(err, &he) || httpx.Retryable(err) || srv.Calls() != 1 {
				t.Errorf("%d calls, retryable %v: %v", srv.Calls(), httpx.Retryable(err), err)
			}
		})
	}
}

// A Cohere-protocol server that answers fewer results than asked (one that
// caps top_n) is an error, not a silently shorter list.
func TestAPIShortAnswer(t *testing.T) {
	srv := httpTestServer(t, `{"results":[{"index":1,"relevance_score":0.9}]}`)
	rr, _ := rerank.NewAPI(rerank.APIOptions{BaseURL: srv + "/v1", Model: "m"})
	_, err := rr.Rerank(context.Background(), "q", hitsOf("a", "b"))
	if err == nil || !strings.Contains(err.Error(), "scores 1 of 2 passages") || httpx.Retryable(err) {
		t.Errorf("%v", err)
	}
}

func httpTestServer(t *testing.T, body string) string {
	srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: func(string, string) float64 { return 0 }})
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) })
	return srv.URL
}

func TestNewAPIChecks(t *testing.T) {
	cases := []struct {
		opt   rerank.APIOptions
		proto string
		err   string
	}{
		{rerank.APIOptions{BaseURL: "http://localhost:8080"}, rerank.TEI, ""},
		{rerank.APIOptions{BaseURL: "http://localhost:8000/v1/"}, rerank.Cohere, ""},
		{rerank.APIOptions{BaseURL: "https://api.cohere.com/v2"}, rerank.Cohere, ""},
		{rerank.APIOptions{BaseURL: "http://localhost:7997", Protocol: rerank.Cohere}, rerank.Cohere, ""},
		{rerank.APIOptions{BaseURL: "http://localhost:8000/v1/rerank"}, rerank.Cohere, ""},
		{rerank.APIOptions{}, "", "a base URL is required"},
		{rerank.APIOptions{BaseURL: "localhost:8080"}, "", "absolute http(s) URL"},
		{rerank.APIOptions{BaseURL: "http://x", Protocol: "jina"}, "", `protocol "jina"`},
	}
	for _, tc := range cases {
		rr, err := rerank.NewAPI(tc.opt)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: %v, want %q", tc.opt, err, tc.err)
			}
		case err != nil || rr.Protocol() != tc.proto:
			t.Errorf("%+v: %v, protocol %v want %s", tc.opt, err, rr, tc.proto)
		}
	}
	if rr, _ := rerank.NewAPI(rerank.APIOptions{BaseURL: "http://localhost:8000/v1/rerank"}); rr.Endpoint() != "http://localhost:8000/v1/rerank" {
		t.Errorf("endpoint %s", rr.Endpoint())
	}
}

// Probe reaches the endpoint once (twice on a retryable failure) and names
// it in its error.
func TestAPIProbe(t *testing.T) {
	srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: func(string, string) float64 { return 1 },
		Fail: func(int) int { return 503 }})
	rr, _ := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.BaseURL(), MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond})
	err := rr.Probe(context.Background())
	if err == nil || srv.Calls() != 2 || !strings.Contains(err.Error(), "rerank endpoint "+srv.URL+"/rerank (tei protocol)") {
		t.Errorf("%d calls: %v", srv.Calls(), err)
	}
	ok := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.Cohere, Score: func(string, string) float64 { return 1 }})
	rr, _ = rerank.NewAPI(rerank.APIOptions{BaseURL: ok.BaseURL()})
	if err := rr.Probe(context.Background()); err != nil || ok.Calls() != 1 {
		t.Errorf("%d calls: %v", ok.Calls(), err)
	}
}
