package report

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/reranktest"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve/evidence"
	"github.com/paperlens/paperlens/retrieve/index"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// passageMark opens a passage in the RAG prompt templates (as in
// eval/run's tests): the evidence reader scores passages apart.
var passageMark = regexp.MustCompile(`\n\[[0-9]+\] \(passage [^)\n]*\)\n`)

// evidenceReader stands in for a model that answers right exactly when its
// prompt holds all of the question's gold evidence (within one passage
// each, by the evidence package's rule) and surely wrong otherwise. It
// reports usage as a server would, counting the messages in cl100k_base,
// so that a priced run has a cost.
func evidenceReader(qs []bench.Question) model.Chat {
	return model.ChatFunc(func(_ context.Context, req model.Request) (model.Response, error) {
		p := req.Messages[len(req.Messages)-1].Content
		usage := model.Usage{}
		for _, m := range req.Messages {
			usage.PromptTokens += tokens.Count(m.Content)
		}
		reply := func(s string) (model.Response, error) {
			usage.CompletionTokens = tokens.Count(s)
			usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
			return model.Response{Content: s, Usage: usage, FinishReason: "stop"}, nil
		}
		for _, q := range qs {
			if !strings.Contains(p, q.MCQ.Stem) {
				continue
			}
			// Only the context counts: the options may quote the evidence.
			ctx := strings.Replace(p, q.MCQ.Stem, "", 1)
			for _, o := range q.MCQ.Options {
				ctx = strings.Replace(ctx, o.Text, "", 1)
			}
			g := evidence.ParseGold(q.Evidence, evidence.Options{})
			parts := passageMark.Split(ctx, -1)
			if g.Score(parts).CompleteAt(len(parts)) == 1 {
				return reply("Answer: " + q.Answer)
			}
			// Self-route's first call asks it to say when the passages
			// do not suffice.
			if strings.Contains(p, `write "unanswerable"`) {
				return reply("Unanswerable.")
			}
			for _, l := range q.MCQ.Letters() {
				if string(l) != q.Answer {
					return reply("Answer: " + string(l))
				}
			}
		}
		return reply("")
	})
}

// sampleSetting is one eval run of the sample: its folder, passage size,
// k and modes.
type sampleSetting struct {
	dir     string
	passage int
	k       int
	modes   []string
	// rerank reranks bm25's top 40 with a cross-encoder double that
	// scores passages by the gold evidence they hold: what a strong
	// reranker approaches.
	rerank bool
}

// sampleSettings are the runs of the frontier figure: closed-book, full
// and the ceiling once, bm25 at several k over 512- and 128-token
// passages.
var sampleSettings = []sampleSetting{
	{"p512-k5", 512, 5, []string{"closed-book", "full", "bm25", "full+bm25", "oracle"}, false},
	{"p512-k1", 512, 1, []string{"bm25"}, false},
	{"p512-k3", 512, 3, []string{"bm25"}, false},
	{"p128-k3", 128, 3, []string{"bm25"}, false},
	{"p128-k5", 128, 5, []string{"bm25"}, false},
	{"p128-k10", 128, 10, []string{"bm25"}, false},
	{"p128-k20", 128, 20, []string{"bm25"}, false},
	{"p256-k10", 256, 10, []string{"bm25"}, false},
	{"p512-k8", 512, 8, []string{"bm25"}, false},
	{"p128-k5-rerank", 128, 5, []string{"bm25", "self-route"}, true},
}

// sampleRuns evaluates the evidence reader on testdata/elaipbench/sample.jsonl
// in every sampleSettings entry, each into root/<dir>, and returns the
// folders. A corpus home per passage size holds the papers chunked so.
func sampleRuns(t *testing.T, root string) []string {
	t.Helper()
	data, err := filepath.Abs(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	qs, _, err := bench.LoadElaipBench(data)
	if err != nil {
		t.Fatal(err)
	}
	type opened struct {
		st *corpus.Store
		ix *index.Index
	}
	homes := map[int]opened{}
	open := func(passage int) opened {
		if o, ok := homes[passage]; ok {
			return o
		}
		st, ix := sampletest.Home(t, qs, passage)
		homes[passage] = opened{st, ix}
		return homes[passage]
	}
	price, err := run.ParsePrice("in=2,out=8")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, s := range sampleSettings {
		o := open(s.passage)
		cfg := run.Config{Bench: "elaipbench", Data: data, Model: "evidence-reader", Modes: s.modes, Runs: 1, Concurrency: 2,
			K: s.k, MaxPassageTokens: s.passage, Out: filepath.Join(root, s.dir), Seed: 7, Price: price}
		opt := run.Options{Chat: evidenceReader(qs), Corpus: o.st, Index: o.ix, Questions: qs}
		if s.rerank {
			srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: sampletest.GoldFirst(qs)})
			rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.BaseURL()})
			if err != nil {
				t.Fatal(err)
			}
			cfg.Rerank, cfg.RerankBaseURL, cfg.RerankProtocol, cfg.RerankDepth, opt.Rerank = "api", srv.BaseURL(), rr.Protocol(), 40, rr
		}
		cfg.Defaults(nil)
		opt.Config = cfg
		if _, err := run.Run(context.Background(), opt); err != nil {
			t.Fatalf("%s: %v", s.dir, err)
		}
		dirs = append(dirs, cfg.Out)
	}
	return dirs
}

// End to end: real run folders of the sample at several k and passage
// sizes, loaded as the report loads them, give one point per (run, mode)
// at the summary's accuracy and tokens, a frontier that no point beats,
// and a cheapest configuration within full's interval that is within it
// while nothing cheaper is. FRONTIER_SAMPLE_DIR=DIR keeps the folders in
// DIR (the README's figure is drawn from them).
func TestFrontierSample(t *testing.T) {
	root := os.Getenv("FRONTIER_SAMPLE_DIR")
	if root == "" {
		root = t.TempDir()
	}
	dirs := sampleRuns(t, root)
	runs, err := Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	bs := buildFrontier(runs)
	if len(bs) != 1 || bs[0].Model != "evidence-reader" {
		t.Fatalf("%d frontier blocks, want one for evidence-reader", len(bs))
	}
	b := bs[0]
	for _, p := range b.Points {
		t.Logf("%-28s acc %-20s tokens %6s cost %-8s frontier %-5v within %-5v %s", p.Label, p.AccS, p.TokensS, p.CostS, p.Frontier, p.Within, p.VsFull)
	}
	t.Log(b.Sentence)
	t.Log(b.CostSentence)

	wantLabels := []string{"closed-book", "full", "bm25 k=5 passage=512", "full+bm25 k=5 passage=512", "oracle",
		"bm25 k=1 passage=512", "bm25 k=3 passage=512", "bm25 k=3 passage=128", "bm25 k=5 passage=128", "bm25 k=10 passage=128",
		"bm25 k=20 passage=128", "bm25 k=10 passage=256", "bm25 k=8 passage=512",
		"bm25 k=5 passage=128 rerank=api depth=40", "self-route k=5 passage=128 rerank=api depth=40"}
	var labels []string
	byLabel := map[string]fpoint{}
	for i, p := range b.Points {
		if i > 0 && p.Tokens < b.Points[i-1].Tokens {
			t.Errorf("%s listed after the dearer %s", p.Label, b.Points[i-1].Label)
		}
		labels = append(labels, p.Label)
		byLabel[p.Label] = p
	}
	slices.Sort(labels)
	slices.Sort(wantLabels)
	if !slices.Equal(labels, wantLabels) {
		t.Fatalf("points %q, want %q", labels, wantLabels)
	}
	checkSamplePoints(t, runs, b, byLabel)
	checkSampleFrontier(t, b, byLabel)
	checkSampleCheapest(t, b)
	checkSampleOutputs(t, runs, b)
}

// checkSamplePoints: each point of the sample's frontier is its run's
// summary, and the evidence reader scores as it must.
func checkSamplePoints(t *testing.T, runs []Run, b frontierBlock, byLabel map[string]fpoint) {
	t.Helper()
	// Each point is its run's summary: accuracy, and the server's prompt
	// tokens per record.
	for _, p := range b.Points {
		ms := runs[p.run].Summary.ByMode[p.Mode]
		tok := float64(ms.Tokens.Prompt) / float64(ms.Records)
		if p.Acc != ms.Accuracy || p.Tokens != tok || !p.Server || p.N != 37 || p.Lo > p.Acc || p.Hi < p.Acc {
			t.Errorf("%s: acc %v [%v, %v] n=%d tokens %v; summary acc %v tokens %v", p.Label, p.Acc, p.Lo, p.Hi, p.N, p.Tokens, ms.Accuracy, tok)
		}
		if !p.HasCost || p.Cost <= 0 {
			t.Errorf("%s: no cost, but the runs were priced", p.Label)
		}
	}
	// The evidence reader: always right with the paper or the gold
	// evidence, right closed-book only by chance.
	if a := byLabel["full"].Acc; a != 1 {
		t.Errorf("full accuracy %v, want 1", a)
	}
	if a := byLabel["oracle"].Acc; a != 1 {
		t.Errorf("oracle accuracy %v, want 1", a)
	}
	if a := byLabel["closed-book"].Acc; a > 0.1 {
		t.Errorf("closed-book accuracy %v, want about 0", a)
	}
	// Issue 16's aim, end to end: self-route over reranked passages is as
	// accurate as the paper for at most 60% of its prompt tokens.
	if sr, full := byLabel["self-route k=5 passage=128 rerank=api depth=40"], byLabel["full"]; sr.Acc != full.Acc || sr.Tokens > 0.6*full.Tokens {
		t.Errorf("self-route (reranked): accuracy %v at %.0f tokens; full %v at %.0f", sr.Acc, sr.Tokens, full.Acc, full.Tokens)
	}

}

// checkSampleFrontier: the sample's frontier rises and beats every point
// off it.
func checkSampleFrontier(t *testing.T, b frontierBlock, byLabel map[string]fpoint) {
	t.Helper()
	// The frontier: closed-book is the cheapest prompt, so on it; the
	// paper plus passages reads more than the paper for no more accuracy;
	// oracle is not a configuration. Along the frontier accuracy rises
	// with tokens, and every other point is beaten by one on it.
	if !byLabel["closed-book"].Frontier || byLabel["full+bm25 k=5 passage=512"].Frontier || byLabel["oracle"].Frontier {
		t.Errorf("frontier: closed-book %v, full+bm25 %v, oracle %v; want true, false, false",
			byLabel["closed-book"].Frontier, byLabel["full+bm25 k=5 passage=512"].Frontier, byLabel["oracle"].Frontier)
	}
	var on []fpoint
	for _, p := range b.Points {
		if p.Frontier {
			on = append(on, p)
		}
	}
	slices.SortFunc(on, func(x, y fpoint) int { return cmp.Compare(x.Tokens, y.Tokens) })
	for i := 1; i < len(on); i++ {
		if on[i].Acc <= on[i-1].Acc {
			t.Errorf("frontier not rising: %s (%v) after %s (%v)", on[i].Label, on[i].Acc, on[i-1].Label, on[i-1].Acc)
		}
	}
	for _, p := range b.Points {
		if p.Frontier || p.Ceiling {
			continue
		}
		if !slices.ContainsFunc(on, func(q fpoint) bool { return q.Tokens <= p.Tokens && q.Acc >= p.Acc }) {
			t.Errorf("%s is off the frontier but no frontier point beats it", p.Label)
		}
	}
	// The retrieval points differ: more passages, or longer ones, find
	// more of the evidence.
	if byLabel["bm25 k=1 passage=512"].Acc >= byLabel["bm25 k=5 passage=512"].Acc {
		t.Errorf("bm25 k=1 %v not below k=5 %v", byLabel["bm25 k=1 passage=512"].Acc, byLabel["bm25 k=5 passage=512"].Acc)
	}

}

// checkSampleCheapest: the sample's cheapest configuration within full's
// interval is within it, and the sentence names it.
func checkSampleCheapest(t *testing.T, b frontierBlock) {
	t.Helper()
	// The cheapest configuration within full's interval is within it,
	// by the paired interval (the runs share the data), and nothing
	// cheaper is; when that is full itself, the sentence says so.
	if b.Best < 0 {
		t.Fatalf("no cheapest configuration: %s", b.Sentence)
	}
	best := b.Points[b.Best]
	for _, p := range b.Points {
		if p.Tokens < best.Tokens && p.Within && !p.Ceiling {
			t.Errorf("%s is within full's interval and cheaper than %s", p.Label, best.Label)
		}
	}
	if best.Full {
		if !strings.HasPrefix(b.Sentence, "No configuration cheaper than full") {
			t.Errorf("full is the cheapest within its interval, but the sentence says: %s", b.Sentence)
		}
	} else {
		if !best.Within || best.Ceiling || !strings.Contains(best.VsFull, "paired, n=37") {
			t.Errorf("cheapest %s: within %v, %s", best.Label, best.Within, best.VsFull)
		}
		if !strings.Contains(b.Sentence, "within the 95% interval of full: "+best.Label+", at ") {
			t.Errorf("sentence does not name %s: %s", best.Label, b.Sentence)
		}
	}

}

// checkSampleOutputs: the sample's frontier is in every format.
func checkSampleOutputs(t *testing.T, runs []Run, b frontierBlock) {
	t.Helper()
	best := b.Points[b.Best]
	var h, m, s bytes.Buffer
	if err := HTML(&h, runs); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&m, runs); err != nil {
		t.Fatal(err)
	}
	if err := FrontierSVG(&s, runs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.String(), "| "+md(best.Label)+" | ") || !strings.Contains(m.String(), md(b.Sentence)) {
		t.Errorf("Markdown lacks the row of %s or the sentence", best.Label)
	}
	if n := strings.Count(s.String(), "<svg"); n != 3 {
		t.Errorf("standalone SVG has %d <svg>, want the root and two charts (tokens, cost)", n)
	}
	if !strings.Contains(h.String(), "<h2>9. "+hFrontier+"</h2>") {
		t.Errorf("HTML lacks the frontier section")
	}
}
