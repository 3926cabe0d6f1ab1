package session

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/sampletest"
)

// A request's Compose becomes the config's: seeded by the run's --seed,
// each run's seed listed, the default folder named apart from the
// benchmark's own; a rerun's recorded composition stays when the request
// gives none.
func TestPrepareRecordsComposition(t *testing.T) {
	t.Chdir(t.TempDir())
	spec, err := compose.ParseSpec("options=4-4")
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Config: run.Config{Bench: "elaipbench", Data: sampletest.Data(), Model: "random", Modes: []string{run.ClosedBook}, Runs: 3, Seed: 5, Home: t.TempDir()},
		Compose: &spec}
	c, err := Prepare(req)
	if err != nil {
		t.Fatal(err)
	}
	if c.Compose == nil || c.Compose.Seed != 5 || !slices.Equal(c.Compose.RunSeeds, []int64{6, 7, 8}) || c.Compose.Options != (compose.Range{Min: 4, Max: 4}) {
		t.Fatalf("compose %+v", c.Compose)
	}
	if filepath.Base(c.Out) != "elaipbench-random-base-composed" {
		t.Errorf("default folder %s", c.Out)
	}
	rerun := req
	rerun.Compose = nil
	rerun.Config.Compose, rerun.Config.Seed, rerun.Config.Out = c.Compose, 9, ""
	c2, err := Prepare(rerun)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Compose == nil || c2.Compose.Seed != 9 || !slices.Equal(c2.Compose.RunSeeds, []int64{10, 11, 12}) || c2.Compose.Options != c.Compose.Options {
		t.Errorf("rerun compose %+v", c2.Compose)
	}
	plain := req
	plain.Compose = nil
	if c3, err := Prepare(plain); err != nil || c3.Compose != nil || filepath.Base(c3.Out) != "elaipbench-random-base" {
		t.Errorf("no --compose: %+v %s %v", c3.Compose, c3.Out, err)
	}
}
