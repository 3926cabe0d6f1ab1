package run

import (
	"context"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/reranktest"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Under the evidence reader (right exactly when the context holds all the
// gold evidence), reranking BM25's top 30 with a gold-first double raises
// RAG accuracy; the folder records the reranking and refuses a resume with
// another.
func TestRerankInRun(t *testing.T) {
	qs, st, ix := fixture(t)
	srv := reranktest.NewServer(t, reranktest.Config{Protocol: reranktest.TEI, Score: sampletest.GoldFirst(qs)})
	rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.BaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	plain := sampleConfig(t, "reader", ModeBM25, FullBM25)
	plain.Runs = 1
	res0, err := Run(context.Background(), Options{Config: plain, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	cfg := plain
	cfg.Out = t.TempDir()
	cfg.Rerank, cfg.RerankBaseURL, cfg.RerankProtocol = "api", srv.BaseURL(), rr.Protocol()
	cfg.Defaults(nil)
	if cfg.RerankDepth != 30 {
		t.Fatalf("default depth %d, want 30", cfg.RerankDepth)
	}
	if _, err := Run(context.Background(), Options{Config: cfg, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs}); err == nil ||
		!strings.Contains(err.Error(), "no reranker") {
		t.Fatalf("a run configured to rerank, without a reranker: %v", err)
	}
	opt := Options{Config: cfg, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs, Rerank: rr}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	// (full+bm25 has the whole paper, so the reader is right either way.)
	for _, m := range []string{ModeBM25, FullBM25} {
		a0, a := res0.Summary.ByMode[m].Accuracy, res.Summary.ByMode[m].Accuracy
		t.Logf("%s: accuracy %.3f without reranking, %.3f with", m, a0, a)
		if m == ModeBM25 && a <= a0 {
			t.Errorf("%s: accuracy %.3f without reranking, %.3f with", m, a0, a)
		}
	}
	recs, err := Dir(cfg.Out).Records()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		for _, c := range r.Context {
			if c.Score < 0 || c.Score > 1 {
				t.Fatalf("%s: context score %v is not the reranker's", r.QuestionID, c.Score)
			}
		}
	}
	saved, err := Dir(cfg.Out).ReadConfig()
	if err != nil || saved.Rerank != "api" || saved.RerankDepth != 30 || saved.RerankBaseURL != srv.BaseURL() || saved.RerankProtocol != "tei" {
		t.Fatalf("config.json: %+v %v", saved, err)
	}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Rerank, c.RerankDepth, c.RerankBaseURL, c.RerankProtocol = "", 0, "", "" }, "--rerank api, now none"},
		{func(c *Config) { c.RerankDepth = 10 }, "--rerank-depth 30, now 10"},
	} {
		other := cfg
		tc.change(&other)
		_, err := Run(context.Background(), Options{Config: other, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs, Rerank: rr})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resume: %v, want %q", err, tc.want)
		}
	}
	// The same flags resume (nothing left to do, so no call is made).
	calls := srv.Calls()
	if _, err := Run(context.Background(), opt); err != nil || srv.Calls() != calls {
		t.Errorf("resume with the same flags: %v, %d new calls", err, srv.Calls()-calls)
	}
	// A folder from before the flag reranked nothing: it resumes as none.
	if d := contextDiff(plain, Config{Rerank: ""}); strings.Contains(d, "rerank") {
		t.Errorf("contextDiff %q", d)
	}
}

func TestRerankConfigChecks(t *testing.T) {
	cases := []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Rerank = "api" }, "--rerank api needs --rerank-base-url"},
		{func(c *Config) { c.Rerank = "cross" }, `--rerank "cross"`},
		{func(c *Config) { c.Model, c.Rerank = "ir", "llm" }, "--rerank llm needs --rerank-model"},
		{func(c *Config) { c.Rerank = "none" }, ""},
		{func(c *Config) { c.Rerank = "llm" }, ""}, // the answering model reranks
	}
	for _, tc := range cases {
		c := Config{Bench: "elaipbench", Data: "x.jsonl", Model: "gpt-4o"}
		tc.change(&c)
		c.Defaults(nil)
		err := c.Validate()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", c.Rerank, err, tc.want)
		}
		if tc.want == "" && c.Rerank == "llm" && (c.RerankModel != "gpt-4o" || c.RerankDepth != 30) {
			t.Errorf("llm defaults: model %q depth %d", c.RerankModel, c.RerankDepth)
		}
		if c.Rerank == "none" {
			t.Errorf("--rerank none recorded as %q, want empty", c.Rerank)
		}
	}
}
