package ingest

import (
	"bytes"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Errors for plain-text sources, in the words the CLI prints.
var (
	ErrEmpty   = errors.New("empty file")
	ErrNotText = errors.New("not a text file (binary content)")
)

// cleanPlain turns a .txt or .md file into paragraphs separated by blank
// lines, the shape every extractor hands to the chunker.
//
// Files with blank lines between paragraphs keep them, their hard-wrapped
// lines joined by spaces. Files without blank lines (one paragraph a line, as
// rendered papers often are) get one paragraph per line, so that headings on
// their own line stay headings.
func cleanPlain(b []byte) (string, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return "", ErrEmpty
	}
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) && invalidShare(b) > 0.01 {
		return "", ErrNotText
	}
	s := norm.NFKC.String(strings.ToValidUTF8(string(b), "\uFFFD"))
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(stripControl(l), unicode.IsSpace)
	}
	blank, nonBlank := 0, 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			blank++
		} else {
			nonBlank++
		}
	}
	var paras []string
	if blank*8 >= nonBlank {
		var cur []string
		flush := func() {
			if len(cur) > 0 {
				paras = append(paras, strings.Join(cur, " "))
				cur = nil
			}
		}
		for _, l := range lines {
			if t := strings.TrimSpace(l); t == "" {
				flush()
			} else if strings.HasPrefix(t, "#") {
				// A markdown heading is its own paragraph even without blank lines around it.
				flush()
				paras = append(paras, collapseSpace(t))
			} else {
				cur = append(cur, collapseSpace(t))
			}
		}
		flush()
	} else {
		for _, l := range lines {
			if t := strings.TrimSpace(l); t != "" {
				paras = append(paras, collapseSpace(t))
			}
		}
	}
	out := strings.Join(paras, "\n\n")
	if strings.TrimSpace(out) == "" {
		return "", ErrEmpty
	}
	return out, nil
}

func invalidShare(b []byte) float64 {
	bad, total := 0, len(b)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			bad++
		}
		b = b[n:]
	}
	return float64(bad) / float64(total+1)
}

func stripControl(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) || r == '\uFEFF' {
			return -1
		}
		return r
	}, s)
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
