package session

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// configMembers reads a run folder's config.json as its members.
func configMembers(t *testing.T, dir string) (map[string]json.RawMessage, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, b
}

// differing lists the members of two config.json files that differ.
func differing(a, b map[string]json.RawMessage) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if string(a[k]) != string(b[k]) {
			out = append(out, k)
		}
	}
	return out
}

// eval --config RUN/config.json: a recorded run read back (ReadRerun)
// and run again, as the command will (the rerun first, the flags the user
// gave on top), writes the same config.json but for its folder; an
// override changes exactly its field. The key and the header's value are
// never in config.json, so a rerun must be given the header again. One
// run had its temperature refused by the server: the rerun asks the
// protocol's, the preflight drops it again, and config.json says so as
// the first did.
func TestRerunFromConfig(t *testing.T) {
	ctx := context.Background()
	replies := newSampleReplies(t)
	for _, tc := range []struct {
		name     string
		paradigm string
		rules    bool // the server refuses what o-series models refuse
	}{
		{"base", run.Base, false},
		{"temperature refused", run.Reasoning, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{Answer: replies.answer, ReasoningRules: tc.rules})
			root, home := t.TempDir(), t.TempDir()
			first := sampleEval(home, filepath.Join(root, "first"), srv.BaseURL(), []string{run.ClosedBook})
			first.Config.Paradigm, first.Config.Limit = tc.paradigm, 6
			if tc.rules {
				// The refused temperature must be the protocol's, not a flag.
				first.Config.FlagsSet, first.Overrides = nil, run.Overrides{}
			}
			if _, _, err := Eval(ctx, first); err != nil {
				t.Fatal(err)
			}
			recorded, raw := configMembers(t, first.Config.Out)
			for _, secret := range []string{"sk-test-secret-key", "route-token-77"} {
				if strings.Contains(string(raw), secret) {
					t.Fatalf("config.json holds a secret %q:\n%s", secret, raw)
				}
			}
			if tc.rules && !strings.Contains(string(raw), `"dropped"`) {
				t.Fatalf("the server's refusal is not recorded:\n%s", raw)
			}

			rr, err := ReadRerun(filepath.Join(first.Config.Out, "config.json"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ReadRerun(filepath.Join(first.Config.Out, "summary.json")); err == nil || !strings.Contains(err.Error(), "RUN/config.json") {
				t.Errorf("--config naming another file: %v", err)
			}
			if err := rr.CheckHeaders(Clients{}); err == nil || !strings.Contains(err.Error(), "X-Route") || !strings.Contains(err.Error(), "--header") {
				t.Errorf("a rerun without the recorded header: %v; want an error naming it and --header", err)
			}
			if err := rr.CheckHeaders(first.Clients); err != nil {
				t.Error(err)
			}
			again := func(out string, change func(*run.Overrides)) map[string]json.RawMessage {
				t.Helper()
				rr, err := ReadRerun(first.Config.Out)
				if err != nil {
					t.Fatal(err)
				}
				req := first
				req.Config, req.Overrides, req.Index, req.Rerank = rr.Config, rr.Overrides, rr.Index, rr.Rerank
				req.Config.Out = out
				if change != nil {
					change(&req.Overrides)
				}
				if _, _, err := Eval(ctx, req); err != nil {
					t.Fatal(err)
				}
				m, _ := configMembers(t, out)
				return m
			}
			if d := differing(recorded, again(filepath.Join(root, "again"), nil)); !slices.Equal(d, []string{"out"}) {
				t.Errorf("the rerun's config.json differs in %v, want only out", d)
			}
			if !tc.rules {
				cold := 0.25
				pCold := &cold
				got := again(filepath.Join(root, "colder"), func(o *run.Overrides) { o.Answer.Temperature = &pCold })
				if d := differing(recorded, got); !slices.Equal(d, []string{"out", "temperature"}) {
					t.Errorf("--temperature 0.25 over the rerun changes %v, want out and temperature", d)
				}
			}
		})
	}
}
