package chunk

import (
	"slices"
	"strings"
	"testing"
)

func sentenceTexts(text string) []string {
	var out []string
	for _, s := range Sentences(text) {
		out = append(out, text[s.Start:s.End])
	}
	return out
}

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"et al. before a year", "Smith et al. (2023) show this. Next one.",
			[]string{"Smith et al. (2023) show this. ", "Next one."}},
		{"et al. before lower case", "As Smith et al. argue, it works. Next.",
			[]string{"As Smith et al. argue, it works. ", "Next."}},
		{"Fig.", "As shown in Fig. 3, the model wins. Next.",
			[]string{"As shown in Fig. 3, the model wins. ", "Next."}},
		{"Figs. and Tab.", "Results in Tab. 2 and Figs. 3 and 4 agree. Next.",
			[]string{"Results in Tab. 2 and Figs. 3 and 4 agree. ", "Next."}},
		{"e.g.,", "We use tricks, e.g., dropout. Next.",
			[]string{"We use tricks, e.g., dropout. ", "Next."}},
		{"percent", "Accuracy rose by 3.5% overall. Next.",
			[]string{"Accuracy rose by 3.5% overall. ", "Next."}},
		{"Eq.", "We minimise Eq. (2) by SGD. Next.",
			[]string{"We minimise Eq. (2) by SGD. ", "Next."}},
		{"i.e.", "The model, i.e. the encoder, is frozen. Next.",
			[]string{"The model, i.e. the encoder, is frozen. ", "Next."}},
		{"i.e. before a capital", "One part, i.e. The Encoder, is frozen. Next.",
			[]string{"One part, i.e. The Encoder, is frozen. ", "Next."}},
		{"Sec.", "See Sec. 4.1 for details. Next.",
			[]string{"See Sec. 4.1 for details. ", "Next."}},
		{"cf. before a name", "This holds, cf. Smith et al. for a proof. Next.",
			[]string{"This holds, cf. Smith et al. for a proof. ", "Next."}},
		{"vs.", "We compare GPT-4 vs. Claude here. Next.",
			[]string{"We compare GPT-4 vs. Claude here. ", "Next."}},
		{"resp.", "They reach 80% and 90%, resp. on A and B. Next.",
			[]string{"They reach 80% and 90%, resp. on A and B. ", "Next."}},
		{"approx. and Appx.", "It costs approx. 5 USD (see Appx. B). Next.",
			[]string{"It costs approx. 5 USD (see Appx. B). ", "Next."}},
		{"year then capital", "It was released in 2021. As a result, it was popular.",
			[]string{"It was released in 2021. ", "As a result, it was popular."}},
		{"table number then capital", "The data is summarized in Table 1. Each domain has tasks.",
			[]string{"The data is summarized in Table 1. ", "Each domain has tasks."}},
		{"appendix letter then capital", "Details are in Appendix A. LPFQA is new.",
			[]string{"Details are in Appendix A. ", "LPFQA is new."}},
		{"etc. ends a sentence", "We use cats, dogs, etc. The end.",
			[]string{"We use cats, dogs, etc. ", "The end."}},
		{"citation then capital", "It is known Lála et al. (2023). Furthermore, LLMs work.",
			[]string{"It is known Lála et al. (2023). ", "Furthermore, LLMs work."}},
		{"question and exclamation", "Why? Because it works! Yes.",
			[]string{"Why? ", "Because it works! ", "Yes."}},
		{"option letters", "Which one? A. OPT-1.3B B. OPT-2.7B C. OPT-6.7B",
			[]string{"Which one? ", "A. OPT-1.3B B. OPT-2.7B C. OPT-6.7B"}},
		{"initials", "The method of J. R. Quinlan is old. Next.",
			[]string{"The method of J. R. Quinlan is old. ", "Next."}},
		{"heading line", "1 Introduction\nLarge models are big. They are slow.",
			[]string{"1 Introduction\n", "Large models are big. ", "They are slow."}},
		{"markdown heading", "## 3.2 Setup\n\nWe train. We test.",
			[]string{"## 3.2 Setup\n\n", "We train. ", "We test."}},
		{"heading keeps vs.", "4.4 Accuracy vs. Reasoning Length\nText.",
			[]string{"4.4 Accuracy vs. Reasoning Length\n", "Text."}},
		{"wrapped line", "This sentence is\nwrapped here. Next.",
			[]string{"This sentence is\nwrapped here. ", "Next."}},
		{"page break inside a sentence", "the characteristics\n\nare amplified. Next.",
			[]string{"the characteristics\n\nare amplified. ", "Next."}},
		{"lines are sentences", "Task Definition.\nThe task is hard\nResults follow",
			[]string{"Task Definition.\n", "The task is hard\n", "Results follow"}},
		{"numbered list", "Steps:\n1. Determine the page.\n2. Extract text. Then stop.",
			[]string{"Steps:\n", "1. Determine the page.\n", "2. Extract text. ", "Then stop."}},
		{"inline list", "There are rules: 1. Keep it. 2. Ship it.",
			[]string{"There are rules: 1. Keep it. ", "2. Ship it."}},
		{"bold enumerator", "**1. Professional Domain.** Experts are listed.",
			[]string{"**1. Professional Domain.** Experts are listed."}},
		{"roman enumerator", "- II. Eigenvalues: ...\n- III. Linear maps: ...",
			[]string{"- II. Eigenvalues: ...\n", "- III. Linear maps: ..."}},
		{"table rows stay whole", "| Avg. | Sci. | Eng. |\nModel\tAvg.\tSci.\tEng.\n",
			[]string{"| Avg. | Sci. | Eng. |\n", "Model\tAvg.\tSci.\tEng.\n"}},
		{"leading whitespace joins the first sentence", "\n\n  First. Second.",
			[]string{"\n\n  First. ", "Second."}},
		{"trailing whitespace", "One. Two.  \n\n",
			[]string{"One. ", "Two.  \n\n"}},
		{"whitespace only", " \n\t ", []string{" \n\t "}},
		{"no punctuation", "no punctuation at all", []string{"no punctuation at all"}},
		{"CJK", "这是第一句。这是第二句。", []string{"这是第一句。", "这是第二句。"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sentenceTexts(tt.text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", tt.text, got, tt.want)
			}
			checkTiling(t, tt.text, Sentences(tt.text))
		})
	}
}

func TestSentencesEmpty(t *testing.T) {
	if got := Sentences(""); got != nil {
		t.Errorf("Sentences(\"\") = %v, want nil", got)
	}
}

func checkTiling(t *testing.T, text string, spans []Span) {
	t.Helper()
	if text == "" {
		if len(spans) != 0 {
			t.Errorf("empty text gave %d spans", len(spans))
		}
		return
	}
	if len(spans) == 0 || spans[0].Start != 0 || spans[len(spans)-1].End != len(text) {
		t.Fatalf("spans %v do not cover [0,%d)", spans, len(text))
	}
	for i, s := range spans {
		if s.End <= s.Start {
			t.Fatalf("span %d is empty: %v", i, s)
		}
		if i > 0 && spans[i-1].End != s.Start {
			t.Fatalf("gap or overlap between spans %d and %d: %v %v", i-1, i, spans[i-1], s)
		}
		if i > 0 && strings.TrimSpace(text[s.Start:s.Start+1]) == "" {
			t.Errorf("span %d starts with whitespace, which belongs to the previous one: %q", i, text[s.Start:s.End])
		}
	}
}

func TestSentencesOnSeeds(t *testing.T) {
	for name, text := range seedTexts(t) {
		spans := Sentences(text)
		checkTiling(t, text, spans)
		// Real papers average 20-40 words a sentence; far fewer spans would
		// mean boundaries are missed, far more that abbreviations split.
		words := len(strings.Fields(text))
		if per := float64(words) / float64(len(spans)); per < 5 || per > 60 {
			t.Errorf("%s: %d sentences for %d words (%.1f words each)", name, len(spans), words, per)
		}
		for _, s := range spans {
			st := strings.TrimSpace(text[s.Start:s.End])
			for _, abbr := range []string{"et al.", "Fig.", "e.g.", "i.e.", "cf.", "Eq.", "Sec.", "vs."} {
				if strings.HasSuffix(st, " "+abbr) && s.End < len(text) {
					next := text[s.End:min(len(text), s.End+20)]
					if abbr != "et al." || !startsUpperWord(next) {
						t.Errorf("%s: sentence ends in %q before %q: %q", name, abbr, next, st[max(0, len(st)-80):])
					}
				}
			}
		}
	}
}

func startsUpperWord(s string) bool { return startsUpper(s) }

func FuzzSentences(f *testing.F) {
	for _, s := range []string{"A. B. C.", "et al. (2023). As", "1 Intro\nText.", "\n\n## x\n", "a\tb. C", "。！？", "**1. x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkTiling(t, text, Sentences(text))
	})
}
