package pdftext

import (
	"fmt"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// glyph is one shown character code, in device space with y growing upwards
// (PDF convention). text may hold several runes (ligatures) or be empty
// (unmapped codes, which still take room on the line).
type glyph struct {
	x, y  float64 // origin on the baseline
	w     float64 // advance width
	size  float64 // font size after all transformations
	text  string
	f     *font
	space bool // the code decodes to white space: an explicit word break
	seq   int  // show-operation counter; glyphs of one string share it
	rot   int  // text direction in quarter turns counter-clockwise
}

// matrix is a PDF transformation matrix [a b c d e f] (row-vector convention).
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m×n: apply m first, then n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2],
		m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2],
		m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4],
		m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

type gstate struct {
	ctm    matrix
	tc, tw float64
	th     float64 // horizontal scaling, 1 = 100%
	tl     float64
	f      *font
	tfs    float64
	rise   float64
}

// docFonts caches parsed fonts for a whole document, keyed by the indirect
// reference of the font dictionary ("12 0"), so a font used on every page is
// read once.
type docFonts struct {
	byRef map[string]*font
}

// resources wraps one /Resources dictionary with lazily resolved fonts and
// XObjects.
type resources struct {
	v       pdf.Value
	doc     *docFonts
	fonts   map[string]*font
	fontRef map[string]string
	parsed  bool
}

func newResources(v pdf.Value, doc *docFonts) *resources {
	return &resources{v: v, doc: doc, fonts: map[string]*font{}}
}

var refRE = lazyregexp.MustCompile(`/(\S+) (\d+ \d+) R`)

// font resolves a font resource name. The library offers no way to ask a
// Value for its object number, so the references are read from the
// dictionary's printed form; inline font dictionaries simply are not shared.
func (r *resources) font(name string) *font {
	if f, ok := r.fonts[name]; ok {
		if f != nil && f.err != nil {
			panic(fmt.Errorf("font /%s: %w", name, f.err))
		}
		return f
	}
	fd := r.v.Key("Font")
	if !r.parsed {
		r.parsed = true
		r.fontRef = map[string]string{}
		for _, m := range refRE.FindAllStringSubmatch(fd.String(), -1) {
			r.fontRef[m[1]] = m[2]
		}
	}
	ref := r.fontRef[name]
	if ref != "" {
		if f, ok := r.doc.byRef[ref]; ok {
			r.fonts[name] = f
			if f != nil && f.err != nil {
				panic(fmt.Errorf("font /%s: %w", name, f.err))
			}
			return f
		}
	}
	f := loadFont(fd.Key(name))
	if ref != "" {
		r.doc.byRef[ref] = f
	}
	r.fonts[name] = f
	if f != nil && f.err != nil {
		panic(fmt.Errorf("font /%s: %w", name, f.err))
	}
	return f
}

// loadFont reads a font dictionary. A font too broken to read costs only
// its own text (nil font: its glyphs are skipped), not the whole page.
func loadFont(v pdf.Value) (f *font) {
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	if v.Kind() != pdf.Dict {
		return nil
	}
	return newFont(v)
}

// walker interprets a page content stream and collects glyphs.
type walker struct {
	doc    *docFonts
	glyphs []glyph
	seq    int
	box    [4]float64 // x0 y0 x1 y1 of the media box, to drop off-page text
	forms  int        // Form XObjects run so far on this page
}

// Limits that keep a hostile or damaged page from running away: a form
// drawing itself ten times per level would otherwise take 10^depth runs.
const (
	maxFormDepth    = 8
	maxFormRuns     = 2000
	maxGlyphs       = 1 << 20
	maxContentParts = 4096
)

// run interprets a content stream (a page's, or a form's at depth) with
// resources res, starting from transformation ctm, and collects its
// glyphs. Only the operators that move or show text are interpreted;
// paths, images and colours are skipped.
func (w *walker) run(strm pdf.Value, res *resources, ctm matrix, depth int) {
	c := &contentRun{
		w: w, res: res, depth: depth,
		g:  gstate{ctm: ctm, th: 1},
		tm: identity, tlm: identity, // lenient with text drawn outside BT/ET
	}
	pdf.Interpret(strm, c.op)
}

// contentRun is the interpreter state of one content stream: the graphics
// state and its saved copies, the text and text-line matrices, and the
// current operator's operands.
type contentRun struct {
	w       *walker
	res     *resources
	depth   int
	g       gstate
	stack   []gstate
	tm, tlm matrix
	args    []pdf.Value
}

// op interprets one operator, its operands on stk, by the operator's group
// in the PDF spec (section 9.3 and 9.4): graphics state, text state, text
// positioning, text showing, and XObjects.
func (c *contentRun) op(stk *pdf.Stack, op string) {
	n := stk.Len()
	if cap(c.args) < n {
		c.args = make([]pdf.Value, n)
	}
	c.args = c.args[:n]
	for i := n - 1; i >= 0; i-- {
		c.args[i] = stk.Pop()
	}
	switch op {
	case "q", "Q", "cm":
		c.graphicsState(op)
	case "Tc", "Tw", "Tz", "TL", "Ts", "Tf":
		c.textState(op)
	case "BT", "Td", "TD", "Tm", "T*":
		c.textPosition(op)
	case "Tj", "'", "\"":
		c.showString(op)
	case "TJ":
		c.showArray()
	case "Do":
		c.drawForm()
	}
}

// num returns operand i as a number, 0 when missing.
func (c *contentRun) num(i int) float64 {
	if i < len(c.args) {
		return c.args[i].Float64()
	}
	return 0
}

// graphicsState saves (q) and restores (Q) the graphics state, and
// concatenates a matrix to the CTM (cm). Saves are capped at 1024 so a
// hostile stream cannot grow the stack without bound.
func (c *contentRun) graphicsState(op string) {
	switch op {
	case "q":
		if len(c.stack) < 1024 {
			c.stack = append(c.stack, c.g)
		}
	case "Q":
		if k := len(c.stack); k > 0 {
			c.g = c.stack[k-1]
			c.stack = c.stack[:k-1]
		}
	case "cm":
		if len(c.args) == 6 {
			c.g.ctm = matrix{c.num(0), c.num(1), c.num(2), c.num(3), c.num(4), c.num(5)}.mul(c.g.ctm)
		}
	}
}

// textState sets character and word spacing, horizontal scaling, leading,
// rise, and the font and its size.
func (c *contentRun) textState(op string) {
	switch op {
	case "Tc":
		c.g.tc = c.num(0)
	case "Tw":
		c.g.tw = c.num(0)
	case "Tz":
		c.g.th = c.num(0) / 100
	case "TL":
		c.g.tl = c.num(0)
	case "Ts":
		c.g.rise = c.num(0)
	case "Tf":
		if len(c.args) == 2 {
			c.g.f = c.res.font(c.args[0].Name())
			c.g.tfs = c.num(1)
		}
	}
}

// textPosition moves the text matrix: to the origin at BT, by an offset
// (Td; TD also sets the leading), to a matrix (Tm), or to the next line
// (T*).
func (c *contentRun) textPosition(op string) {
	switch op {
	case "BT":
		c.tm, c.tlm = identity, identity
	case "Td", "TD":
		if len(c.args) == 2 {
			if op == "TD" {
				c.g.tl = -c.num(1)
			}
			c.tlm = matrix{1, 0, 0, 1, c.num(0), c.num(1)}.mul(c.tlm)
			c.tm = c.tlm
		}
	case "Tm":
		if len(c.args) == 6 {
			c.tlm = matrix{c.num(0), c.num(1), c.num(2), c.num(3), c.num(4), c.num(5)}
			c.tm = c.tlm
		}
	case "T*":
		c.nextLine()
	}
}

// nextLine moves to the start of the next line, the leading below.
func (c *contentRun) nextLine() {
	c.tlm = matrix{1, 0, 0, 1, 0, -c.g.tl}.mul(c.tlm)
	c.tm = c.tlm
}

// showString shows a string (Tj), after moving to the next line (' and
// "; " also sets word and character spacing).
func (c *contentRun) showString(op string) {
	if len(c.args) == 0 {
		return
	}
	if op != "Tj" {
		if op == "\"" && len(c.args) == 3 {
			c.g.tw, c.g.tc = c.num(0), c.num(1)
		}
		c.nextLine()
	}
	c.w.show(&c.g, &c.tm, c.args[len(c.args)-1].RawString())
}

// showArray shows a TJ array: strings, and numbers that move the next
// glyph left by thousandths of the font size (kerning, and the word gaps
// of producers that set no spaces).
func (c *contentRun) showArray() {
	if len(c.args) == 0 {
		return
	}
	a := c.args[len(c.args)-1]
	for i := 0; i < a.Len(); i++ {
		x := a.Index(i)
		if x.Kind() == pdf.String {
			c.w.show(&c.g, &c.tm, x.RawString())
		} else {
			tx := -x.Float64() / 1000 * c.g.tfs * c.g.th
			c.tm[4] += tx * c.tm[0]
			c.tm[5] += tx * c.tm[1]
		}
	}
}

// drawForm runs a Form XObject (Do), within the depth and count limits.
func (c *contentRun) drawForm() {
	w := c.w
	if c.depth >= maxFormDepth || len(c.args) == 0 || w.forms >= maxFormRuns {
		return
	}
	w.forms++
	w.form(c.res, c.args[0].Name(), c.g.ctm, c.depth)
}

// form interprets a Form XObject, which is how many producers embed figures,
// and sometimes whole page bodies.
func (w *walker) form(res *resources, name string, ctm matrix, depth int) {
	x := res.v.Key("XObject").Key(name)
	if x.Kind() != pdf.Stream || x.Key("Subtype").Name() != "Form" {
		return
	}
	fres := x.Key("Resources")
	if fres.Kind() != pdf.Dict {
		fres = res.v
	}
	// A form without fonts cannot draw text; plots made of thousands of path
	// operators are skipped without tokenizing them.
	if fres.Key("Font").Kind() != pdf.Dict && fres.Key("XObject").Kind() != pdf.Dict {
		return
	}
	m := identity
	if mv := x.Key("Matrix"); mv.Len() == 6 {
		for i := 0; i < 6; i++ {
			m[i] = mv.Index(i).Float64()
		}
	}
	sub := res
	if fres.Kind() == pdf.Dict && x.Key("Resources").Kind() == pdf.Dict {
		sub = newResources(fres, w.doc)
	}
	w.run(x, sub, m.mul(ctm), depth+1)
}

// show lays out one string of character codes.
func (w *walker) show(g *gstate, tm *matrix, raw string) {
	f := g.f
	if f == nil {
		return
	}
	w.seq++
	trm := tm.mul(g.ctm)
	size := g.tfs * math.Hypot(trm[2], trm[3])
	scale := math.Hypot(trm[0], trm[1])
	// Quarter-turn rotations are kept (landscape tables, axis labels) and
	// later laid out in their own frame; skewed text is dropped.
	rot := -1
	switch {
	case trm[0] > 0 && math.Abs(trm[1]) <= 0.05*trm[0]:
		rot = 0
	case trm[1] > 0 && math.Abs(trm[0]) <= 0.05*trm[1]:
		rot = 1
	case trm[0] < 0 && math.Abs(trm[1]) <= 0.05*-trm[0]:
		rot = 2
	case trm[1] < 0 && math.Abs(trm[0]) <= 0.05*-trm[1]:
		rot = 3
	}
	step := 1
	if f.twoByte {
		step = 2
	}
	for i := 0; i+step <= len(raw); i += step {
		code := int(raw[i])
		if step == 2 {
			code = code<<8 | int(raw[i+1])
		}
		w0 := f.width(code)
		tx := w0*g.tfs + g.tc
		if step == 1 && code == 32 {
			tx += g.tw
		}
		tx *= g.th
		if rot >= 0 && size > 0.5 && len(w.glyphs) < maxGlyphs {
			x := trm[4] + g.rise*trm[2]
			y := trm[5] + g.rise*trm[3]
			if x >= w.box[0]-5 && x <= w.box[2]+5 && y >= w.box[1]-5 && y <= w.box[3]+5 {
				text := f.decode(code, raw[i:i+step])
				w.glyphs = append(w.glyphs, glyph{
					x: x, y: y,
					w:     w0 * g.tfs * g.th * scale,
					size:  size,
					text:  text,
					f:     f,
					space: strings.TrimSpace(text) == "" && text != "",
					seq:   w.seq,
					rot:   rot,
				})
			}
		}
		tm[4] += tx * tm[0]
		tm[5] += tx * tm[1]
		trm[4] += tx * trm[0]
		trm[5] += tx * trm[1]
	}
}
