package textquality

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fakeTool extracts "text N" for document N; its seconds are the round
// number, and the document named "bad" fails in the given rounds.
func fakeTool(name string, failRounds ...int) tool {
	round := 0
	return tool{name, func(_ context.Context, paths []string) ([]extraction, error) {
		round++
		out := make([]extraction, len(paths))
		for i, p := range paths {
			out[i] = extraction{text: "text " + p, seconds: float64(round)}
			for _, r := range failRounds {
				if p == "bad" && r == round {
					out[i].err = errors.New("failed in round " + string(rune('0'+round)))
				}
			}
		}
		return out, nil
	}}
}

func TestExtractAll(t *testing.T) {
	tools := []tool{fakeTool("a"), fakeTool("b", 2, 3)}
	ex, err := extractAll(context.Background(), tools, []string{"x", "bad"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := &extractions{
		texts: [][]string{{"text x", "text bad"}, {"text x", "text bad"}},
		secs:  [][][]float64{{{1, 2, 3}, {1, 2, 3}}, {{1, 2, 3}, {1, 2, 3}}},
		errs:  [][]string{{"", ""}, {"", "failed in round 2"}},
	}
	if !reflect.DeepEqual(ex, want) {
		t.Errorf("extractAll = %+v, want %+v", ex, want)
	}
	failing := tool{"c", func(context.Context, []string) ([]extraction, error) { return nil, errors.New("no binary") }}
	if _, err := extractAll(context.Background(), []tool{failing}, []string{"x"}, 1); err == nil || err.Error() != "run c: no binary" {
		t.Errorf("failing tool: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := extractAll(ctx, []tool{fakeTool("a")}, []string{"x"}, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestToolMean(t *testing.T) {
	rows := []Row{
		{Tool: "a", Scores: Scores{Ratio: 1, RatioWS: 0.5, Order: 1, Symbols: 1}, SymbolSet: Symbols{}, Seconds: 2},
		{Tool: "b", Scores: Scores{Ratio: 0}, Seconds: 100},
		{Tool: "a", Scores: Scores{Ratio: 0.5, RatioWS: 0.5, Order: 0, Symbols: 0.5}, SymbolSet: Symbols{Truth: 4, Found: 2}, Seconds: 3},
	}
	got := toolMean("a", rows)
	want := Mean{Tool: "a", Scores: Scores{Ratio: 0.75, RatioWS: 0.5, Order: 0.5, Symbols: 0.75}, AllSymbols: Symbols{Truth: 4, Found: 2, Score: 0.5}, Seconds: 5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("toolMean = %+v, want %+v", got, want)
	}
	// No symbols anywhere: the pool scores 1.
	if m := toolMean("b", rows); m.AllSymbols.Score != 1 || m.Seconds != 100 {
		t.Errorf("no symbols: %+v", m)
	}
}

func TestScoreRowAndSave(t *testing.T) {
	row := scoreRow("t", "doc", "Alpha α beta.", "Alpha α beta.", []float64{3, 1, 2}, "")
	if row.Ratio != 1 || row.Symbols != 1 || row.Chars != 13 || row.Seconds != 2 || row.Tool != "t" || row.Document != "doc" {
		t.Errorf("identical text: %+v", row)
	}
	dir := t.TempDir()
	if err := saveText(dir, "t", "doc", "text"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "t", "doc.txt")); err != nil || string(b) != "text" {
		t.Errorf("saved %q, %v", b, err)
	}
}
