package chunk

import (
	"strings"
	"testing"
)

func TestHeadingLines(t *testing.T) {
	tests := []struct {
		line  string
		title string // "" when the line is not a heading
		level int
	}{
		{"1 Introduction", "1 Introduction", 1},
		{"3.2 Experimental Setup", "3.2 Experimental Setup", 2},
		{"3.2.1 QA pair generation", "3.2.1 QA pair generation", 3},
		{"A.7 RAG Settings", "A.7 RAG Settings", 2},
		{"4.4 Accuracy vs. Reasoning Length", "4.4 Accuracy vs. Reasoning Length", 2},
		{"2. Related Work", "2. Related Work", 1},
		{"IV. EXPERIMENTS", "IV. EXPERIMENTS", 1},
		{"Abstract", "Abstract", 1},
		{"ABSTRACT", "ABSTRACT", 1},
		{"**Abstract**", "Abstract", 1},
		{"References", "References", 1},
		{"Acknowledgments", "Acknowledgments", 1},
		{"Acknowledgements:", "Acknowledgements:", 1},
		{"Appendix", "Appendix", 1},
		{"Appendix A Appendix", "Appendix A Appendix", 1},
		{"Appendix B: Proofs of Theorems", "Appendix B: Proofs of Theorems", 1},
		{"Conclusion and Future Work", "Conclusion and Future Work", 1},
		{"Background & Motivation", "Background & Motivation", 1},
		{"# Title of the Paper", "Title of the Paper", 1},
		{"## 2 Method", "2 Method", 1},
		{"### 2.1 Data ###", "2.1 Data", 2},
		{"## **6 Contributions and Acknowledgments**", "6 Contributions and Acknowledgments", 1},
		{"#### Prompt: Correct Statement Extraction", "Prompt: Correct Statement Extraction", 4},

		{"2021.", "", 0},
		{"Table 3", "", 0},
		{"Table 1: Domain distribution of LPFQA benchmark.", "", 0},
		{"Figure 2: Construction pipeline of LPFQA.", "", 0},
		{"1 + x = 2", "", 0},
		{"(2)", "", 0},
		{"1 N", "", 0},
		{"2 Σ x_i", "", 0},
		{"3. If the page is valid, check whether it contains a clear question", "", 0},
		{"2. Generate options for the question", "", 0},
		{"1 Gemini-2.5-Pro 47.22 55.74 45.83", "", 0},
		{"GLM-4.6 54.17 55.74 45.83 48.84", "", 0},
		{"| 3.3 Benchmark | Statistics |", "", 0},
		{"1\tIntroduction", "", 0},
		{"Task Definition.", "", 0},
		{"A Survey of Large Language Models", "", 0}, // bare letter outside the back matter
		{"I Think Therefore", "", 0},
		{"Appendix B provides the proofs", "", 0},
		{"5 We then train the model on the data set.", "", 0},
		{"#", "", 0},
		{"## ", "", 0},
		{"#hashtag", "", 0},
		// PDF text: a maths glyph mapped to '#' starts an equation line.
		{"# lc(st+l) , # lc(st+l) , A⇡(s, a) = Q⇡(s, a) V⇡(s)", "", 0},
		{"# tA⇡(st, at) , where s0 ⇠⇢0(s0)", "", 0},
		{"# Activated Params\t-\t37B", "", 0},
		{"00 RWMD RWMD WCD RWMD WMD c2", "", 0},
		{"0 Introduction", "", 0},
		{"2 R log", "", 0},
		{"# of pairs total", "", 0},
		{"## the end", "", 0},
		{"## The End", "The End", 2},
		{"2 A Bound on the Return", "2 A Bound on the Return", 1},
		{"Results in Table 2 show gains", "", 0},
		{"12 Angry Men Watched The Movie And Then Went Home To Sleep Well Tonight", "", 0},
	}
	for _, tt := range tests {
		hs := Headings(tt.line)
		switch {
		case tt.title == "" && len(hs) > 0:
			t.Errorf("Headings(%q) = %+v, want none", tt.line, hs)
		case tt.title != "" && len(hs) != 1:
			t.Errorf("Headings(%q) = %+v, want %q", tt.line, hs, tt.title)
		case tt.title != "":
			if h := hs[0]; h.Title != tt.title || h.Level != tt.level || h.Start != 0 || h.End != len(tt.line) {
				t.Errorf("Headings(%q) = %+v, want title %q level %d span [0,%d)", tt.line, h, tt.title, tt.level, len(tt.line))
			}
		}
	}
}

func TestHeadingsContext(t *testing.T) {
	text := "Intro text.\n\n  1 Introduction\nBody.\n```\n# not a heading\n```\nReferences\n[1] A. Author. Title. 2020.\nB Prompts Used\nThe prompt.\n"
	hs := Headings(text)
	var titles []string
	for _, h := range hs {
		titles = append(titles, h.Title)
		if got := text[h.Start:h.End]; got != h.Title {
			t.Errorf("span of %q is %q", h.Title, got)
		}
	}
	want := []string{"1 Introduction", "References", "B Prompts Used"}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("Headings = %q, want %q", titles, want)
	}
}

func TestHeadingsOnSeeds(t *testing.T) {
	texts := seedTexts(t)
	mustHave := map[string][]string{
		"004_": {"Abstract", "1 Introduction", "3.2.1 QA Pair Generation", "4.6 RAG Performance", "References", "A.7 RAG Settings", "A.7.1 Hyper-parameter Setting"},
		"000_": {"Abstract", "1 Introduction", "2.1 Long-Tail Knowledge Benchmarks", "References", "H.2 Search Tool"},
		"001_": {"Abstract", "1 Introduction", "4.3 Ablation Experiments: Impact of Tool Augmentation", "References"},
		"002_": {"Abstract", "1 Introduction", "4.2 Answer Extraction", "A.3 Stage 3: Question Assembly"},
		"003_": {"Method"},
	}
	for name, text := range texts {
		hs := Headings(text)
		got := map[string]bool{}
		for i, h := range hs {
			got[h.Title] = true
			if i > 0 && h.Start <= hs[i-1].Start {
				t.Errorf("%s: headings out of order at %q", name, h.Title)
			}
			if line := text[h.Start:h.End]; !strings.Contains(line, strings.Fields(h.Title)[0]) {
				t.Errorf("%s: heading %q spans %q", name, h.Title, line)
			}
			if strings.ContainsAny(h.Title, "|\t") || len(h.Title) > 120 {
				t.Errorf("%s: implausible heading %q", name, h.Title)
			}
		}
		for prefix, want := range mustHave {
			if !strings.Contains(name, prefix) {
				continue
			}
			for _, w := range want {
				if !got[w] {
					t.Errorf("%s: heading %q not detected; got %d headings", name, w, len(hs))
				}
			}
		}
	}
}

// TestHeadingsBesideTableRows: a one-cell line among tab-separated table
// rows (a group label, a header set on two lines) is part of the table.
func TestHeadingsBesideTableRows(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Retrieval\nMethods\nEM\tF1\nEE\t21.47\t67.61\n\nReferences", []string{"References"}},
		{"Methods\tAn\tSp\nResults\nBeam\t66.9\t66.9", nil},
		{"Results\n\nMethod\tEM\nA\t1", []string{"Results"}},                      // a blank line sets it apart
		{"1 Introduction\n\tIn this paper we study.", []string{"1 Introduction"}}, // an indent is no cell
	}
	for _, tc := range tests {
		var got []string
		for _, h := range Headings(tc.text) {
			got = append(got, h.Title)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Headings(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
