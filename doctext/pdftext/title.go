package pdftext

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

var junkTitleRE = lazyregexp.MustCompile(`(?i)^(microsoft (word|powerpoint)|untitled|title|document\d*|paper|main|draft)\b|\.(pdf|docx?|tex|dvi|ps|rtf|indd)$|^[\w.-]*_[\w.-]*$|^\W*$`)

// chooseTitle prefers the /Title metadata when it looks like a real title.
// When page 1 shows the same title, page 1 wins because metadata is often
// typed without spaces ("Neural Image CaptionGeneration").
func chooseTitle(meta string, page1 []*line) string {
	meta = strings.Join(strings.Fields(foldCompat(meta)), " ")
	fromPage := pageTitle(page1)
	if !plausibleTitle(meta) {
		return fromPage
	}
	if fromPage != "" && squash(fromPage) == squash(meta) {
		return fromPage
	}
	return meta
}

func plausibleTitle(t string) bool {
	if t == "" || junkTitleRE.MatchString(t) {
		return false
	}
	words := strings.Fields(t)
	if len(words) < 2 {
		return false
	}
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 6
}

func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pageTitle takes the lines set in the largest type near the top of page 1
// (within 350 pt, about half a page, of its first line), adjacent to each
// other, as the title.
func pageTitle(lines []*line) string {
	var cands []*line
	for _, l := range lines {
		if len(strings.TrimSpace(l.text)) < 2 || !hasLetters(l.text, 3) {
			continue
		}
		cands = append(cands, l)
	}
	if len(cands) == 0 {
		return ""
	}
	// The title sits in the upper part of the page, in the largest type.
	top := math.Inf(-1)
	for _, l := range cands {
		top = math.Max(top, l.y)
	}
	maxSize := 0.0
	for _, l := range cands {
		if l.y >= top-350 && l.size > maxSize {
			maxSize = l.size
		}
	}
	var picked []*line
	for _, l := range cands {
		if math.Abs(l.size-maxSize) < 0.6 && l.y >= top-350 {
			picked = append(picked, l)
		}
	}
	if len(picked) == 0 {
		return ""
	}
	// Keep the first run of vertically adjacent lines.
	sortLinesTopDown(picked)
	run := []*line{picked[0]}
	for _, l := range picked[1:] {
		prev := run[len(run)-1]
		if prev.y-l.y > 2.2*maxSize {
			break
		}
		run = append(run, l)
	}
	parts := make([]string, len(run))
	for i, l := range run {
		parts[i] = l.text
	}
	t := joinLines(parts, nil)
	return strings.Join(strings.Fields(foldCompat(t)), " ")
}

func hasLetters(s string, n int) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			n--
			if n <= 0 {
				return true
			}
		}
	}
	return false
}

func sortLinesTopDown(ls []*line) {
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].y != ls[j].y {
			return ls[i].y > ls[j].y
		}
		return ls[i].x0 < ls[j].x0
	})
}
