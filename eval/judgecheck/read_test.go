package judgecheck_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/judgecheck"
)

// Every one of the 1,193 comparisons of LFQA-E's Chinese subset is read,
// with the fields and labels the test reads itself.
func TestReadsAllOfLFQAEChinese(t *testing.T) {
	path := lfqae(t)
	items, err := judgecheck.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ref := readRef(t, path, 0)
	if len(items) != 1193 || len(ref) != 1193 {
		t.Fatalf("read %d comparisons (the test reads %d), want 1193", len(items), len(ref))
	}
	labels := map[judgecheck.Verdict]int{}
	types := map[string]int{}
	for i, it := range items {
		r := ref[i]
		if it.Row != i+1 || it.ID != r.ID || it.Question != r.Question || it.Reference != r.Reference ||
			it.ResponseA != r.ResponseA || it.ResponseB != r.ResponseB || it.CompareType != r.CompareType || string(it.Label) != r.verdict() {
			t.Fatalf("comparison %d read as %+v\nwant %+v", i+1, it, r)
		}
		labels[it.Label]++
		types[it.CompareType]++
	}
	// The counts shared/external/README.md gives.
	if labels[judgecheck.A] != 599 || labels[judgecheck.B] != 498 || labels[judgecheck.Tie] != 96 {
		t.Errorf("labels %v, want A 599, B 498, TIE 96", labels)
	}
	if types["model_vs_model"] != 599 || types["human_vs_model"] != 594 {
		t.Errorf("compare types %v, want model_vs_model 599, human_vs_model 594", types)
	}
}

// JSONL is read too, and a bad row stops the reading with the file, the
// row and what to do.
func TestReadErrorsNameFileAndRow(t *testing.T) {
	dir := t.TempDir()
	good := `{"question":"q","reference":"r","response_a":"a","response_b":"b","label":"response_a","compare_type":"human_vs_model"}`
	for _, tc := range []struct {
		name, body string
		want       []string // in the error; none: no error
	}{
		{"ok.jsonl", good + "\n\n" + strings.Replace(good, `"label":"response_a"`, `"label":"same"`, 1) + "\n", nil},
		{"ok.json", "\ufeff [" + good + "," + good + "]", nil},
		{"label.jsonl", good + "\n" + strings.Replace(good, `"label":"response_a"`, `"label":"a"`, 1), []string{"label.jsonl:2", `label "a"`, "response_a, response_b or same"}},
		{"missing.json", "[" + good + `,{"question":"q","response_a":"a","response_b":"b","label":"same"}]`, []string{"missing.json: item 2", `no "reference"`}},
		{"type.jsonl", strings.Replace(good, `"question":"q"`, `"question":3`, 1), []string{"type.jsonl:1", `field "question"`, "must be a string"}},
		{"dup.jsonl", `{"id":7,` + good[1:] + "\n" + `{"id":"7",` + good[1:], []string{"dup.jsonl", "rows 1 and 2", `id "7"`}},
		{"broken.jsonl", good + "\n{\"question\":", []string{"broken.jsonl:2", "not a JSON object"}},
		{"empty.json", "  \n", []string{"empty.json", "empty"}},
		{"emptyarray.json", "[]", []string{"holds no comparisons"}},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		items, err := judgecheck.ReadFile(p)
		if tc.want == nil {
			if err != nil || len(items) != 2 {
				t.Errorf("%s: %d items, %v", tc.name, len(items), err)
			}
			continue
		}
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want it to say %q", tc.name, err, w)
			}
		}
	}
	// In JSONL the row is the line: the blank line 2 is skipped.
	items, _ := judgecheck.ReadFile(filepath.Join(dir, "ok.jsonl"))
	if len(items) != 2 || items[1].Row != 3 || items[1].ID != "row 3" || items[1].Label != judgecheck.Tie {
		t.Errorf("ok.jsonl read as %+v", items)
	}
}

func TestParseVerdict(t *testing.T) {
	for reply, want := range map[string]judgecheck.Verdict{
		"Answer A covers more.\nVerdict: A": judgecheck.A,
		"Verdict: B\n":                      judgecheck.B,
		"verdict: tie":                      judgecheck.Tie,
		"**Verdict:** B":                    judgecheck.B,
		"> Verdict: `TIE`.":                 judgecheck.Tie,
		"Verdict：A":                         judgecheck.A,
		"Verdict: [B]\r\n\r\n":              judgecheck.B,
		"Format: Verdict: A, Verdict: B\nVerdict: A\nThanks.": judgecheck.A,
		"Verdict: A\n…on reflection…\nVerdict: B":             judgecheck.B,
		"Verdict: A\nVerdict: A or B":                         judgecheck.A,
		"Verdict: C":                                          "",
		"The verdict: A is better":                            "",
		"Verdicts: A":                                         "",
		"因此，【回答一】更优秀":                                         "",
		"":                                                    "",
	} {
		v, ok := judgecheck.ParseVerdict(reply)
		if v != want || ok != (want != "") {
			t.Errorf("ParseVerdict(%q) = %q, %v; want %q", reply, v, ok, want)
		}
	}
}

// Cohen's κ of a textbook table (Cohen 1960 style): po 0.70, pe 0.50.
func TestKappa(t *testing.T) {
	k, ok := judgecheck.Kappa([][]int{{20, 5}, {10, 15}})
	if !ok || !near(k, 0.4) {
		t.Errorf("κ = %v, %v; want 0.4", k, ok)
	}
	if _, ok := judgecheck.Kappa([][]int{{7, 0}, {0, 0}}); ok {
		t.Error("κ of two raters always saying the same class is defined")
	}
	if _, ok := judgecheck.Kappa([][]int{{0, 0}, {0, 0}}); ok {
		t.Error("κ of no counts is defined")
	}
}

// Offline, the length and ROUGE-L baselines on all 1,193 comparisons equal
// the test's own computation, overall and by compare_type.
func TestStaticBaselinesOnLFQAEChinese(t *testing.T) {
	path := lfqae(t)
	s, err := judgecheck.Run(context.Background(), judgecheck.Options{File: path})
	if err != nil {
		t.Fatal(err)
	}
	ref := readRef(t, path, 0)
	length, rouge := make([]string, len(ref)), make([]string, len(ref))
	for i, it := range ref {
		length[i] = wins(float64(len(refTokens(it.ResponseA))), float64(len(refTokens(it.ResponseB))))
		rouge[i] = wins(refRougeL(it.ResponseA, it.Reference), refRougeL(it.ResponseB, it.Reference))
	}
	if s.Judge != nil || s.Comparisons != 1193 {
		t.Fatalf("summary %+v", s)
	}
	for _, b := range []struct {
		name     string
		g        judgecheck.Group
		verdicts []string
	}{{"length", s.Static.Length, length}, {"ROUGE-L", s.Static.RougeL, rouge}} {
		checkFigures(t, b.name, b.g.Figures, labelsOf(ref), b.verdicts)
		groups := byCompare(ref, b.verdicts)
		if len(b.g.ByCompareType) != len(groups) || b.g.ByType != nil {
			t.Errorf("%s: groups %v, by type %v; want %d compare types, no topics", b.name, b.g.ByCompareType, b.g.ByType, len(groups))
		}
		for ct, lv := range groups {
			checkFigures(t, b.name+" "+ct, b.g.ByCompareType[ct], lv[0], lv[1])
		}
		t.Logf("%s: accuracy %.4f, macro-F1 %.4f, tie accuracy %v; %v", b.name, b.g.Accuracy, b.g.MacroF1, *b.g.TieAccuracy, b.g.Confusion)
	}
}

// Rows with a topic (LFQA-E's English rows have type) are also reported by
// topic; rows without one form the group "(none)".
func TestFiguresByTopic(t *testing.T) {
	file := filepath.Join(t.TempDir(), "topics.jsonl")
	row := `{"question":"q","reference":"alpha beta","response_a":"alpha beta gamma","response_b":"alpha","label":"%s","compare_type":"human_vs_human"%s}` + "\n"
	body := fmt.Sprintf(row, "response_a", `,"type":"Physics"`) + fmt.Sprintf(row, "same", `,"type":"Physics"`) + fmt.Sprintf(row, "response_b", "")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := judgecheck.Run(context.Background(), judgecheck.Options{File: file})
	if err != nil {
		t.Fatal(err)
	}
	// Length and ROUGE-L both prefer response_a in every row.
	g := s.Static.Length
	phys, none := g.ByType["Physics"], g.ByType["(none)"]
	if len(g.ByType) != 2 || phys.N != 2 || phys.Correct != 1 || *phys.TieAccuracy != 0 || none.N != 1 || none.Correct != 0 || len(g.ByCompareType) != 1 {
		t.Errorf("by topic %+v, by compare type %+v", g.ByType, g.ByCompareType)
	}
	var b strings.Builder
	if err := s.WriteText(&b); err != nil || !strings.Contains(b.String(), "  type Physics") || !strings.Contains(b.String(), "  type (none)") {
		t.Errorf("text: %v\n%s", err, b.String())
	}
}
