// Package mcq parses multiple-choice questions whose options are inline in
// the question text, as ElaipBench and LPFQA publish them, and normalises
// answer keys.
package mcq

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Option is one lettered choice.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// Question is a stem with its options.
type Question struct {
	Stem    string   `json:"stem"`
	Options []Option `json:"options"`
	// Doubts say why the cut into stem and options may be wrong and which
	// reading was kept: a label such as "A." that occurs at two places where
	// the options could start ("as in Fig. A. The method ... A. first"), or a
	// kept label that reads as a reference ("Table E."). Loaders report
	// them by line, since a wrong cut silently changes what a model is asked.
	// Empty for a clean split.
	Doubts []string `json:"doubts,omitempty"`
}

// OptionLines renders the options one per line as "A. text".
func (q Question) OptionLines() []string {
	out := make([]string, len(q.Options))
	for i, o := range q.Options {
		out[i] = o.Letter + ". " + o.Text
	}
	return out
}

// Letters lists the option letters in order.
func (q Question) Letters() string {
	var b strings.Builder
	for _, o := range q.Options {
		b.WriteString(o.Letter)
	}
	return b.String()
}

// optionStart matches an option label at the start of a line: "A.", "A)",
// "(A)", "A:", "A．", "A、", with optional markdown bold.
var optionStart = lazyregexp.MustCompile(`(?m)^[ \t]*(?:\*\*)?\(?([A-J])(?:\*\*)?[.):．、：](?:\*\*)?[ \t]*`)

// inlineOption finds labels inside one line: " B. ", " (C) ".
var inlineOption = lazyregexp.MustCompile(`(?:^|\s)\(?([A-J])[.)](?:\s+)`)

// Parse splits a question into stem and options. Options are expected on
// their own lines; when none are, labels inside the text ("... A. x B. y")
// are tried, accepting them only as a consecutive run A, B, C, ... A label
// the text holds twice ("as in Fig. A. ... A. first") is settled where a
// rule allows (see pick); either way Doubts says so, for loaders to report.
func Parse(text string) Question {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if q, ok := split(text, optionStart.FindAllStringSubmatchIndex(text, -1)); ok {
		return q
	}
	if q, ok := split(text, inlineOption.FindAllStringSubmatchIndex(text, -1)); ok {
		return q
	}
	return Question{Stem: strings.TrimSpace(text)}
}

// split picks the options from label matches: the longest run A, B, C, ...
// in text order, cut where each label starts. Labels that are not options
// (a stem's "Fig. A.", an option's "see Appendix B.") can make the run
// ambiguous; see pick.
func split(text string, ms [][]int) (Question, bool) {
	labels := make([]label, len(ms))
	for i, m := range ms {
		ref, part := refWord(text, m[2])
		labels[i] = label{m: m, letter: text[m[2]], ref: ref, part: part}
	}
	picked, doubts := pick(text, labels)
	if len(picked) < 2 {
		return Question{}, false
	}
	q := Question{Stem: strings.TrimSpace(text[:picked[0].m[0]]), Doubts: doubts}
	for i, l := range picked {
		end := len(text)
		if i+1 < len(picked) {
			end = picked[i+1].m[0]
		}
		q.Options = append(q.Options, Option{Letter: string(l.letter), Text: strings.TrimSpace(text[l.m[1]:end])})
	}
	for _, l := range picked {
		if l.part {
			q.Doubts = append(q.Doubts, fmt.Sprintf("label %q (%s) follows %q, so it may be a reference inside the text rather than option %c; check the row against the published question",
				string(l.letter)+".", around(text, l.m[2]), l.ref, l.letter))
		}
	}
	return q, true
}

// label is one match of an option label.
type label struct {
	m      []int // the regexp submatch indices; m[2] is the letter
	letter byte
	ref    string // the word before it when that word names a figure, table, method...
	part   bool   // ref names a part of the paper (Fig., Table, Appendix...)
}

// pick chooses the labels that start the options. The longest run A, B, ...
// is found as a subsequence of the matches; when only one choice of matches
// spells it (the earliest and the latest choice agree) the split is clean.
// Otherwise a letter occurs twice where it could start its option, and the
// first rule that settles it applies:
//  1. leaving out labels that follow a reference word ("Fig. A.",
//     "Method B.") leaves exactly one choice;
//  2. matches holding the run with nothing between its labels ("A. B. C. D."
//     unbroken by a stray label): the last such run, since options close a
//     question;
//  3. none settles it: the earliest choice, as before, reported unsettled.
//
// Every ambiguous case yields a doubt, settled or not, so the user can check
// the row.
func pick(text string, labels []label) ([]label, []string) {
	early := earliest(labels, nil)
	if len(early) < 2 {
		return nil, nil
	}
	late := latest(labels, len(early), nil)
	if sameLabels(early, late) {
		return early, nil
	}
	n := len(early)
	d := 0 // the first letter the two choices disagree on
	for early[d].m[0] == late[d].m[0] {
		d++
	}
	why := fmt.Sprintf("label %q could start option %c at two places (%s and %s)",
		string(early[d].letter)+".", early[d].letter, around(text, early[d].m[2]), around(text, late[d].m[2]))
	// effect says what the kept reading makes of the text around the doubled
	// label: the stem's end when it is A, else the option before it.
	effect := func(run []label) string {
		if d == 0 {
			return fmt.Sprintf("the stem ends %q", tail(strings.TrimSpace(text[:run[0].m[0]])))
		}
		return fmt.Sprintf("option %c reads %q", run[d-1].letter, clip(optionText(text, run, d-1)))
	}
	const check = "check the row against the published question"
	notRef := func(l label) bool { return l.ref == "" }
	if e := earliest(labels, notRef); len(e) == n && sameLabels(e, latest(labels, n, notRef)) {
		return e, []string{fmt.Sprintf("%s; kept the labels that do not follow a reference word (Fig., Table, Method...), so %s; %s",
			why, effect(e), check)}
	}
	var runs [][]label
	for i := 0; i+n <= len(labels); i++ {
		ok := true
		for k := range n {
			if labels[i+k].letter != byte('A'+k) {
				ok = false
				break
			}
		}
		if ok {
			runs = append(runs, labels[i:i+n])
		}
	}
	switch len(runs) {
	case 0:
		return early, []string{fmt.Sprintf("%s; no reading is clearly right, so the first was kept and %s; %s, and fix its text",
			why, effect(early), check)}
	case 1:
		return runs[0], []string{fmt.Sprintf("%s; kept the only unbroken run %s, so %s; %s",
			why, lettersOf(runs[0]), effect(runs[0]), check)}
	}
	last := runs[len(runs)-1]
	return last, []string{fmt.Sprintf("%s; the text holds %d unbroken runs %s and the last was kept, so %s; %s",
		why, len(runs), lettersOf(last), effect(last), check)}
}

// earliest returns the run A, B, ... built by taking, from the first A, the
// first match of each next letter: the longest run there is. keep, when not
// nil, limits the matches considered.
func earliest(labels []label, keep func(label) bool) []label {
	var run []label
	want := byte('A')
	for _, l := range labels {
		if (keep == nil || keep(l)) && l.letter == want {
			run = append(run, l)
			want++
		}
	}
	return run
}

// latest returns the run of n letters A, B, ... built backwards from the last
// match of the n-th letter, or nil when there is none.
func latest(labels []label, n int, keep func(label) bool) []label {
	run := make([]label, n)
	want := byte('A' + n - 1)
	i := len(labels) - 1
	for ; i >= 0 && want >= 'A'; i-- {
		if (keep == nil || keep(labels[i])) && labels[i].letter == want {
			run[want-'A'] = labels[i]
			want--
		}
	}
	if want >= 'A' {
		return nil
	}
	return run
}

func sameLabels(a, b []label) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].m[0] != b[i].m[0] {
			return false
		}
	}
	return true
}

func lettersOf(run []label) string {
	return fmt.Sprintf("%c–%c", run[0].letter, run[len(run)-1].letter)
}

func optionText(text string, run []label, i int) string {
	end := len(text)
	if i+1 < len(run) {
		end = run[i+1].m[0]
	}
	return strings.TrimSpace(text[run[i].m[1]:end])
}

// refWords name things a stem or option refers to by a capital letter:
// "Fig. A.", "Table E.", "Method B.", "Appendix C.". A label right after one
// of them is more likely a reference than an option. The word must be
// capitalised, as such references are, since an option often ends in a
// plain noun ("A. the base model B. the large model"). Full words count only
// without a dot of their own ("... the Method. B." ends a sentence before a
// real label); abbreviations count with or without one ("Fig. A.", "Fig A.").
// Words marked true name parts of a paper and are reported even when the run
// is otherwise unambiguous ("Table E." read as a fifth option); the others
// (Method, Model, ...) are common enough at the end of an option to serve
// only to settle a letter that occurs twice.
var (
	refWords = map[string]bool{
		"figure": true, "figures": true, "table": true, "tables": true, "appendix": true, "appendices": true,
		"section": true, "sections": true, "equation": true, "chapter": true, "panel": true, "subfigure": true,
		"lemma": true, "theorem": true, "annex": true, "box": true,
		"method": false, "model": false, "algorithm": false, "setting": false, "condition": false, "group": false,
		"case": false, "type": false, "variant": false, "version": false, "step": false, "stage": false, "phase": false,
		"part": false, "experiment": false, "hypothesis": false, "class": false,
		"category": false, "scenario": false, "strategy": false,
	}
	refAbbrevs = map[string]bool{
		"fig": true, "figs": true, "tab": true, "app": true, "sec": true, "eq": true, "eqs": true,
		"alg": true, "exp": true, "ch": true, "thm": true,
	}
)

// refWord returns the capitalised word before the label whose letter is at
// i when it is a reference word on the same line, else "", and whether it
// names a part of the paper.
func refWord(text string, i int) (string, bool) {
	before := strings.TrimRight(text[:i], "(*")
	trimmed := strings.TrimRight(before, " \t")
	if len(trimmed) == len(before) || trimmed == "" || strings.HasSuffix(trimmed, "\n") {
		return "", false // glued to a word, or at the start of a line
	}
	w := trimmed[strings.LastIndexAny(trimmed, " \t\n(")+1:]
	if w == "" || w[0] < 'A' || w[0] > 'Z' {
		return "", false
	}
	bare := strings.ToLower(strings.TrimSuffix(w, "."))
	if refAbbrevs[bare] {
		return w, true
	}
	if part, ok := refWords[bare]; ok && !strings.HasSuffix(w, ".") {
		return w, part
	}
	return "", false
}

// around quotes a little text either side of byte offset i, on one line.
func around(text string, i int) string {
	const n = 24
	a, b := max(0, i-n), min(len(text), i+n)
	for a > 0 && !utf8.RuneStart(text[a]) {
		a--
	}
	for b < len(text) && !utf8.RuneStart(text[b]) {
		b++
	}
	s := strings.Join(strings.Fields(text[a:b]), " ")
	if a > 0 {
		s = "…" + s
	}
	if b < len(text) {
		s += "…"
	}
	return fmt.Sprintf("%q", s)
}

// tail is the last few words of s, for saying where a stem ends.
func tail(s string) string {
	f := strings.Fields(s)
	if len(f) > 6 {
		return "…" + strings.Join(f[len(f)-6:], " ")
	}
	return strings.Join(f, " ")
}

// clip shortens s to a few words.
func clip(s string) string {
	f := strings.Fields(s)
	if len(f) > 8 {
		return strings.Join(f[:8], " ") + "…"
	}
	return strings.Join(f, " ")
}

// NormalizeAnswer turns an answer key such as "A, C", "ca" or "(B)" into
// sorted unique upper-case letters ("AC"); ok is false when it holds
// anything but option letters.
func NormalizeAnswer(s string) (string, bool) {
	var letters []string
	seen := map[rune]bool{}
	for _, r := range strings.ToUpper(s) {
		switch {
		case r >= 'A' && r <= 'J':
			if !seen[r] {
				seen[r] = true
				letters = append(letters, string(r))
			}
		case r == ',' || r == ' ' || r == '(' || r == ')' || r == ';' || r == '、' || r == '，' || r == '\t':
		default:
			return "", false
		}
	}
	sort.Strings(letters)
	return strings.Join(letters, ""), len(letters) > 0
}
