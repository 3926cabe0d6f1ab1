package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/retrieval"
)

// eval retrieval --sweep end to end: JSON rows then a summary, the row at a
// budget of exactly 3 home passages equal to eval retrieval -k 3, another
// size searched without touching the home (no folder left in it, the next
// plain eval finds its passages as they were), and bad grids refused.
func TestEvalRetrievalSweep(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	common := []string{"eval", "retrieval", "--json", "--home", home, "--data", data, "--passage-tokens", "128", "--retriever", "bm25", "--query", "full"}
	out, errOut, code := paperlens(t, append(common, "--sweep", "--budgets", "256,384", "--sweep-passage-tokens", "128,256",
		"--sweep-windows", "2", "--sweep-parent-tokens", "256")...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "sweep: 2-sentence windows > passages of 256 tokens, bm25+full, rerank none") {
		t.Errorf("no progress on stderr:\n%s", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var rows []retrieval.SweepRow
	for _, l := range lines[:len(lines)-1] {
		var r retrieval.SweepRow
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("row %q: %v", l, err)
		}
		rows = append(rows, r)
	}
	var sum struct {
		N          int     `json:"n"`
		FullTokens float64 `json:"full_tokens"`
		Cheapest   []struct {
			Level float64 `json:"level"`
		} `json:"cheapest"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.N != 37 || sum.FullTokens <= 0 || len(sum.Cheapest) != 3 {
		t.Fatalf("summary %q: %v", lines[len(lines)-1], err)
	}
	// 2 budgets x (p128 + p256 + window) for bm25+full, and the oracle's
	// 2 x 2: the window's 256-token parents fit once in each budget.
	if len(rows) != 2*3+2*2 {
		t.Fatalf("%d rows: %+v", len(rows), rows)
	}
	var at384 *retrieval.SweepRow
	for i, r := range rows {
		if r.Retriever == "bm25" && r.Unit == retrieval.UnitPassage && r.PassageTokens == 128 && r.Budget == 384 {
			at384 = &rows[i]
		}
	}
	if at384 == nil || at384.K != 3 {
		t.Fatalf("no bm25 p128 row at budget 384 with k=3: %+v", rows)
	}
	entries, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), "sweep") {
			t.Errorf("the sweep left %s in the home", e.Name())
		}
	}
	out, errOut, code = paperlens(t, append(common, "-k", "3")...)
	if code != 0 {
		t.Fatalf("eval retrieval: exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "ingest") {
		t.Errorf("the plain eval after the sweep ingested again:\n%s", errOut)
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	var plain struct {
		Retrievers map[string]map[string]float64 `json:"retrievers"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &plain); err != nil {
		t.Fatal(err)
	}
	if want := plain.Retrievers["bm25+full"]["complete@3"]; math.Abs(at384.Complete-want) > 1e-9 {
		t.Errorf("sweep complete@384 with 128-token passages %.4f, eval retrieval complete@3 %.4f", at384.Complete, want)
	}

	for _, bad := range [][]string{
		{"--sweep", "-k", "3"},
		{"--sweep", "--budgets", "0"},
		{"--sweep", "--sweep-rerank", "llm"},
	} {
		if _, errOut, code := paperlens(t, append(common, bad...)...); code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, %q", bad, code, errOut)
		}
	}
}

// study --sweep offline: the picked configuration runs under both orders as
// eval runs of their own whose config.json holds it, a passage size other
// than the home's in a home of its own, and the report compares each with
// the full-paper mode.
func TestStudySweepOffline(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("study")
	}
	// The sample as study takes it by default from the repository root.
	root := filepath.Join("..", "..")
	home, outDir := t.TempDir(), t.TempDir()
	// --isolate=false: the sample's papers (ours) are parsed in this
	// process. What is tested is the sweep, not the isolation of
	// untrusted files (the ingest tests' subject); the workers it
	// started cost ~0.25 s of CPU, most of it their start.
	s, errOut, code := paperlens(t, "study", "--data", filepath.Join(root, "testdata", "elaipbench", "sample.jsonl"),
		"--papers", filepath.Join(root, "testdata", "papers"), "--home", home, "--out", outDir, "--runs", "1", "--models", "ir", "--mode", "full,dense",
		"--sweep", "--budgets", "512", "--sweep-passage-tokens", "256,512", "--sweep-windows", "", "--sweep-top", "1", "--isolate=false")
	if code != 0 {
		t.Fatalf("study --sweep: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"# Retrieval: budget sweep", "complete@budget", "Evaluated with each model", "## ir: swept configurations", "of full's prompt tokens"} {
		if !strings.Contains(s, want) {
			t.Errorf("study output lacks %q:\n%s", want, s)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(outDir, "study-ir-base-sweep-*"))
	if len(dirs) != 2 {
		t.Fatalf("swept run folders %v, want one configuration under two orders", dirs)
	}
	for _, d := range dirs {
		raw, err := os.ReadFile(filepath.Join(d, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			K         int      `json:"k"`
			Passage   int      `json:"max_passage_tokens"`
			QueryForm string   `json:"query_form"`
			Order     string   `json:"order"`
			Modes     []string `json:"modes"`
		}
		if err := json.Unmarshal(raw, &cfg); err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(d)
		want := fmt.Sprintf("study-ir-base-sweep-%s-p%d-k%d-%s-%s", strings.Join(cfg.Modes, ","), cfg.Passage, cfg.K, cfg.QueryForm, cfg.Order)
		if name != want || cfg.K*cfg.Passage > 512 || len(cfg.Modes) != 1 {
			t.Errorf("%s holds %+v", name, cfg)
		}
		if _, err := os.Stat(filepath.Join(home, "sweep", fmt.Sprintf("passages-%d", cfg.Passage))); (err == nil) != (cfg.Passage != 512) {
			t.Errorf("passages of %d: home of its own %v", cfg.Passage, err)
		}
	}
}
