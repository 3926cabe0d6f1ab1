// Package kind names what a stretch of a document's text is: running body
// text, a heading, a table, a caption, the references, a contents page, the
// front matter (title block, authors, venue footers) or text drawn inside a
// figure (axis ticks and labels).
//
// The extractor marks spans of its text with a kind, the chunker cuts
// passages at kind boundaries so every passage has one kind, ingest drops
// the kinds a user asks it to (`--drop`), retrieval can leave kinds out
// (`--exclude-kinds`) and the inspector shows each passage's kind. The
// names are a contract: they appear in flags, stored passages and JSON.
package kind

import (
	"fmt"
	"sort"
	"strings"
)

// Kind is what a stretch of text is. The zero value is Body.
type Kind string

// The kinds. Their names are fixed: flags, stored passages and JSON use them.
const (
	Body        Kind = "body"
	Heading     Kind = "heading"
	Table       Kind = "table"
	Caption     Kind = "caption"
	References  Kind = "references"
	Contents    Kind = "contents"
	FrontMatter Kind = "front-matter"
	FigureText  Kind = "figure-text"
)

// All lists every kind, body first.
var All = []Kind{Body, Heading, Table, Caption, References, Contents, FrontMatter, FigureText}

// DefaultDrop is what ingest leaves out unless told otherwise: a contents
// page and the text inside figures. Both won retrieval for questions they
// cannot answer (DeepSeek-R1's dot-leader contents page ranked first for a
// question about its reward; its chart tick labels formed a passage).
// References are kept, marked, so that a question about a citation can
// still be answered and retrieval can leave them out.
var DefaultDrop = []Kind{Contents, FigureText}

// Or returns k, or Body when k is empty.
func (k Kind) Or() Kind {
	if k == "" {
		return Body
	}
	return k
}

// Valid reports whether k is one of All.
func (k Kind) Valid() bool {
	for _, a := range All {
		if k == a {
			return true
		}
	}
	return false
}

// Parse reads a comma-separated list of kinds ("references,contents"). The
// empty string and "none" are the empty list. An unknown name is an error
// that lists the known ones.
func Parse(list string) ([]Kind, error) {
	list = strings.TrimSpace(list)
	if list == "" || list == "none" {
		return nil, nil
	}
	var out []Kind
	seen := map[Kind]bool{}
	for _, f := range strings.Split(list, ",") {
		k := Kind(strings.TrimSpace(strings.ToLower(f)))
		if k == "frontmatter" || k == "front_matter" {
			k = FrontMatter
		}
		if k == "" {
			continue
		}
		if !k.Valid() {
			return nil, fmt.Errorf("unknown passage kind %q: use a comma-separated list of %s, or none", f, Names(All))
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, nil
}

// Names joins kinds with commas, in the order given.
func Names(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}

// Set is a set of kinds, for membership tests.
type Set map[Kind]bool

// NewSet makes a set of ks.
func NewSet(ks []Kind) Set {
	s := Set{}
	for _, k := range ks {
		s[k.Or()] = true
	}
	return s
}

// Has reports whether k (empty meaning Body) is in s.
func (s Set) Has(k Kind) bool { return s[k.Or()] }

// Span marks text[Start:End] of a document's text as Kind. Spans of one
// document are sorted, do not overlap, and text outside every span is Body.
type Span struct {
	Start int  `json:"start"`
	End   int  `json:"end"`
	Kind  Kind `json:"kind"`
}

// Normalize sorts spans, drops empty and Body ones, clips them to [0, n],
// and merges touching or overlapping spans of the same kind. Where spans
// of different kinds overlap, the earlier-starting one is cut short.
func Normalize(spans []Span, n int) []Span {
	s := make([]Span, 0, len(spans))
	for _, sp := range spans {
		sp.Start, sp.End = max(sp.Start, 0), min(sp.End, n)
		if sp.End > sp.Start && sp.Kind.Or() != Body {
			s = append(s, sp)
		}
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].Start < s[j].Start })
	out := s[:0]
	for _, sp := range s {
		if len(out) > 0 {
			last := &out[len(out)-1]
			if last.Kind == sp.Kind && sp.Start <= last.End {
				last.End = max(last.End, sp.End)
				continue
			}
			if sp.Start < last.End {
				last.End = sp.Start
				if last.End <= last.Start {
					out = out[:len(out)-1]
				}
			}
		}
		out = append(out, sp)
	}
	return out
}

// At returns the kind at byte offset i, given normalized spans.
func At(spans []Span, i int) Kind {
	j := sort.Search(len(spans), func(j int) bool { return spans[j].End > i })
	if j < len(spans) && spans[j].Start <= i {
		return spans[j].Kind
	}
	return Body
}

// Drop removes the text of spans whose kind is in drop, and returns the
// remaining text with its spans shifted to match. A dropped span takes
// the blank lines after it along, so paragraphs stay separated by one
// blank line.
func Drop(text string, spans []Span, drop Set) (string, []Span) {
	spans = Normalize(spans, len(text))
	if len(drop) == 0 {
		return text, spans
	}
	var b strings.Builder
	b.Grow(len(text))
	var out []Span
	pos := 0 // text[:pos] is written or dropped
	for _, sp := range spans {
		if sp.Start < pos { // inside the blank lines a dropped span took
			sp.Start = pos
			if sp.End <= sp.Start {
				continue
			}
		}
		if !drop.Has(sp.Kind) {
			b.WriteString(text[pos:sp.Start])
			out = append(out, Span{b.Len(), b.Len() + sp.End - sp.Start, sp.Kind})
			b.WriteString(text[sp.Start:sp.End])
			pos = sp.End
			continue
		}
		b.WriteString(text[pos:sp.Start])
		end := sp.End
		for end < len(text) && (text[end] == '\n' || text[end] == ' ') {
			end++
		}
		pos = end
	}
	b.WriteString(text[pos:])
	return b.String(), Normalize(out, b.Len())
}
