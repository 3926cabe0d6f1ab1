package study

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest/corpus"
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

			before := PaperWrites.Load()
			kept, err := EnsurePapers(context.Background(), p, append([]bench.Question(nil), qs...))
			if err != nil {
				t.Fatal(err)
			}
			if PaperWrites.Load() == before {
				t.Error("a new home was not ingested")
			}
			if len(kept) != len(qs)-1 {
				t.Errorf("kept %d of %d questions, want all but the one without a paper", len(kept), len(qs))
			}
			if !strings.Contains(log.String(), `paper "no-such-paper" is not in the corpus`) {
				t.Errorf("the missing paper is not named: %s", log.String())
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
			before = PaperWrites.Load()
			if _, err := EnsurePapers(context.Background(), p, append([]bench.Question(nil), qs...)); err != nil {
				t.Fatal(err)
			}
			if PaperWrites.Load() != before {
				t.Error("an up-to-date home was opened for writing")
			}
		})
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
