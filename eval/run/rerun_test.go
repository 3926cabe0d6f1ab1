package run

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/paperlens/paperlens/eval/protocol"
)

// configJSON is a config as config.json holds it, as a map of its members.
func configJSON(t *testing.T, c Config) map[string]any {
	t.Helper()
	b, err := json.Marshal(c.shareable())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// diffKeys lists the members of config.json that differ between a and b.
func diffKeys(t *testing.T, a, b Config) []string {
	t.Helper()
	ma, mb := configJSON(t, a), configJSON(t, b)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(ma)) {
		if av, err1 := json.Marshal(ma[k]); err1 == nil {
			if bv, err2 := json.Marshal(mb[k]); err2 != nil || string(av) != string(bv) {
				out = append(out, k)
			}
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// A recorded config, taken apart by RerunOf and resolved again by
// Defaults, is the config recorded, but for its provenance (which the new
// run records for itself): the request fields come back even where they
// are not the protocol's, and a field the server refused is left to the
// protocol, for the preflight to drop again with its reason.
func TestRerunOfGivesTheConfigBack(t *testing.T) {
	none := (*float64)(nil)
	hot, topP := 0.55, 0.8
	pHot, pTopP := &hot, &topP
	long, judgeLong := 8000, 2048
	seed := int64(3)
	cases := []struct {
		name string
		cfg  Config
		o    *Overrides
		drop string
	}{
		{"protocol defaults", Config{Bench: "elaipbench", Data: "d.jsonl", Model: "m"}, nil, ""},
		{"request fields given", Config{Bench: "elaipbench", Data: "d.jsonl", Model: "m", Paradigm: Reasoning,
			FlagsSet: []string{"temperature", "max-completion-tokens"}, Sampling: Sampling{ReasoningEffort: "high", Seed: &seed, HeaderNames: []string{"X-Route"}}},
			&Overrides{Answer: RequestOverrides{Temperature: &none, TopP: &pTopP, MaxCompletionTokens: &long}}, ""},
		{"LPFQA with a judge", Config{Bench: "lpfqa", Data: "l.json", Model: "m", Paradigm: CoT, JudgeModel: "j", JudgeURL: "http://judge/v1",
			Judge: Sampling{ReasoningEffort: "low"}},
			&Overrides{Answer: RequestOverrides{Temperature: &pHot}, Judge: RequestOverrides{TopP: &pTopP, MaxTokens: &judgeLong}}, ""},
		{"temperature refused", Config{Bench: "elaipbench", Data: "d.jsonl", Model: "m"}, nil, "temperature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := tc.cfg
			rec.Defaults(tc.o)
			if tc.drop != "" {
				rec = rec.drop(Dropped{Param: tc.drop, Why: "the server refused it"})
			}
			rec.DataSHA256, rec.Version, rec.Revision, rec.Embedder, rec.VectorDim, rec.Command = "abc", "v1.2.3", "deadbeef", "lsa-256@x", 256, []string{"paperlens", "eval"}
			// As read back from config.json.
			b, _ := json.Marshal(rec.shareable())
			var read Config
			if err := json.Unmarshal(b, &read); err != nil {
				t.Fatal(err)
			}

			rr := RerunOf(read)
			got := rr.Config
			got.Defaults(&rr.Overrides)
			want := []string{"command", "data_sha256", "embedder", "paperlens_version", "vcs_revision", "vector_dim"}
			if tc.drop != "" {
				want = append(want, "dropped", tc.drop)
				slices.Sort(want)
			}
			if d := diffKeys(t, read, got); !slices.Equal(d, want) {
				t.Errorf("rerun differs from the recorded config in %v, want %v", d, want)
			}
			if tc.drop != "" && (got.Temperature == nil || *got.Temperature != 0.1 || got.Dropped != nil) {
				t.Errorf("a refused temperature is %v (dropped %v); want the protocol's 0.1, for the preflight to drop again", got.Temperature, got.Dropped)
			}

			// An override given now changes that field alone.
			rr = RerunOf(read)
			cold := 0.25
			pCold := &cold
			rr.Overrides.Answer.Temperature = &pCold
			got = rr.Config
			got.Defaults(&rr.Overrides)
			if d := diffKeys(t, rerunResolved(read), got); !slices.Equal(d, []string{"temperature"}) {
				t.Errorf("--temperature 0.25 over the rerun changes %v, want [temperature]", d)
			}
		})
	}
}

// rerunResolved is RerunOf(rec) resolved by Defaults.
func rerunResolved(rec Config) Config {
	rr := RerunOf(rec)
	c := rr.Config
	c.Defaults(&rr.Overrides)
	return c
}

// The oldest config.json (testdata/schema/v1, before the request fields
// and the judge's were recorded) reads as a rerun of the same settings,
// the fields it lacks taking their defaults.
func TestRerunOfTheOldestConfig(t *testing.T) {
	rec, err := schemaDir("v1").ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	c := rerunResolved(rec)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if *c.Temperature != 0.1 || *c.TopP != 1 || c.MaxTokens != 32 || c.MaxTokensParam != "max_tokens" || c.Budget != 4000 || c.K != 5 || c.Runs != 1 {
		t.Errorf("recorded settings lost: temperature %v, top_p %v, %s %d, budget %d, k %d, runs %d",
			*c.Temperature, *c.TopP, c.MaxTokensParam, c.MaxTokens, c.Budget, c.K, c.Runs)
	}
	if *c.Judge.Temperature != 0 || c.Judge.MaxTokens != 1024 || c.ContextWindow != DefaultContextWindow || c.CoTPrompt != CoTPaper || c.LPFQAMCQ != protocol.MCQJudged {
		t.Errorf("settings the file lacks: judge %v/%d, window %d, cot %q, lpfqa-mcq %q", *c.Judge.Temperature, c.Judge.MaxTokens, c.ContextWindow, c.CoTPrompt, c.LPFQAMCQ)
	}
	if c.Data != rec.Data || c.Out != rec.Out || !slices.Equal(c.Modes, rec.Modes) {
		t.Errorf("paths and modes: %s, %s, %v", c.Data, c.Out, c.Modes)
	}
}

// WithJudge keeps the recorded judge's request fields for the same judge
// (so that its cached replies answer), gives another judge the judge
// defaults, and lets what is given replace either.
func TestWithJudge(t *testing.T) {
	rec := Config{Bench: "lpfqa", Data: "l.json", Model: "m", JudgeModel: "j", JudgeURL: "http://judge/v1"}
	long := 2048
	rec.Defaults(&Overrides{Judge: RequestOverrides{MaxTokens: &long}})

	same, err := rec.WithJudge(Judge{Model: "j"})
	if err != nil || len(diffKeys(t, rec, same)) != 0 {
		t.Errorf("the same judge: differs in %v (%v)", diffKeys(t, rec, same), err)
	}
	other, err := rec.WithJudge(Judge{Model: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffKeys(t, rec, other); !slices.Equal(d, []string{"judge", "judge_base_url", "judge_model"}) || other.Judge.MaxTokens != 1024 || other.JudgeURL != "" {
		t.Errorf("another judge: differs in %v, %d tokens at %q", d, other.Judge.MaxTokens, other.JudgeURL)
	}
	warm := 0.7
	pWarm := &warm
	given, err := rec.WithJudge(Judge{Model: "j", Overrides: RequestOverrides{Temperature: &pWarm}, Sampling: Sampling{ReasoningEffort: "low"}})
	if err != nil || *given.Judge.Temperature != 0.7 || given.Judge.MaxTokens != 2048 || given.Judge.ReasoningEffort != "low" {
		t.Errorf("the same judge, warmer: %+v (%v)", given.Judge, err)
	}
	if _, err := rec.WithJudge(Judge{Model: "j", Sampling: Sampling{ReasoningEffort: "max"}}); err == nil {
		t.Error("a judge reasoning effort that is none was taken")
	}
}
