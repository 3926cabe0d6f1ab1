package extract

import "testing"

func TestSkipFillers(t *testing.T) {
	for _, tc := range []struct {
		name       string
		s          string
		o          parseOpts
		first      bool
		wantK      int
		wantMarked bool
	}{
		{"blanks", "  \tA", parseOpts{}, true, 3, false},
		{"first fillers", "clearly option B", parseOpts{}, true, 15, true},
		{"later fillers only", "clearly B", parseOpts{}, false, 0, false},
		{"later option", "options B", parseOpts{}, false, 8, true},
		{"at most three", "thus then just only B", parseOpts{}, true, 15, false},
		{"a filler at the end is a word", "option", parseOpts{}, true, 0, false},
		{"a filler glued to a mark", "option(B)", parseOpts{}, true, 0, false},
		{"newline for the first only", "\n\nB", parseOpts{newline: true}, true, 2, false},
		{"no newline for later ones", "\n\nB", parseOpts{newline: true}, false, 0, false},
		{"boxed marks", "B", parseOpts{boxed: true}, true, 0, true},
		{"choice in capitals", "Choice  C", parseOpts{}, true, 8, true},
	} {
		k, marked := skipFillers(tc.s, 0, tc.o, tc.first)
		if k != tc.wantK || marked != tc.wantMarked {
			t.Errorf("%s: skipFillers(%q) = %d, %v; want %d, %v", tc.name, tc.s, k, marked, tc.wantK, tc.wantMarked)
		}
	}
}

func TestSkipOpenersAndClosers(t *testing.T) {
	for _, tc := range []struct {
		s        string
		wantK    int
		wantBold bool
	}{
		{"A", 0, false},
		{"**A", 2, true},
		{`$\boxed{\text{(A`, 15, false},
		{"( A", 2, false},
		{"((((((((A", 6, false}, // at most six
		{"__ A", 3, true},
	} {
		k, bold := skipOpeners(tc.s, 0)
		if k != tc.wantK || bold != tc.wantBold {
			t.Errorf("skipOpeners(%q) = %d, %v; want %d, %v", tc.s, k, bold, tc.wantK, tc.wantBold)
		}
	}
	for _, tc := range []struct {
		s          string
		wantEnd    int
		wantClosed bool
		wantBold   bool
	}{
		{"", 0, false, false},
		{" is", 0, false, false},
		{")", 1, true, false},
		{" ) **", 5, true, true},
		{"}}$", 3, true, false},
		{"】.", 3, true, false},
	} {
		end, closed, bold := skipClosers(tc.s, 0)
		if end != tc.wantEnd || closed != tc.wantClosed || bold != tc.wantBold {
			t.Errorf("skipClosers(%q) = %d, %v, %v; want %d, %v, %v", tc.s, end, closed, bold, tc.wantEnd, tc.wantClosed, tc.wantBold)
		}
	}
}

func TestLetterBoundaries(t *testing.T) {
	for _, tc := range []struct {
		s     string
		k     int
		after bool
	}{{"A", 0, false}, {"xA", 1, true}, {"答案是B", 9, false}, {"(A", 1, false}, {"éA", 2, true}} {
		if got := afterWord(tc.s, tc.k); got != tc.after {
			t.Errorf("afterWord(%q, %d) = %v, want %v", tc.s, tc.k, got, tc.after)
		}
	}
	for _, tc := range []struct {
		s       string
		wantRun string
		wantJ   int
	}{{"AC)", "AC", 2}, {"ب.", "B", 2}, {"بت", "", 0}, {"-", "", 0}, {"B2 x", "B2", 2}} {
		run, j := letterRun(tc.s, 0)
		if run != tc.wantRun || j != tc.wantJ {
			t.Errorf("letterRun(%q) = %q, %d; want %q, %d", tc.s, run, j, tc.wantRun, tc.wantJ)
		}
	}
	for _, tc := range []struct {
		s    string
		j    int
		want bool
	}{{"A's", 1, true}, {"A-based", 1, true}, {"A.I.", 1, true}, {"A.", 1, false}, {"A", 1, false}, {"Aé", 1, true}, {"A是", 1, false}, {"A-", 1, false}} {
		if got := wordGoesOn(tc.s, tc.j); got != tc.want {
			t.Errorf("wordGoesOn(%q, %d) = %v, want %v", tc.s, tc.j, got, tc.want)
		}
	}
}

func TestToken(t *testing.T) {
	x := newExtractor("ABCD", nil, true)
	for _, tc := range []struct {
		name  string
		s     string
		o     parseOpts
		first bool
		want  tok
		ok    bool
	}{
		{"bare letter", "B is", parseOpts{}, true, tok{mask: 2, end: 1, run: "B"}, true},
		{"bold", "**C**", parseOpts{}, true, tok{mask: 4, end: 5, run: "C", closed: true, bold: true}, true},
		{"option filler marks it", "option D", parseOpts{needMark: true}, true, tok{mask: 8, end: 8, run: "D"}, true},
		{"needs a mark", "D", parseOpts{needMark: true}, true, tok{}, false},
		{"a closer marks it", "(D)", parseOpts{needMark: true}, true, tok{mask: 8, end: 3, run: "D", closed: true}, true},
		{"not a valid option", "E", parseOpts{}, true, tok{}, false},
		{"part of a word", "xA", parseOpts{}, true, tok{}, false},
		{"a word goes on", "A's", parseOpts{}, true, tok{}, false},
		{"run needs concat", "AC", parseOpts{}, true, tok{}, false},
		{"run with concat", "AC", parseOpts{concat: true}, true, tok{mask: 5, end: 2, run: "AC"}, true},
		{"lower case", "c", parseOpts{lower: true}, true, tok{mask: 4, end: 1, run: "c"}, true},
		{"native letter", "ج", parseOpts{}, true, tok{mask: 4, end: 2, run: "C"}, true},
		{"nothing", "  ", parseOpts{}, true, tok{}, false},
	} {
		got, ok := x.token(tc.s, 0, tc.o, tc.first)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: token(%q) = %+v, %v; want %+v, %v", tc.name, tc.s, got, ok, tc.want, tc.ok)
		}
	}
}
