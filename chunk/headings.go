package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Heading is a section heading found in a text.
type Heading struct {
	Start int    // byte offset of the heading line's first non-blank byte
	End   int    // byte offset just past the heading line's last non-blank byte
	Title string // the line without markdown markers or emphasis: "4.6 RAG Performance"
	Level int    // depth of the section number ("3.2.1" is 3); else the number of '#'s; else 1
}

var (
	mdHeading = lazyregexp.MustCompile(`^(#{1,6})[ \t]+(.*?)[ \t#]*$`)
	// Section number, optional final period, title: "3.2 Setup", "A.7 RAG
	// Settings", "2. Related Work", "IV. EXPERIMENTS".
	numbered   = lazyregexp.MustCompile(`^((?:\d{1,2}|[A-Z]|[IVX]{1,4})(?:\.\d{1,2}){0,4})(\.?)[ \t]+(\S.*)$`)
	appendixRe = lazyregexp.MustCompile(`^(?i:appendix|appendices)(?:[ \t]+([A-Z](?:\.\d{1,2})*)(?:[ \t]*[:.\-–—]?[ \t]+(.+))?)?:?$`)
	decimalRe  = lazyregexp.MustCompile(`\d[.,]\d`)
	romanRe    = lazyregexp.MustCompile(`^[IVX]{1,4}$`)
)

// Built once: Headings runs on every line, and building a Replacer costs
// far more than using it (it was three quarters of the time on text made of
// many short lines).
var (
	joiners  = strings.NewReplacer(" & ", ",", " and ", ",")
	emphasis = strings.NewReplacer("**", "", "__", "")
)

// namedSections are unnumbered headings papers use, lower case. A heading
// line may join several with "and", "&" or commas ("Background &
// Motivation", "Conclusion and Future Work").
var namedSections = setOf(
	"abstract", "introduction", "related work", "related works", "background",
	"preliminaries", "preliminary", "method", "methods", "methodology",
	"approach", "our approach", "proposed method", "experiments", "experiment",
	"experimental setup", "experimental settings", "experimental results",
	"results", "evaluation", "analysis", "discussion", "discussions",
	"conclusion", "conclusions", "limitations", "limitation", "future work",
	"references", "bibliography", "acknowledgments", "acknowledgements",
	"acknowledgment", "acknowledgement", "appendix", "appendices",
	"supplementary material", "ethics statement", "ethical considerations",
	"broader impact", "broader impacts", "impact statement",
	"reproducibility statement", "author contributions", "contributions",
	"motivation", "overview", "summary",
)

// titleSmallWords may stay lower case in a Title Case heading.
var titleSmallWords = setOf(
	"with", "from", "into", "onto", "over", "upon", "under", "between",
	"through", "towards", "toward", "without", "within", "using", "versus",
	"via", "about", "across", "against", "beyond", "during",
)

// Headings finds section headings: lines of their own that are either a
// markdown heading ("## 2 Method"), a numbered title ("1 Introduction",
// "3.2.1 QA Pair Generation", "A.7 RAG Settings"), an appendix title
// ("Appendix A Proofs") or a known section name ("Abstract", "References",
// "Acknowledgments", also in bold or upper case).
//
// The rules are deliberately conservative, because a false heading mislabels
// every passage up to the next one. A numbered title must start with a
// capital letter, hold at most 12 words and 100 bytes, must not end in
// ".", "," or ";", and must not contain decimals, '%', '=', '|' or tabs
// (table rows, equations, list items with numbers). Forms that also occur in
// running text need Title Case: "2. Related Work" (a list item "2. Generate
// five options" is not a heading), roman numerals, and bare appendix letters
// ("B Prompts Used"), which are moreover only accepted after a References or
// Appendix heading. Markdown headings inside ``` fences are ignored.
func Headings(text string) []Heading {
	var out []Heading
	inFence, inBack := false, false
	for lineStart := 0; lineStart < len(text); {
		lineEnd := strings.IndexByte(text[lineStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += lineStart
		}
		raw := text[lineStart:lineEnd]
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			inFence = !inFence
		} else if !inFence && line != "" && !besideTableRow(text, lineStart, lineEnd) {
			if h, ok := parseHeading(line, inBack); ok {
				lead := strings.Index(raw, line)
				h.Start = lineStart + lead
				h.End = h.Start + len(line)
				out = append(out, h)
				lower := strings.ToLower(h.Title)
				if strings.Contains(lower, "references") || strings.Contains(lower, "bibliography") ||
					strings.Contains(lower, "appendix") || strings.Contains(lower, "appendices") ||
					strings.Contains(lower, "supplementary") {
					inBack = true
				}
			}
		}
		lineStart = lineEnd + 1
	}
	return out
}

// besideTableRow reports whether the line text[start:end] sits directly
// above or below a line with a tab between two cells: table rows are
// written so, and a one-cell row among them ("Methods", a group label) is
// part of the table, not a heading. A tab that indents a paragraph does
// not count.
func besideTableRow(text string, start, end int) bool {
	if start > 0 {
		prev := text[:start-1]
		prev = prev[strings.LastIndexByte(prev, '\n')+1:]
		if strings.Contains(strings.TrimSpace(prev), "\t") {
			return true
		}
	}
	if end < len(text) {
		next := text[end+1:]
		if i := strings.IndexByte(next, '\n'); i >= 0 {
			next = next[:i]
		}
		if strings.Contains(strings.TrimSpace(next), "\t") {
			return true
		}
	}
	return false
}

// formulaLike reports a line that is mathematics, however it is marked:
// PDF text can start an equation with a '#' that a mis-mapped maths font
// drew, which reads as a markdown heading. It holds '=' or a tab, or a
// mathematical symbol or arrow other than + - | and ~.
func formulaLike(s string) bool {
	for _, r := range s {
		if r == '=' || r == '\t' || r >= 0x2190 && r <= 0x23ff ||
			unicode.Is(unicode.Sm, r) && !strings.ContainsRune("+-|~<>", r) {
			return true
		}
	}
	return false
}

// countWords are lower-case words that follow '#' used as "number":
// "# of pairs total" (the denominator of a formula in PDF text), "# samples".
var countWords = setOf("of", "the", "and", "or", "to", "in", "for", "with", "by", "on", "at", "from", "as", "is", "are", "samples", "params", "parameters", "tokens", "layers")

// countSign reports a markdown title that reads as '#' meaning "number of".
func countSign(title string) bool {
	w, _, _ := strings.Cut(title, " ")
	return countWords[w]
}

// parseHeading classifies one trimmed, non-empty line. inBack tells whether
// the back matter (references, appendices) has started, where bare letters
// number sections.
func parseHeading(line string, inBack bool) (Heading, bool) {
	if m := mdHeading.FindStringSubmatch(line); m != nil {
		title := cleanTitle(m[2])
		if title == "" || len(title) > 200 || !hasLetter(title) || formulaLike(title) || countSign(title) {
			return Heading{}, false
		}
		level := len(m[1])
		if n := numbered.FindStringSubmatch(title); n != nil {
			level = strings.Count(n[1], ".") + 1
		}
		return Heading{Title: title, Level: level}, true
	}
	if len(line) > 120 || strings.ContainsAny(line, "|\t") {
		return Heading{}, false
	}
	title := cleanTitle(line)
	if title == "" {
		return Heading{}, false
	}
	if isNamedSection(title) {
		return Heading{Title: title, Level: 1}, true
	}
	if m := appendixRe.FindStringSubmatch(title); m != nil {
		if m[2] != "" && !plausibleTitle(m[2], true) {
			return Heading{}, false
		}
		return Heading{Title: title, Level: 1}, true
	}
	m := numbered.FindStringSubmatch(title)
	if m == nil {
		return Heading{}, false
	}
	num, dot, rest := m[1], m[2], m[3]
	if num[0] == '0' {
		return Heading{}, false // "00 RWMD ...": chart or table labels
	}
	multi := strings.Contains(num, ".")
	first, _, _ := strings.Cut(num, ".")
	letter := first[0] >= 'A' && first[0] <= 'Z'
	needTitleCase := false
	switch {
	case romanRe.MatchString(num) && dot == ".":
		// "IV. Experiments" (IEEE style).
		needTitleCase = true
	case letter && !multi:
		// "B Prompts" only in the back matter, and "I Think" is not "I".
		if !inBack || len(first) != 1 {
			return Heading{}, false
		}
		needTitleCase = true
		if containsDigit(rest) {
			return Heading{}, false
		}
	case letter && len(first) != 1:
		return Heading{}, false
	case !multi && dot == ".":
		// "2. Related Work" versus the list item "2. Generate options".
		needTitleCase = true
	}
	if !plausibleTitle(rest, needTitleCase) {
		return Heading{}, false
	}
	return Heading{Title: title, Level: strings.Count(num, ".") + 1}, true
}

// plausibleTitle applies the shape tests for the text after a section number.
func plausibleTitle(rest string, needTitleCase bool) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	if !unicode.IsUpper(r) {
		return false
	}
	words := strings.Fields(rest)
	if len(words) > 12 || len(rest) > 100 {
		return false
	}
	// A lone capital other than the articles is a variable: "2 R log" is
	// a piece of an equation.
	if w := words[0]; len(w) == 1 && w != "A" && w != "I" {
		return false
	}
	if strings.ContainsAny(rest[len(rest)-1:], ".,;") || strings.ContainsAny(rest, "%=|") ||
		decimalRe.MatchString(rest) {
		return false
	}
	numericWords, longWord := 0, false
	seen := map[string]int{}
	for _, w := range words {
		// A word three times over is a table header ("RWMD RWMD WCD RWMD").
		if seen[w]++; seen[w] == 3 && len(w) > 1 {
			return false
		}
		if containsDigit(w) {
			numericWords++
		}
		if letters(w) >= 3 {
			longWord = true
		}
	}
	if numericWords >= 2 || !longWord {
		return false
	}
	return !needTitleCase || isTitleCase(words)
}

// isTitleCase reports whether every word of four letters or more, other than
// a few prepositions, starts with an upper-case letter.
func isTitleCase(words []string) bool {
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if letters(w) >= 4 && unicode.IsLower(r) && !titleSmallWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

func isNamedSection(title string) bool {
	t := strings.ToLower(strings.TrimSuffix(title, ":"))
	t = joiners.Replace(t)
	parts := strings.Split(t, ",")
	for _, p := range parts {
		if !namedSections[strings.TrimSpace(p)] {
			return false
		}
	}
	return true
}

// cleanTitle removes emphasis markers and surrounding blanks: "**6
// Contributions**" -> "6 Contributions".
func cleanTitle(s string) string {
	s = emphasis.Replace(s)
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '*' || s[0] == '_') && s[len(s)-1] == s[0] {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

func hasLetter(s string) bool { return letters(s) > 0 }

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

func containsDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}
