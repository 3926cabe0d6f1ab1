package pdftext

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/internal/lazyregexp"
)

var (
	// A caption names its float and number, then a delimiter: "Figure 3:",
	// "Table 2.", "Figure 1 |" (DeepSeek), "Fig. 4:".
	captionKindRE = lazyregexp.MustCompile(`^(?:Figure|Fig\.|Table|Tab\.|Algorithm|Listing)\s*[A-Z]?\d{1,3}(?:\.\d{1,2})?[a-z]?\s*[:.|]`)
	refHeadRE     = lazyregexp.MustCompile(`^(?i)(?:[0-9]{1,2}\.?\s+|[A-Z]\.?\s+)?(?:references|bibliography|literature cited|works cited|references and notes)$`)
	contentsRE    = lazyregexp.MustCompile(`^(?i)(?:table of )?contents$`)
	// Dot leaders ending in a page number: "1.1 Contributions . . . . 4".
	dotLeaderRE  = lazyregexp.MustCompile(`(?:\.\s?){5,}\s*(?:\d{1,4}|[ivxlc]{1,6})$`)
	figCaptionRE = lazyregexp.MustCompile(`^(?:Figure|Fig\.)\s*\d`)
	bareNumRE    = lazyregexp.MustCompile(`^(?:\d{1,4}|[ivxlc]{1,6})$`)
	// First-page furniture: venue footers, copyright and licence lines,
	// preprint stamps, author notes.
	venueRE = lazyregexp.MustCompile(`(?i)\bproceedings of\b|\bconference on\b|\bworkshop on\b|copyright|©|\blicen[cs]ed under\b|creative commons|\bCC[- ]BY\b|\barXiv:\d{4}\.\d{4,5}|\bpreprint\b|under review|published as a conference paper|association for computational linguistics|JMLR|\bPMLR\b|all rights reserved|permission to make digital|equal contribution|contributed equally|work (?:was )?done (?:during|while|at)|corresponding author|^\s*[∗*†‡]`)
	emailRE = lazyregexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\}\s?@[\w-]+\.`)
)

// writeText classifies the paragraphs, joins them into the document's
// text, one blank line apart, and returns the text with its spans:
// headings, tables and captions paragraph by paragraph; a contents page
// (dot leaders and page numbers); the references, from their heading to
// the next heading; first-page front matter (the author and affiliation
// block before the first heading, venue footers, licence lines, preprint
// stamps) but not the title; and text drawn inside figures (runs of short
// fragments, mostly numbers, and rotated labels). A run of figure text is
// written as one paragraph, so that a chart label such as "10 Number of
// Draft Tokens" does not stand on a line of its own and read as a
// numbered heading. Nothing is removed here: ingest drops what a user
// asks it to.
func writeText(paras []*para, title string) (string, []kind.Span) {
	n := len(paras)
	ts := make([]string, n)
	ks := make([]kind.Kind, n)
	for i, p := range paras {
		ts[i] = p.text
		switch {
		case p.table:
			ks[i] = kind.Table
		case captionKindRE.MatchString(ts[i]):
			ks[i] = kind.Caption
		case p.heading:
			ks[i] = kind.Heading
		}
	}
	markFigureText(paras, ts, ks)
	// Category labels under a chart line up like a table row; between the
	// chart's other labels and a figure caption they are figure text.
	for i := 1; i+1 < n; i++ {
		if ks[i] == kind.Table && ks[i-1] == kind.FigureText && ks[i+1] == kind.Caption && strings.HasPrefix(ts[i+1], "Fig") {
			ks[i] = kind.FigureText
		}
	}
	markFrontMatter(paras, ts, ks, title)
	markReferences(paras, ts, ks)
	markContents(paras, ts, ks)

	var sb strings.Builder
	var spans []kind.Span
	for i, p := range paras {
		k := ks[i]
		if i > 0 && k == kind.FigureText && ks[i-1] == kind.FigureText {
			sb.WriteByte(' ')
			sb.WriteString(ts[i])
			p.start, p.end = paras[i-1].start, sb.Len()
			spans[len(spans)-1].End = p.end
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		p.start = sb.Len()
		sb.WriteString(ts[i])
		p.end = sb.Len()
		if k == kind.Body || k == "" {
			continue
		}
		// Neighbouring paragraphs of one kind make one span, blank lines
		// included, so a references section is one stretch; headings stay
		// one each.
		if j := len(spans) - 1; j >= 0 && i > 0 && ks[i-1] == k && k != kind.Heading && spans[j].Kind == k {
			spans[j].End = p.end
			continue
		}
		spans = append(spans, kind.Span{Start: p.start, End: p.end, Kind: k})
	}
	text := sb.String()
	return text, kind.Normalize(spans, len(text))
}

// fragment reports a paragraph that is a label rather than text: a few
// words at most, not a sentence.
func fragment(p *para, t string) bool {
	if p.heading || p.table || len(t) > 60 {
		return false
	}
	ws := strings.Fields(t)
	if len(ws) > 8 || strings.HasPrefix(t, "•") {
		return false
	}
	// Pieces of a displayed equation are not figure labels.
	if formulaText(t) {
		return false
	}
	return !(len(ws) >= 3 && strings.HasSuffix(t, ".") && letterShare(t) > 0.7)
}

// formulaText reports maths: '=', an operator, arrow or Greek letter, or an
// equation number "(2)" at the end.
func formulaText(t string) bool {
	for _, r := range t {
		if r == '=' || r >= 0x370 && r <= 0x3ff || r >= 0x2190 && r <= 0x22ff && r != 0x2212 ||
			unicode.Is(unicode.Sm, r) && !strings.ContainsRune("+-|<>~", r) {
			return true
		}
	}
	f := strings.Fields(t)
	return len(f) > 1 && eqNumberRE.MatchString(f[len(f)-1])
}

func numericPara(t string) bool {
	for _, w := range strings.Fields(t) {
		if !numericCellRE.MatchString(strings.Trim(w, "()[]")) {
			return false
		}
	}
	return true
}

// markFigureText marks text drawn inside figures. Chart labels come out as
// runs of one-line paragraphs: tick values, legend entries, axis titles.
// A run of four or more such fragments of which a third are numbers, or
// of eight or more of any kind, is figure text; so is a short rotated
// paragraph (an axis title set upright).
func markFigureText(paras []*para, ts []string, ks []kind.Kind) {
	for i := titleBlockEnd(paras); i < len(paras); {
		if ks[i] != "" || !fragment(paras[i], ts[i]) {
			if paras[i].side && ks[i] == "" && len(strings.Fields(ts[i])) <= 15 {
				ks[i] = kind.FigureText
			}
			i++
			continue
		}
		j, nums := fragmentRun(paras, ts, ks, i)
		markFragmentRun(paras, ts, ks, i, j, nums)
		i = max(j, i+1)
	}
}

// titleBlockEnd returns where the search for figure text starts: after the
// title block (page 1 before the first heading), which is short lines and
// numbered affiliations too, but never a figure. With no heading at all
// nothing tells the title block, and the search starts at 0.
func titleBlockEnd(paras []*para) int {
	start := 0
	for start < len(paras) && paras[start].page <= 1 && !paras[start].heading {
		start++
	}
	if start == len(paras) {
		start = 0
	}
	return start
}

// runBreakingHeading reports a numbered heading the layout did not set
// apart ("4 Example"): it ends a run of fragments, unless it sits between
// tick values: "8", "10 Number of Draft Tokens", "12" is an axis.
func runBreakingHeading(ts []string, j int) bool {
	if !numHeadingRE.MatchString(ts[j]) || notHeadingText(ts[j]) {
		return false
	}
	return j == 0 || j+1 >= len(ts) || !numericPara(ts[j-1]) || !numericPara(ts[j+1])
}

// fragmentRun returns the end of the run of unmarked fragments (or rotated
// paragraphs) starting at i, and how many of them are numbers.
func fragmentRun(paras []*para, ts []string, ks []kind.Kind, i int) (j, nums int) {
	j = i
	for j < len(paras) && ks[j] == "" && (fragment(paras[j], ts[j]) && !runBreakingHeading(ts, j) || paras[j].side) {
		if numericPara(ts[j]) {
			nums++
		}
		j++
	}
	return j, nums
}

// nearCaption returns the caption that follows the run i..j within three
// paragraphs, or else the one before it, or -1.
func nearCaption(ks []kind.Kind, i, j int) int {
	for k := j; k < min(len(ks), j+3); k++ {
		if ks[k] == kind.Caption {
			return k
		}
	}
	for k := i - 1; k >= max(0, i-3); k-- {
		if ks[k] == kind.Caption {
			return k
		}
	}
	return -1
}

// markFragmentRun marks the run of fragments i..j, nums of them numbers.
// A run of four or more of which a third are numbers, or of eight or more,
// is a float's text when a caption or rotated text is near: short runs
// need that, since a running header, a page number and a heading split
// from its number are four fragments too. The caption says what the float
// is: the labels of a table the layout could not line up are table text,
// kept by default, not figure text. Rotated paragraphs of a run that is
// not a float are still figure text.
func markFragmentRun(paras []*para, ts []string, ks []kind.Kind, i, j, nums int) {
	run := j - i
	near := run >= 8
	for k := i; k < j; k++ {
		near = near || paras[k].side
	}
	what := kind.FigureText
	if capAt := nearCaption(ks, i, j); capAt >= 0 {
		near = true
		if !figCaptionRE.MatchString(ts[capAt]) {
			what = kind.Table
		}
	}
	for k := i; k < j; k++ {
		if near && (run >= 4 && nums*3 >= run || run >= 8) {
			ks[k] = what
		} else if paras[k].side {
			ks[k] = kind.FigureText
		}
	}
}

// markFrontMatter marks page 1's furniture. The title and the abstract are
// content and stay body text.
func markFrontMatter(paras []*para, ts []string, ks []kind.Kind, title string) {
	tsq := squash(title)
	beforeHeading := true
	for i, p := range paras {
		if p.page != 1 {
			continue // page 1's footer may be written after page 2 begins
		}
		if sq := squash(ts[i]); tsq != "" && len(sq) >= 8 && (strings.Contains(tsq, sq) || strings.Contains(sq, tsq) && len(sq) < 2*len(tsq)) {
			continue // the title
		}
		if p.heading {
			beforeHeading = false
		}
		if ks[i] != "" {
			continue
		}
		words := len(strings.Fields(ts[i]))
		if words > 40 {
			beforeHeading = false // running text has begun: the abstract
		}
		switch {
		case beforeHeading && authorBlock(ts[i]):
			ks[i] = kind.FrontMatter
		case words <= 80 && (venueRE.MatchString(ts[i]) || emailRE.MatchString(ts[i])):
			ks[i] = kind.FrontMatter
		}
	}
}

var affiliationRE = lazyregexp.MustCompile(`(?i)\b(?:universit|institut|laborator|college|school of|department|dept\.|academy|research|inc\.|corporation|ltd\b|gmbh|google|microsoft|deepmind|openai|nvidia|amazon|ibm\b|tencent|alibaba|baidu|huawei)`)

// authorBlock reports a paragraph of the title block other than the
// title: authors' names, affiliations, e-mail addresses.
func authorBlock(t string) bool {
	ws := strings.Fields(t)
	if len(ws) == 0 || len(ws) > 60 {
		return false
	}
	if emailRE.MatchString(t) || affiliationRE.MatchString(t) && len(ws) <= 40 {
		return true
	}
	// A list of names: capitalised words, no sentence.
	if len(ws) > 25 || strings.HasSuffix(t, ".") {
		return false
	}
	caps := 0
	for _, w := range ws {
		r := []rune(strings.TrimLeft(w, "*∗†‡"))
		if len(r) > 0 && (unicode.IsUpper(r[0]) || w == "and") {
			caps++
		}
	}
	return len(ws) >= 2 && caps*10 >= len(ws)*8
}

// markReferences marks the references, from their heading up to the next
// heading (an appendix), keeping captions, tables and figure text that
// float into them as they are.
func markReferences(paras []*para, ts []string, ks []kind.Kind) {
	in := false
	for i, p := range paras {
		isRef := refHeadRE.MatchString(ts[i])
		switch {
		case isRef && (p.heading || len(strings.Fields(ts[i])) <= 2):
			in = true
			ks[i] = kind.References
			continue
		case p.heading && ks[i] == kind.Heading:
			in = false
		}
		if in && (ks[i] == "" || ks[i] == kind.FrontMatter) {
			ks[i] = kind.References
		}
	}
}

// markContents marks a table of contents: a "Contents" title, entries
// with dot leaders, chapter lines set without leaders and the page numbers
// the layout set apart from their entries. Page numbers never go down, so
// a heading followed by a chart's "0" is not a chapter line. Three leaders
// make a contents page.
func markContents(paras []*para, ts []string, ks []kind.Kind) {
	leader := func(i int) bool { return dotLeaderRE.MatchString(ts[i]) }
	chapter := func(i int) bool { // "2 Approach", then its page or entries
		if i+1 >= len(ts) || !bareNumRE.MatchString(ts[i+1]) && !leader(i+1) {
			return false
		}
		ws := strings.Fields(ts[i])
		if len(ws) == 0 || len(ws) > 14 || strings.HasSuffix(ts[i], ".") || bareNumRE.MatchString(ts[i]) {
			return false
		}
		r := []rune(ws[0])[0]
		return unicode.IsDigit(r) || unicode.IsUpper(r)
	}
	for i := 0; i < len(paras); {
		if !leader(i) {
			i++
			continue
		}
		lo := i
		for k := i - 1; k >= 0 && k >= i-6; k-- {
			if contentsRE.MatchString(ts[k]) {
				lo = k
				break
			}
		}
		hi, leaders, page := lo, 0, 0
		if hi < i {
			hi++ // the title
		}
		for hi < len(paras) {
			switch {
			case leader(hi):
				leaders += len(leaderCountRE.FindAllStringIndex(ts[hi], -1))
				page = max(page, pageNum(ts[hi]))
			case bareNumRE.MatchString(ts[hi]) && hi > lo && pageNum(ts[hi]) >= page-1 && pageNum(ts[hi]) > 0:
				page = max(page, pageNum(ts[hi]))
			case chapter(hi):
			default:
				goto done
			}
			hi++
		}
	done:
		for hi > i && !leader(hi-1) && !bareNumRE.MatchString(ts[hi-1]) {
			hi-- // a chapter line must be followed by its page or entries
		}
		if leaders >= 3 {
			for k := lo; k < hi; k++ {
				ks[k] = kind.Contents
			}
		}
		i = max(hi, i+1)
	}
}

var leaderCountRE = lazyregexp.MustCompile(`(?:\.\s?){5,}\s*(?:\d{1,4}|[ivxlc]{1,6})\b`)

// pageNum reads the page number at the end of a contents entry; roman
// numerals count as 0.
func pageNum(t string) int {
	f := strings.Fields(t)
	if len(f) == 0 {
		return 0
	}
	n, err := strconv.Atoi(f[len(f)-1])
	if err != nil {
		return 0
	}
	return n
}
