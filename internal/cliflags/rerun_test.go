package cliflags

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/run"
)

// recordedRun writes the config.json of a run made with a temperature,
// a header, the bleve scorer, a reranker and a price, and returns its
// folder.
func recordedRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	temp, seed := 0.5, int64(9)
	c := run.Config{Bench: "elaipbench", Data: "/data/sample.jsonl", Home: "/recorded/home", Model: "m", Modes: []string{"bm25", "oracle"},
		Paradigm: "base", Runs: 2, Concurrency: 3, K: 4, Budget: 5000, Out: dir, Seed: 7, BM25: "bleve",
		Sampling: run.Sampling{Temperature: &temp, MaxTokens: 64, HeaderNames: []string{"X-Route"}, Seed: &seed},
		Price:    &run.Price{In: 1, Out: 2}, Rerank: "api", RerankDepth: 20, RerankBaseURL: "http://rr:8080",
		FlagsSet: []string{"temperature", "k"}}
	if err := run.Dir(dir).WriteConfig(c); err != nil {
		t.Fatal(err)
	}
	return dir
}

// evalRequest parses eval's flags (with --config).
func evalRequest(t *testing.T, args ...string) Eval {
	t.Helper()
	var f Eval
	fl := pflag.NewFlagSet("eval", pflag.ContinueOnError)
	f.Add(fl)
	f.AddRetrieved(fl)
	f.AddConfig(fl)
	if err := fl.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return f
}

// expect fails the test unless got equals want.
func expect(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// --config alone is the recorded run: every setting, the request fields
// as overrides, the scorer and reranker as recorded.
func TestConfigRerunUnchanged(t *testing.T) {
	t.Parallel()
	dir := recordedRun(t)
	f := evalRequest(t, "--config", filepath.Join(dir, "config.json"), "--header", "X-Route: r1")
	req, err := f.Request(Invocation{Home: "/flag/home"}, f.fl.Changed)
	if err != nil {
		t.Fatal(err)
	}
	c := req.Config
	expect(t, "home", c.Home, "/recorded/home")
	expect(t, "runs, k, concurrency", []int{c.Runs, c.K, c.Concurrency}, []int{2, 4, 3})
	expect(t, "modes", c.Modes, []string{"bm25", "oracle"})
	expect(t, "out", c.Out, dir)
	expect(t, "price", *c.Price, run.Price{In: 1, Out: 2})
	expect(t, "request seed", *c.Sampling.Seed, int64(9))
	expect(t, "flags_set", c.FlagsSet, []string{"temperature", "k"})
	expect(t, "bm25", req.Index.BM25, "bleve")
	expect(t, "rerank", []any{req.Rerank.Kind, req.Rerank.Depth, req.Rerank.BaseURL}, []any{"api", 20, "http://rr:8080"})
	o := req.Overrides.Answer
	if o.Temperature == nil || *o.Temperature == nil || o.MaxTokens == nil {
		t.Fatalf("overrides %+v: want the recorded temperature and length", o)
	}
	expect(t, "temperature and length", []any{**o.Temperature, *o.MaxTokens}, []any{0.5, 64})
}

// The flags given with --config change their settings alone, and join
// flags_set; an answer length in the other field replaces the recorded
// one; a header the run sent must be given again.
func TestConfigRerunFlagsOver(t *testing.T) {
	t.Parallel()
	dir := recordedRun(t)
	f := evalRequest(t, "--config", dir, "--header", "X-Route: r1", "--runs", "1", "--max-completion-tokens", "99",
		"--mode", "closed-book", "--bm25", "okapi", "--rerank", "none", "--budget", "100", "--price", "in=3,out=4", "--temperature", "none")
	req, err := f.Request(Invocation{Home: "/flag/home"}, func(name string) bool { return name == "home" || f.fl.Changed(name) })
	if err != nil {
		t.Fatal(err)
	}
	c := req.Config
	expect(t, "home (--home given)", c.Home, "/flag/home")
	expect(t, "runs, k, budget", []int{c.Runs, c.K, c.Budget}, []int{1, 4, 100})
	expect(t, "modes", c.Modes, []string{"closed-book"})
	expect(t, "price", *c.Price, run.Price{In: 3, Out: 4})
	expect(t, "bm25, rerank", []string{req.Index.BM25, req.Rerank.Kind}, []string{"okapi", "none"})
	o := req.Overrides.Answer
	if o.Temperature == nil || *o.Temperature != nil || o.MaxTokens != nil || o.MaxCompletionTokens == nil {
		t.Fatalf("overrides %+v: want temperature left out and only max_completion_tokens", o)
	}
	expect(t, "max_completion_tokens", *o.MaxCompletionTokens, 99)
	expect(t, "flags_set", c.FlagsSet, []string{"temperature", "k", "max-completion-tokens", "budget", "bm25", "runs"})

	f = evalRequest(t, "--config", dir)
	if _, err := f.Request(Invocation{}, f.fl.Changed); err == nil || !strings.Contains(err.Error(), "X-Route") || !strings.Contains(err.Error(), "--config") {
		t.Errorf("rerun without the recorded header: %v; want an error naming it and --config", err)
	}
}

// The flags a rerun sets again parse back to the values given, where
// --help shows them otherwise (none, a size in units).
func TestFlagValuesExact(t *testing.T) {
	t.Parallel()
	var f Eval
	fl := pflag.NewFlagSet("eval", pflag.ContinueOnError)
	f.Add(fl)
	f.AddRetrieved(fl)
	args := []string{"--temperature", "none", "--top-p", "0.25", "--tool-memory", "1234567890", "--header", "A: 1", "--header", "B: 2",
		"--retrieved", "x=a.trec", "--retrieved", "y=b.trec", "--attempt-timeout", "1m30s"}
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
	var g Eval
	gfl := pflag.NewFlagSet("again", pflag.ContinueOnError)
	g.Add(gfl)
	g.AddRetrieved(gfl)
	fl.Visit(func(given *pflag.Flag) {
		for _, v := range flagValues(given) {
			if err := gfl.Set(given.Name, v); err != nil {
				t.Errorf("--%s %q does not parse back: %v", given.Name, v, err)
			}
		}
	})
	if g.req.temperature != nil || g.req.topP == nil || *g.req.topP != 0.25 || g.Config.ToolMemory != 1234567890 ||
		!slices.Equal(g.req.headers, []string{"A: 1", "B: 2"}) || len(g.Retrieved) != 2 || g.clients.AttemptTimeout != f.clients.AttemptTimeout {
		t.Errorf("set again: temperature %v, top-p %v, tool memory %d, headers %v, retrieved %v", g.req.temperature, g.req.topP, g.Config.ToolMemory, g.req.headers, g.Retrieved)
	}
}

// --retrieved takes NAME=FILE, each NAME once, and names itself in its
// errors.
func TestRetrievedFlag(t *testing.T) {
	t.Parallel()
	var m map[string]string
	fl := pflag.NewFlagSet("r", pflag.ContinueOnError)
	AddRetrieved(fl, &m)
	if err := fl.Parse([]string{"--retrieved", "a=x.trec", "--retrieved", " b.2 = y.trec"}); err != nil || m["a"] != "x.trec" || m["b.2"] != "y.trec" {
		t.Fatalf("parse: %v, %v", m, err)
	}
	for _, bad := range []string{"a", "=x", "a=", "a b=x", "a=z"} {
		fl := pflag.NewFlagSet("r", pflag.ContinueOnError)
		var m map[string]string
		AddRetrieved(fl, &m)
		err := fl.Parse([]string{"--retrieved", "a=first", "--retrieved", bad}) // "a=z": a given twice
		if err == nil || !strings.Contains(err.Error(), "--retrieved") {
			t.Errorf("--retrieved %q: %v; want an error naming the flag", bad, err)
		}
	}
}
