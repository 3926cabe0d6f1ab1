package pdftext

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// cellGap: inside a table row, words further apart than this (in em) are
// in different cells. Justified inter-word spaces stay below 0.6 em; the
// cells of a row are set at least a quad apart.
const cellGap = 1.0

// rowPiece is the part of one table row drawn by one line: its cells, left
// to right.
type rowPiece struct {
	l     *line
	cells []cell
}

type cell struct {
	x0, x1 float64
	text   string
}

// splitCells cuts a line into cells at wide gaps between its words: wider
// than cellGap, or than half an em in a line mostly of numbers, where a
// compact table sets its columns closer than a justified line its words.
func splitCells(l *line) []cell {
	gapEm := cellGap
	nums := 0
	for _, w := range l.words {
		if numericCellRE.MatchString(w.text) {
			nums++
		}
	}
	if len(l.words) >= 3 && nums*2 >= len(l.words) {
		gapEm = 0.5
	}
	var out []cell
	var cur cell
	var sb strings.Builder
	for i, w := range l.words {
		if i > 0 {
			prev := l.words[i-1]
			gap := w.x0 - prev.x1
			sz := math.Max(w.size, prev.size)
			if gap > gapEm*sz {
				cur.text = sb.String()
				out = append(out, cur)
				sb.Reset()
				cur = cell{x0: w.x0}
			} else if gap > wordGap*sz {
				sb.WriteByte(' ')
			}
		} else {
			cur.x0 = w.x0
		}
		sb.WriteString(w.text)
		cur.x1 = w.x1
	}
	cur.text = sb.String()
	return append(out, cur)
}

// eqNumberRE (an equation number such as "(12)") is in fragments.go.
var numericCellRE = lazyregexp.MustCompile(`^[-+±~<>]?[$€£]?\d[\d.,]*\s*[%×x]?(?:\s*[±]\s*\d[\d.,]*)?[*†‡]?$|^[-–—✓✗✔✘]$`)

// findTables finds tables on a page and replaces the lines of their cells
// with one block whose lines are the table's rows, cells separated by tabs;
// the new block is recorded in tables. A table is three or more rows close
// together, each cut into two or more cells by wide gaps, their cells
// lining up in columns, with the short lines between them (group labels
// such as "Prompting using GPT-4") taken along. Without this the cells come
// out as a scatter of one-line paragraphs, or are read into the sentence
// that runs past the table.
//
// The stages: cut every line into cells (tablePieces), gather the pieces
// of one baseline into rows (baselineRows), mark the rows that can start a
// table (markSeeds), then grow each seed into a table (growTable) and keep
// it when its columns line up (isTable).
func findTables(pg *pageLayout, body float64, tables map[*block]bool) {
	es := tablePieces(pg)
	if len(es) < 3 {
		return
	}
	prose := proseBlocks(es)
	rows := baselineRows(es, pg.width, func(e tablePiece) bool { return neverInTable(e, prose, body) })
	markSeeds(rows)
	used := make([]bool, len(rows))
	for i, r := range rows {
		if !r.seed || used[i] {
			continue
		}
		group := growTable(rows, used, i)
		gr := rowsOf(rows, group)
		if !isTable(gr) {
			continue
		}
		for _, k := range group {
			used[k] = true
		}
		makeTable(pg, gr, tables)
	}
}

// tablePiece is one line cut into cells, with the block it came from.
type tablePiece struct {
	piece rowPiece
	b     *block
}

// tablePieces cuts every line of the page's main-direction blocks into
// cells, in block order. Furniture and blank lines are left out: they are
// never table rows.
func tablePieces(pg *pageLayout) []tablePiece {
	var es []tablePiece
	for _, b := range pg.blocks {
		if b.side {
			continue
		}
		for _, l := range b.lines {
			if l.drop || strings.TrimSpace(l.text) == "" {
				continue
			}
			es = append(es, tablePiece{rowPiece{l, splitCells(l)}, b})
		}
	}
	return es
}

// proseLine reports a line of running text: many words, mostly letters,
// or (a line of one cell) as wide as a paragraph's line.
func proseLine(p rowPiece) bool {
	if len(p.cells) > 1 {
		return len(strings.Fields(p.l.text)) >= 10 && letterShare(p.l.text) > 0.75
	}
	return (p.l.x1-p.l.x0 > 14*p.l.size || len(strings.Fields(p.l.text)) >= 8) && letterShare(p.l.text) > 0.6
}

// proseBlocks marks the blocks made mostly of running text (a paragraph,
// a reference list): they hold no table, since their short lines are
// paragraph ends and their lines with stretched spaces are justified. es
// must hold each block's pieces together, as tablePieces returns them.
func proseBlocks(es []tablePiece) map[*block]bool {
	proseBlock := map[*block]bool{}
	for i := 0; i < len(es); {
		b, n, prose := es[i].b, 0, 0
		for ; i < len(es) && es[i].b == b; i++ {
			n++
			if proseLine(es[i].piece) {
				prose++
			}
		}
		proseBlock[b] = prose >= 3 && prose*2 >= n
	}
	return proseBlock
}

// neverInTable reports a piece that breaks a row rather than joining one:
// running text, a caption, or a numbered heading.
func neverInTable(e tablePiece, proseBlock map[*block]bool, body float64) bool {
	p := e.piece
	if proseBlock[e.b] {
		return true
	}
	// A wide row name in a captioned table ("Google NIC(Vinyals et
	// al., 2014)", "CMU/MS Research (Chen & Zitnick, 2014)") is as
	// wide as a paragraph's last line, but has no lower-case words.
	if proseLine(p) && !(e.b.caption != nil && len(p.cells) == 1 && lowerWords(p.l.text) < 2) {
		return true
	}
	t := strings.TrimSpace(p.l.text)
	return captionRE.MatchString(t) || numHeadingRE.MatchString(t) && isHeading(p.l, 1, body) // never part of a table
}

// baselineRows gathers pieces on one baseline, not separated by running
// text (isProse), into rows, top down and left to right. Lines are sorted
// top down and cut into baselines first: a comparator with a tolerance
// would not be a strict order. es is reordered.
func baselineRows(es []tablePiece, pageWidth float64, isProse func(tablePiece) bool) []*tableRow {
	sort.SliceStable(es, func(i, j int) bool { return es[i].piece.l.y > es[j].piece.l.y })
	var rows []*tableRow
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j-1].piece.l.y-es[j].piece.l.y <= 0.3*math.Min(es[j-1].piece.l.size, es[j].piece.l.size) {
			j++
		}
		band := es[i:j]
		sort.SliceStable(band, func(a, b int) bool { return band[a].piece.l.x0 < band[b].piece.l.x0 })
		var cur *tableRow
		for _, e := range band {
			l := e.piece.l
			if isProse(e) {
				cur = nil
				continue
			}
			if cur != nil && rowContinues(cur, e, pageWidth) {
				cur.pieces = append(cur.pieces, e.piece)
				cur.blocks = append(cur.blocks, e.b)
				cur.x1 = math.Max(cur.x1, l.x1)
				cur.cells += len(e.piece.cells)
				continue
			}
			cur = &tableRow{pieces: []rowPiece{e.piece}, blocks: []*block{e.b}, x0: l.x0, x1: l.x1, y: l.y, size: l.size, cells: len(e.piece.cells)}
			rows = append(rows, cur)
		}
		i = j
	}
	return rows
}

// rowContinues reports whether piece e, to the right of row cur on its
// baseline, belongs to the same row. A wide gap is still inside the row
// unless it holds the middle of the page, where a column gutter would be.
// Pieces in the float region of one table caption set across the middle
// are one table however wide its middle gap (show-attend-tell's Table 1,
// whose model names end an inch left of the scores).
func rowContinues(cur *tableRow, e tablePiece, pageWidth float64) bool {
	l := e.piece.l
	mid := pageWidth / 2
	c := cur.blocks[len(cur.blocks)-1].caption
	wide := c != nil && c == e.b.caption && c.x0 < mid && c.x1 > mid &&
		strings.HasPrefix(strings.TrimSpace(c.lines[0].text), "Table")
	return l.x0-cur.x1 < 5*l.size || l.x0-cur.x1 < 14*l.size && (wide || !(cur.x1 < mid && l.x0 > mid))
}

// markSeeds marks the rows that can start a table: two or more cells, and
// not an equation (numbered at the margin, or with '=' or big operators)
// nor a justified line of running text.
func markSeeds(rows []*tableRow) {
	for _, r := range rows {
		r.seed = r.cells >= 2 && !equationRow(r.pieces[len(r.pieces)-1]) && !justified(r)
		for _, p := range r.pieces {
			if strings.ContainsAny(p.l.text, "=∑∏∫") {
				r.seed = false
			}
		}
	}
}

// growTable returns the candidate table grown from seed row i, as indexes
// into rows, top down: the rows below it, the column headers above it,
// less trailing rows without cells, plus the rows skipped inside it when
// that keeps it a table. Rows in used already belong to a table.
func growTable(rows []*tableRow, used []bool, i int) []int {
	group, x0, x1 := growDown(rows, used, i)
	group = takeHeaders(rows, used, group, x0, x1)
	// Trailing non-seed rows belong to what follows.
	for len(group) > 0 && !rows[group[len(group)-1]].seed {
		group = group[:len(group)-1]
	}
	return takeSkipped(rows, used, group)
}

// growDown grows a table from seed row i downwards: the next row must be
// close below and overlap the table horizontally. It returns the rows'
// indexes and the table's horizontal extent (of its seed rows).
func growDown(rows []*tableRow, used []bool, i int) (group []int, x0, x1 float64) {
	r := rows[i]
	group = []int{i}
	x0, x1, lastY := r.x0, r.x1, r.y
	for j := i + 1; j < len(rows); j++ {
		// Rows run top down: once one is too far below, all are.
		n := rows[j]
		if lastY-n.y > 2.6*math.Max(n.size, r.size) {
			break
		}
		if used[j] || n.x1 < x0 || n.x0 > x1 {
			continue // another column
		}
		if !n.seed && (n.x1-n.x0 > 0.9*(x1-x0) && len(group) < 2) {
			break
		}
		group = append(group, j)
		lastY = n.y
		if n.seed {
			x0, x1 = math.Min(x0, n.x0), math.Max(x1, n.x1)
		}
	}
	return group, x0, x1
}

// takeHeaders prepends the column headers set on several lines above the
// group's first row: up to six rows without cells, inside the table's
// extent x0..x1, each close above the one below, none ending a sentence.
func takeHeaders(rows []*tableRow, used []bool, group []int, x0, x1 float64) []int {
	i := group[0]
	for k := i - 1; k >= 0 && i-k <= 6; k-- {
		n, first := rows[k], rows[group[0]]
		if used[k] || n.seed || n.x0 < x0-n.size || n.x1 > x1+n.size || n.y-first.y > 2.2*n.size ||
			strings.HasSuffix(strings.TrimSpace(n.pieces[len(n.pieces)-1].l.text), ".") {
			break
		}
		group = append([]int{k}, group...)
	}
	return group
}

// takeSkipped adds the rows skipped while the table was still narrow (a
// row-label header centred on two header lines, "Methods"; a dataset name
// set between two rows) that lie inside it, unless taking them along
// leaves too few rows of cells for a table (row names broken over two
// lines).
func takeSkipped(rows []*tableRow, used []bool, group []int) []int {
	if len(group) <= 1 {
		return group
	}
	in := map[int]bool{}
	gx0, gx1 := math.Inf(1), math.Inf(-1)
	for _, k := range group {
		in[k] = true
		gx0, gx1 = math.Min(gx0, rows[k].x0), math.Max(gx1, rows[k].x1)
	}
	wider := append([]int(nil), group...)
	for k := group[0] + 1; k < group[len(group)-1]; k++ {
		if n := rows[k]; !in[k] && !used[k] && n.x0 >= gx0-n.size && n.x1 <= gx1+n.size {
			wider = append(wider, k)
		}
	}
	sort.Ints(wider)
	if len(wider) == len(group) || isTable(rowsOf(rows, wider)) {
		return wider
	}
	return group
}

// rowsOf returns the rows at the indexes in group.
func rowsOf(rows []*tableRow, group []int) []*tableRow {
	var gr []*tableRow
	for _, k := range group {
		gr = append(gr, rows[k])
	}
	return gr
}

// justified reports a line of running text whose spaces were stretched
// past cellGap: its pieces end in a hyphen; or it is words, four or more,
// one of its cells ending a sentence ("2023.  Emergent linear
// representations", a reference in a narrow column); or three or more
// cells of words sit at equal gaps.
func justified(r *tableRow) bool {
	last := r.pieces[len(r.pieces)-1]
	if strings.HasSuffix(strings.TrimSpace(last.l.text), "-") {
		return true
	}
	var all []string
	stop := false
	for _, p := range r.pieces {
		all = append(all, p.l.text)
		for _, c := range p.cells[:len(p.cells)-1] {
			stop = stop || strings.HasSuffix(c.text, ".")
		}
	}
	if len(r.pieces) > 1 {
		for _, p := range r.pieces[:len(r.pieces)-1] {
			stop = stop || strings.HasSuffix(p.cells[len(p.cells)-1].text, ".")
		}
	}
	if t := strings.Join(all, " "); stop && len(strings.Fields(t)) >= 4 && letterShare(t) > 0.7 {
		return true
	}
	for _, p := range r.pieces {
		if len(p.cells) < 3 || letterShare(p.l.text) < 0.6 {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 1; i < len(p.cells); i++ {
			g := p.cells[i].x0 - p.cells[i-1].x1
			lo, hi = math.Min(lo, g), math.Max(hi, g)
		}
		if hi-lo < 0.15*p.l.size {
			return true
		}
	}
	return false
}

// mathRow reports a row holding an equation's symbols: '=', Greek letters,
// arrows and operators, other than those tables use (↑ ↓ − ∼ ≈ ≤ ≥ ∓, and
// ∗ ⋆ as footnote marks).
func mathRow(r *tableRow) bool {
	for _, p := range r.pieces {
		for _, c := range withoutMarks(p.l.text) {
			switch {
			case c == '=' || c >= 0x370 && c <= 0x3ff:
				return true
			case c >= 0x2190 && c <= 0x23ff:
				switch c {
				case 0x2191, 0x2193, 0x2212, 0x2213, 0x2217, 0x223c, 0x2248, 0x2264, 0x2265, 0x22c6:
				default:
					return true
				}
			}
		}
	}
	return false
}

// withoutMarks drops the marks a table sets after a row name or a score,
// as footnotes do ("Google NIC†∘Σ", "2014)†Σ", "17.31∘"): symbols after
// a word of two or more letters or a number, up to the next blank.
func withoutMarks(t string) string {
	var sb strings.Builder
	for _, w := range strings.Fields(t) {
		end := strings.LastIndexFunc(w, func(c rune) bool {
			return c < 0x80 && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == ')')
		})
		if end >= 0 {
			head := w[:end+1]
			if strings.IndexFunc(head, unicode.IsDigit) >= 0 || strings.Count(strings.Map(func(c rune) rune {
				if c < 0x80 && unicode.IsLetter(c) {
					return 'a'
				}
				return -1
			}, head), "a") >= 2 {
				w = head
			}
		}
		sb.WriteString(w)
		sb.WriteByte(' ')
	}
	return sb.String()
}

// tableRow is one baseline's pieces inside a table candidate.
type tableRow struct {
	pieces []rowPiece
	blocks []*block // the block each piece came from
	x0, x1 float64
	y      float64
	size   float64
	cells  int
	seed   bool // two or more cells, not an equation
}

// equationRow reports a display equation with its number at the margin:
// "L(θ) = E[...]   (3)".
func equationRow(last rowPiece) bool {
	return eqNumberRE.MatchString(strings.TrimSpace(last.cells[len(last.cells)-1].text))
}

// isTable decides whether rows found close together are a table: at least
// three rows of several cells, most of the rows, and columns that line up
// (two or more cell edges shared by most of those rows), which scattered
// chart labels and equations do not have.
func isTable(rs []*tableRow) bool {
	edges := seedEdges(rs)
	seeds := len(edges)
	if seeds < 3 || seeds*2 < len(rs) {
		return false
	}
	if !tableLikeText(rs) {
		return false
	}
	return innerColumnEdges(rs, edges) >= 2
}

// seedEdges returns, per seed row, the left and right edges of its cells.
func seedEdges(rs []*tableRow) [][2][]float64 {
	var edges [][2][]float64 // per seed row: left edges, right edges
	for _, r := range rs {
		if !r.seed {
			continue
		}
		var l, rt []float64
		for _, p := range r.pieces {
			for _, c := range p.cells {
				l = append(l, c.x0)
				rt = append(rt, c.x1)
			}
		}
		edges = append(edges, [2][]float64{l, rt})
	}
	return edges
}

// tableLikeText rules out what else sets text in rows of cells: a contents
// page, a displayed equation cut into pieces, and a chart's axis labels.
func tableLikeText(rs []*tableRow) bool {
	// A contents page's leaders end in page numbers at the margin.
	for _, r := range rs {
		for _, p := range r.pieces {
			if strings.Contains(p.l.text, ". . .") || strings.Contains(p.l.text, ".....") {
				return false
			}
		}
	}
	// Displayed equations cut into pieces look like rows of cells.
	maths := 0
	for _, r := range rs {
		if mathRow(r) {
			maths++
		}
	}
	if maths*10 >= len(rs)*2 {
		return false
	}
	// A table has labels, a header or row names; a chart's axis has
	// evenly stepped tick values.
	labelled := 0
	for _, r := range rs {
		for _, p := range r.pieces {
			if labelText(p.l.text) {
				labelled++
				break
			}
		}
	}
	if labelled < 1 {
		return false
	}
	for _, r := range rs {
		if tickRow(r) {
			return false
		}
	}
	return true
}

// innerColumnEdges counts the column edges the seed rows share inside the
// table. Candidate column edges come from every seed row; an edge counts
// when 60% of the seed rows have a cell edge within half an em of it.
func innerColumnEdges(rs []*tableRow, edges [][2][]float64) int {
	seeds := len(edges)
	tx0, tx1 := math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		tx0, tx1 = math.Min(tx0, r.x0), math.Max(tx1, r.x1)
	}
	tol := 0.5 * rs[0].size
	shared := 0
	for side := 0; side < 2; side++ {
		var cands []float64
		for _, e := range edges {
			cands = append(cands, e[side]...)
		}
		sort.Float64s(cands)
		// Candidates half an em apart at least: a few hundred across a
		// page, however many cells the rows hold.
		last := math.Inf(-1)
		for _, x := range cands {
			if x-last < tol {
				continue
			}
			last = x
			n := 0
			for _, e := range edges {
				for _, y := range e[side] {
					if math.Abs(y-x) < tol {
						n++
						break
					}
				}
			}
			if n*10 >= seeds*6 {
				// The table's outer edges are shared by any block of
				// text; only inner column edges tell a table.
				if math.Abs(x-tx0) > tol && math.Abs(x-tx1) > tol {
					shared++
				}
			}
		}
	}
	return shared
}

// makeTable takes the rows' lines out of their blocks and puts one table
// block where the first of those blocks was in reading order. Blocks left
// empty are removed.
func makeTable(pg *pageLayout, rs []*tableRow, tables map[*block]bool) {
	taken := map[*line]bool{}
	touched := map[*block]bool{}
	tb := &block{}
	for _, r := range rs {
		var cells []string
		for i, p := range r.pieces {
			taken[p.l] = true
			touched[r.blocks[i]] = true
			for _, c := range p.cells {
				cells = append(cells, c.text)
			}
		}
		row := &line{x0: r.x0, x1: r.x1, y: r.y, size: r.size, text: strings.Join(cells, "\t")}
		tb.add(row)
	}
	tb.size = dominantSize(tb.lines)
	var out []*block
	placed := false
	for _, b := range pg.blocks {
		if !touched[b] {
			out = append(out, b)
			continue
		}
		if !placed {
			out = append(out, tb)
			placed = true
		}
		kept := b.lines[:0:0]
		for _, l := range b.lines {
			if !taken[l] {
				kept = append(kept, l)
			}
		}
		if len(kept) > 0 {
			// What is left keeps the block's marks: a float's
			// leftover line (a row name the rows missed) is still
			// held back, not read into the sentence running past.
			nb := &block{side: b.side, display: b.display, equation: b.equation, float: b.float, caption: b.caption}
			for _, l := range kept {
				nb.add(l)
			}
			nb.size = dominantSize(nb.lines)
			out = append(out, nb)
		}
	}
	pg.blocks = out
	tables[tb] = true
}

func letterShare(s string) float64 {
	letters, all := 0, 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		all++
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if all == 0 {
		return 0
	}
	return float64(letters) / float64(all)
}

// tableText writes table rows: cells NFKC-normalised with their inner
// blanks collapsed, separated by one tab, one row per line.
func tableText(rows []string) string {
	var sb strings.Builder
	for _, r := range rows {
		var cells []string
		for _, c := range strings.Split(r, "\t") {
			c = strings.Join(strings.Fields(foldCompat(c)), " ")
			if c != "" {
				cells = append(cells, c)
			}
		}
		if len(cells) == 0 {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(strings.Join(cells, "\t"))
	}
	return sb.String()
}

func rowTexts(ls []*line) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.text
	}
	return out
}

// lowerWords counts words that start with a lower-case letter and have
// three letters or more: the function words of running text ("the",
// "and", "with"), not "et al." of a citation.
func lowerWords(t string) int {
	n := 0
	for _, w := range strings.Fields(t) {
		r, _ := utf8.DecodeRuneInString(w)
		letters := 0
		for _, c := range w {
			if unicode.IsLetter(c) {
				letters++
			}
		}
		if unicode.IsLower(r) && letters >= 3 {
			n++
		}
	}
	return n
}

// labelText reports text holding a word of three letters or more: a label,
// not a value such as "10K".
func labelText(t string) bool {
	for _, w := range strings.Fields(t) {
		n := 0
		for _, r := range w {
			if unicode.IsLetter(r) {
				n++
			}
		}
		if n >= 3 {
			return true
		}
	}
	return false
}

// tickRow reports an axis: three or more numbers, and nothing else, in
// equal steps ("0 5 10 15", "10K 20K 30K").
func tickRow(r *tableRow) bool {
	var vs []float64
	for _, p := range r.pieces {
		for _, c := range p.cells {
			for _, w := range strings.Fields(c.text) {
				w = strings.TrimRight(strings.ReplaceAll(w, "−", "-"), "KkMB%")
				v, err := strconv.ParseFloat(w, 64)
				if err != nil {
					return false
				}
				vs = append(vs, v)
			}
		}
	}
	if len(vs) < 3 {
		return false
	}
	step := vs[1] - vs[0]
	for i := 2; i < len(vs); i++ {
		if math.Abs(vs[i]-vs[i-1]-step) > 1e-9*math.Max(1, math.Abs(step)) || step == 0 {
			return false
		}
	}
	return true
}
