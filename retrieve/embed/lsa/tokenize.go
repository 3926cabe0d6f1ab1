package lsa

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Stemming selects how words are conflated before counting.
type Stemming int

const (
	// StemDefault resolves to the variant chosen on the seed-paper
	// evaluation (see the package documentation).
	StemDefault Stemming = iota
	// StemNone keeps lowercased words as they are.
	StemNone
	// StemPlural removes English plural endings only (an S-stemmer).
	StemPlural
	// StemLight also removes -ing, -ed, -ly and a final -e, so that
	// "evaluate", "evaluates", "evaluated" and "evaluating" meet.
	StemLight
)

func (s Stemming) String() string {
	switch s {
	case StemDefault:
		return "default"
	case StemNone:
		return "none"
	case StemPlural:
		return "plural"
	case StemLight:
		return "light"
	}
	return "unknown"
}

// maxTokenBytes drops longer runs, which in extracted papers are URLs, hashes,
// base64 blobs and words glued together by broken extraction: they never
// recur, so they would only grow the vocabulary.
const maxTokenBytes = 32

// stopWords are function words that occur in nearly every passage. idf would
// weigh them down anyway; removing them keeps them out of the vocabulary cap
// and out of the SVD's leading directions. Kept deliberately small: words
// like "model" or "not" carry meaning in papers.
var stopWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`
		a about above after again against all also am an and any are as at
		be because been before being below between both but by can could did
		do does doing down during each either et etc few for from further had
		has have having he her here hers herself him himself his how however
		i if in into is it its itself just me more most my myself of
		off on once only or other our ours ourselves out over own same she
		should so some such than that the their theirs them themselves then
		there these they this those through thus to too under until up upon
		very via was we were what when where which while who whom why will
		with would yet you your yours yourself yourselves al ie eg`) {
		m[w] = struct{}{}
	}
	return m
}()

// tokenize appends the terms of text to dst: maximal runs of letters and
// digits, lowercased, without stop words, one-character tokens and overlong
// runs, then stemmed. Han characters are terms on their own because Chinese
// is written without spaces and a whole clause would otherwise be one term.
func tokenize(dst []string, text string, stem Stemming) []string {
	var buf [maxTokenBytes + utf8.UTFMax]byte
	w := buf[:0]
	runes, long := 0, false
	flush := func() {
		if len(w) == 0 && !long {
			return
		}
		tok, n, drop := w, runes, long
		w, runes, long = buf[:0], 0, false
		if drop || n < 2 {
			return
		}
		// string(tok) in a map index does not allocate.
		if _, stop := stopWords[string(tok)]; stop {
			return
		}
		t := stemWord(string(tok), stem)
		if _, stop := stopWords[t]; stop || len(t) < 2 {
			return
		}
		dst = append(dst, t)
	}
	for i := 0; i < len(text); {
		c := text[i]
		// ASCII fast path: papers are mostly ASCII, and decoding every
		// byte as a rune was half of the fit's tokenizing time.
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				w = append(w, c)
				runes++
			case 'A' <= c && c <= 'Z':
				w = append(w, c+'a'-'A')
				runes++
			default:
				flush()
			}
			if len(w) > maxTokenBytes {
				long, w = true, w[:0]
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case unicode.Is(unicode.Han, r):
			flush()
			dst = append(dst, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w = utf8.AppendRune(w, unicode.ToLower(r))
			runes++
		default:
			flush()
		}
		if len(w) > maxTokenBytes {
			// An overlong run is dropped; stop collecting it.
			long, w = true, w[:0]
		}
	}
	flush()
	return dst
}

func stemWord(w string, s Stemming) string {
	switch s {
	case StemPlural:
		return stemPlural(w)
	case StemLight:
		return stemLight(w)
	}
	return w
}

func isASCIILower(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// stemPlural is Harman's S-stemmer with the -sses and sibilant -es cases
// added, so that "processes" meets "process" and "boxes" meets "box".
func stemPlural(w string) string {
	if !isASCIILower(w) || len(w) < 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && !strings.HasSuffix(w, "eies") && !strings.HasSuffix(w, "aies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// stemLight conflates the inflections that most often separate a question
// from its evidence ("evaluated" / "evaluation" do not meet; "evaluated" /
// "evaluating" / "evaluate" do). It is not Porter: it never maps two common
// words onto one stem that Porter keeps apart, at the price of conflating
// less; a stemmer that is wrong in a visible way hurts more than one that is
// merely incomplete.
func stemLight(w string) string {
	w = stemPlural(w)
	if !isASCIILower(w) {
		return w
	}
	switch {
	case len(w) >= 6 && strings.HasSuffix(w, "ing") && hasVowel(w[:len(w)-3]):
		w = undouble(w[:len(w)-3])
	case len(w) >= 5 && strings.HasSuffix(w, "ied"):
		w = w[:len(w)-3] + "y"
	case len(w) >= 5 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && hasVowel(w[:len(w)-2]):
		w = undouble(w[:len(w)-2])
	case len(w) >= 6 && strings.HasSuffix(w, "ly"):
		w = w[:len(w)-2]
	}
	if len(w) >= 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func hasVowel(s string) bool { return strings.ContainsAny(s, "aeiouy") }

// undouble maps "runn" to "run" and "embedd" to "embed", keeping the double
// letters English keeps in the base form (call, pass, buzz).
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}
