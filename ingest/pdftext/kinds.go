package pdftext

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/third_party/lazyregexp"
)

var (
	// A caption names its float and number, then a delimiter: "Figure 3:",
	// "Table 2.", "Figure 1 |" (DeepSeek), "Fig. 4:".
	captionKindRE = lazyregexp.MustCompile(`^(?:Figure|Fig\.|Table|Tab\.|Algorithm|Listing)\s*[A-Z]?\d{1,3}(?:\.\d{1,2})?[a-z]?\s*[:.|]`)
	refHeadRE     = lazyregexp.MustCompile(`^(?i)(?:[0-9]{1,2}\.?\s+|[A-Z]\.?\s+)?(?:references|bibliography|literature cited|works cited|references and notes)$`)
	contentsRE    = lazyregexp.MustCompile(`^(?i)(?:table of )?contents$`)
	// Dot leaders ending in a page number: "1.1 Contributions . . . . 4".
	dotLeaderRE = lazyregexp.MustCompile(`(?:\.\s?){5,}\s*(?:\d{1,4}|[ivxlc]{1,6})$`)
	bareNumRE   = lazyregexp.MustCompile(`^(?:\d{1,4}|[ivxlc]{1,6})$`)
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
	return !(len(ws) >= 3 && strings.HasSuffix(t, ".") && letterShare(t) > 0.7)
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
	for i := 0; i < len(paras); {
		if ks[i] != "" || !fragment(paras[i], ts[i]) {
			if paras[i].side && ks[i] == "" && len(strings.Fields(ts[i])) <= 15 {
				ks[i] = kind.FigureText
			}
			i++
			continue
		}
		j, nums := i, 0
		for j < len(paras) && ks[j] == "" && (fragment(paras[j], ts[j]) || paras[j].side) {
			if numericPara(ts[j]) {
				nums++
			}
			j++
		}
		run := j - i
		for k := i; k < j; k++ {
			if run >= 4 && nums*3 >= run || run >= 8 || paras[k].side {
				ks[k] = kind.FigureText
			}
		}
		i = max(j, i+1)
	}
}

// markFrontMatter marks page 1's furniture. The title and the abstract are
// content and stay body text.
func markFrontMatter(paras []*para, ts []string, ks []kind.Kind, title string) {
	tsq := squash(title)
	beforeHeading := true
	for i, p := range paras {
		if p.page != 1 {
			break
		}
		if p.heading {
			beforeHeading = false
		}
		if ks[i] != "" {
			continue
		}
		words := len(strings.Fields(ts[i]))
		if sq := squash(ts[i]); tsq != "" && len(sq) >= 8 && (strings.Contains(tsq, sq) || strings.Contains(sq, tsq) && len(sq) < 2*len(tsq)) {
			continue
		}
		switch {
		case beforeHeading && words <= 60:
			ks[i] = kind.FrontMatter
		case words <= 80 && (venueRE.MatchString(ts[i]) || emailRE.MatchString(ts[i])):
			ks[i] = kind.FrontMatter
		}
	}
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

// markContents marks a table of contents: a run of entries with dot
// leaders, chapter lines set without leaders followed by their page
// number, and the "Contents" title before them. Three leader lines make a
// run.
func markContents(paras []*para, ts []string, ks []kind.Kind) {
	leader := func(i int) bool { return dotLeaderRE.MatchString(ts[i]) }
	chapter := func(i int) bool { // "2 Approach" then "5"
		if i+1 >= len(ts) || !bareNumRE.MatchString(ts[i+1]) {
			return false
		}
		ws := strings.Fields(ts[i])
		if len(ws) == 0 || len(ws) > 14 || strings.HasSuffix(ts[i], ".") {
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
		for {
			switch {
			case lo > 0 && leader(lo-1):
				lo--
				continue
			case lo > 1 && bareNumRE.MatchString(ts[lo-1]) && chapter(lo-2):
				lo -= 2
				continue
			}
			break
		}
		if lo > 0 && contentsRE.MatchString(ts[lo-1]) {
			lo--
		}
		// Page numbers never go down: a heading followed by a chart's
		// "0" is not a chapter line.
		hi, leaders, page := i, 0, 0
		for hi < len(paras) {
			switch {
			case leader(hi):
				leaders++
				page = max(page, pageNum(ts[hi]))
				hi++
				continue
			case chapter(hi) && pageNum(ts[hi+1]) >= page:
				page = pageNum(ts[hi+1])
				hi += 2
				continue
			}
			break
		}
		if leaders >= 3 {
			for k := lo; k < hi; k++ {
				ks[k] = kind.Contents
			}
		}
		i = max(hi, i+1)
	}
}

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
