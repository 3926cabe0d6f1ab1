package session

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
)

const sample = "../../testdata/elaipbench/sample.jsonl"

func loadSample(t *testing.T) []bench.Question {
	t.Helper()
	qs, _, err := bench.LoadElaipBench(sample)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// EnsurePapers ingests the papers a benchmark needs, in process: from a
// folder of papers or from the rows' paper_content, only when something
// changed, and drops (and names) the questions whose paper is missing.
func TestEnsurePapers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		dir  string
	}{
		{"papers folder", "../../testdata/papers"},
		{"rows' paper_content", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			qs := loadSample(t)
			ghost := qs[0]
			ghost.PaperID, ghost.PaperContent = "no-such-paper", ""
			qs = append(qs, ghost)
			var log bytes.Buffer
			p := Papers{Home: home, Data: sample, Dir: tc.dir, Log: &log}

			kept, wrote, err := ensurePapers(context.Background(), p, append([]bench.Question(nil), qs...))
			if err != nil {
				t.Fatal(err)
			}
			if !wrote {
				t.Error("a new home was not ingested")
			}
			if len(kept) != len(qs)-1 {
				t.Errorf("kept %d of %d questions, want all but the one without a paper", len(kept), len(qs))
			}
			if !strings.Contains(log.String(), `paper "no-such-paper"`) || !strings.Contains(log.String(), ghost.ID) {
				t.Errorf("the missing paper and its question are not named: %s", log.String())
			}
			st, err := corpus.Open(home, true)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range kept {
				if _, err := st.Doc(q.PaperID); err != nil {
					t.Errorf("question %s: paper %s not stored: %v", q.ID, q.PaperID, err)
				}
			}
			st.Close()

			// A second pass has nothing to ingest and does not take the
			// writer's lock.
			_, wrote, err = ensurePapers(context.Background(), p, append([]bench.Question(nil), qs...))
			if err != nil {
				t.Fatal(err)
			}
			if wrote {
				t.Error("an up-to-date home was opened for writing")
			}
		})
	}
}

// --papers DIR holding only some of the papers: each paper comes from its
// own file when DIR has one, else from its rows' paper_content; a paper with
// neither is named with the exact file looked for and the questions it
// takes out, and when no question is left the error says the same.
func TestEnsurePapersDirFallsBackRowByRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"tidal-token-pruning.md", "quantile-early-exit-asr.pdf"} {
		raw, err := os.ReadFile(filepath.Join("../../testdata/papers", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const gone = "lagged-replay-curriculum" // no file in dir, and its rows lose paper_content
	qs := loadSample(t)
	var goneIDs []string
	for i := range qs {
		if qs[i].PaperID == gone {
			qs[i].PaperContent = ""
			goneIDs = append(goneIDs, qs[i].ID)
		}
	}
	if len(goneIDs) == 0 {
		t.Fatalf("the sample has no question on %s", gone)
	}
	home := t.TempDir()
	var log bytes.Buffer
	p := Papers{Home: home, Data: sample, Dir: dir, Log: &log}
	kept, wrote, err := ensurePapers(context.Background(), p, append([]bench.Question(nil), qs...))
	if err != nil {
		t.Fatal(err)
	}
	if !wrote {
		t.Error("a new home was not ingested")
	}
	if len(kept) != len(qs)-len(goneIDs) {
		t.Errorf("kept %d of %d questions, want all but the %d on %s", len(kept), len(qs), len(goneIDs), gone)
	}
	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ // paper → the kind of source it was stored from
		"tidal-token-pruning":         "text",
		"quantile-early-exit-asr":     "pdf",
		"claim-anchored-verification": "dataset",
		"concord-adapter-merging":     "dataset",
	}
	for id, kind := range want {
		d, err := st.Doc(id)
		if err != nil {
			t.Errorf("%s not stored: %v", id, err)
			continue
		}
		if d.Kind != kind {
			t.Errorf("%s stored from %s (%s), want from %s", id, d.Kind, d.Source, kind)
		}
	}
	if _, err := st.Doc(gone); err == nil {
		t.Errorf("%s stored though it has neither file nor paper_content", gone)
	}
	st.Close()
	msg := log.String()
	for _, s := range append([]string{`paper "` + gone + `"`, filepath.Join(dir, gone+".pdf"), "carry no paper_content", "put the paper there"}, goneIDs...) {
		if !strings.Contains(msg, s) {
			t.Errorf("the log does not say %q:\n%s", s, msg)
		}
	}
	for _, id := range []string{"claim-anchored-verification", "concord-adapter-merging"} {
		if !strings.Contains(msg, id) || !strings.Contains(msg, "come from their rows' paper_content") {
			t.Errorf("the log does not say that %s comes from its rows:\n%s", id, msg)
		}
	}

	// Nothing changed: read-only.
	if _, wrote, err = ensurePapers(context.Background(), p, append([]bench.Question(nil), qs...)); err != nil || wrote {
		t.Errorf("second pass: wrote=%v err=%v, want a read-only pass", wrote, err)
	}

	// Only questions without a paper: the error itself names paper, file
	// and questions.
	var only []bench.Question
	for _, q := range qs {
		if q.PaperID == gone {
			only = append(only, q)
		}
	}
	_, err = EnsurePapers(context.Background(), Papers{Home: t.TempDir(), Data: sample, Dir: dir}, only)
	if err == nil {
		t.Fatal("no error with no paper available")
	}
	for _, s := range append([]string{"no question has its paper available", `paper "` + gone + `"`, filepath.Join(dir, gone+".pdf")}, goneIDs...) {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("the error does not say %q: %v", s, err)
		}
	}
}

// A home with none of the papers and rows without paper_content leave no
// question to ask: an error that says so.
func TestEnsurePapersNone(t *testing.T) {
	t.Parallel()
	qs := loadSample(t)
	for i := range qs {
		qs[i].PaperContent = ""
	}
	_, err := EnsurePapers(context.Background(), Papers{Home: filepath.Join(t.TempDir(), "home"), Data: sample}, qs)
	if err == nil || !strings.Contains(err.Error(), "no question has its paper available") {
		t.Fatalf("got %v", err)
	}
}

// ensurePapers decides read-only that an ingested home needs nothing, so a
// reader holding the home (which would make a writer wait and fail) does
// not stop it; a change that ingest would store does open it for writing.
func TestEnsurePapersReadOnlyWhenIngested(t *testing.T) {
	ctx := context.Background()
	load := func() []bench.Question {
		t.Helper()
		qs, _, err := bench.LoadElaipBench(sample)
		if err != nil {
			t.Fatal(err)
		}
		return qs
	}
	ensure := func(home, papers string, maxTokens int, qs []bench.Question) (wrote bool) {
		t.Helper()
		kept, wrote, err := ensurePapers(ctx, Papers{Home: home, Data: sample, Dir: papers, MaxTokens: maxTokens}, qs)
		if err != nil || len(kept) != len(qs) {
			t.Fatalf("ensurePapers: %d of %d questions kept, %v", len(kept), len(qs), err)
		}
		return wrote
	}
	hold := func(home string) func() {
		t.Helper()
		r, err := corpus.Open(home, true)
		if err != nil {
			t.Fatal(err)
		}
		return func() { r.Close() }
	}

	// Papers carried by the dataset.
	home := t.TempDir()
	if !ensure(home, "", 0, load()) {
		t.Fatal("a fresh home was not ingested")
	}
	unhold := hold(home)
	if ensure(home, "", 0, load()) {
		t.Error("an ingested home was opened for writing")
	}
	if ensure(home, "", 512, load()) {
		t.Error("the default passage size, given explicitly, was taken for a new one")
	}
	unhold()
	if !ensure(home, "", 256, load()) {
		t.Error("a new passage size did not re-chunk")
	}

	// Papers in a folder, ids from file names; hidden files are not papers.
	home, dir := t.TempDir(), t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("alpha.md", "# Alpha\n\n"+strings.Repeat("Alpha studies retrieval for long papers. ", 40))
	write("beta.txt", strings.Repeat("Beta measures evidence recall. ", 40))
	write(".hidden.md", "# Not a paper")
	qs := []bench.Question{{ID: "1", PaperID: "alpha"}, {ID: "2", PaperID: "beta"}}
	if !ensure(home, dir, 0, qs) {
		t.Fatal("a fresh home was not ingested from the folder")
	}
	unhold = hold(home)
	if ensure(home, dir, 0, qs) {
		t.Error("a home holding the folder's papers was opened for writing")
	}
	unhold()
	write("beta.txt", strings.Repeat("Beta measures evidence recall, revised. ", 40))
	if !ensure(home, dir, 0, qs) {
		t.Error("a changed file was not ingested again")
	}
	if ensure(home, dir, 0, qs) {
		t.Error("the folder was ingested again with nothing changed")
	}
}
