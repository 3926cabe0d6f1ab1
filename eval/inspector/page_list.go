package inspector

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
)

type cell struct {
	Marks, Class string
}

type listRow struct {
	ID, URL, Type, Paper, PaperURL, Title string
	Breakdown                             []string
	Cells                                 []cell
	Flips                                 flips
}

type option struct {
	Value, Label string
	Selected     bool
}

type selectBox struct {
	Name, Label string
	Options     []option
}

type sortLink struct {
	Label, URL, Arrow string
	// Mode marks a mode's column: its heading may break after a "+" or
	// "-", so that a dozen modes fit the width of a laptop's screen.
	Mode bool
}

type listData struct {
	Title              string
	Run                *Run
	Base               string
	Against            string // what flips compare with: the base mode, or "run K (paradigm)"
	LostTip, GainedTip string
	Selects            []selectBox
	Text               string
	Headers            []sortLink // id, type, paper, fields..., modes..., flips
	Rows               []listRow
	Shown, Total, Page int
	Prev, Next         string
	Filtered           bool
}

const pageSize = 500

// outcomeOf says whether a question's runs in one mode match an outcome
// filter: right (every scored run), wrong (none), mixed, miss or error (any).
func outcomeOf(rs []run.Record, share float64, want string) bool {
	switch want {
	case "right":
		return share == 1
	case "wrong":
		return share == 0
	case "mixed":
		return share > 0 && share < 1
	case "miss", "error":
		for _, x := range rs {
			if (want == "miss" && x.Miss) || (want == "error" && x.Error != "") {
				return true
			}
		}
	}
	return false
}

// listQuery is the question list's query string: its filters, the run
// flips are counted against, the sort and the page. Values that name
// nothing in the run (an unknown mode, a vs that is not a paired run) are
// dropped, as if not given.
type listQuery struct {
	mode, outcome, typ, flip, text string
	bd                             map[string]string // breakdown field -> value
	vs                             *Run              // flips against this paired run instead of the base mode
	sortKey                        string
	desc                           bool
	page                           int
}

func parseListQuery(qv url.Values, r *Run, pairs []*Run) listQuery {
	q := listQuery{mode: qv.Get("mode"), outcome: qv.Get("outcome"), typ: qv.Get("type"), flip: qv.Get("flipped"),
		text: strings.TrimSpace(qv.Get("text")), bd: map[string]string{}, sortKey: qv.Get("sort"), desc: qv.Get("desc") == "1"}
	if q.mode != "" && !slices.Contains(r.Modes, q.mode) {
		q.mode = ""
	}
	for _, f := range r.Fields {
		if v := qv.Get("bd." + f); v != "" {
			q.bd[f] = v
		}
	}
	for _, o := range pairs {
		if o.ID == qv.Get("vs") {
			q.vs = o
		}
	}
	q.page, _ = strconv.Atoi(qv.Get("page"))
	return q
}

// filtered reports whether any filter narrows the list.
func (q listQuery) filtered() bool {
	return q.mode != "" || q.outcome != "" || q.typ != "" || q.flip != "" || q.text != "" || len(q.bd) > 0 || q.vs != nil
}

// flipLabels is what flips are counted against, said for the page, its
// tooltips and the flipped filter's choices.
type flipLabels struct {
	against, lostTip, gainedTip, lost, gained string
}

// flipRule returns how a question's flips are counted: against the base
// mode of r, or (vs) against the same mode in a paired run.
func flipRule(r *Run, base string, vs *Run) (func(*Question) flips, flipLabels) {
	if vs == nil {
		return r.flipsOf, flipLabels{against: base, lostTip: "right in the base mode, wrong here", gainedTip: "wrong in the base mode, right here",
			lost: "right in " + base + ", wrong with retrieval", gained: "wrong in " + base + ", right with retrieval"}
	}
	l := flipLabels{against: "run " + vs.ID + " (" + vs.Config.Paradigm + ")"}
	l.lostTip, l.gainedTip = "right in "+l.against+", wrong here", "wrong in "+l.against+", right here"
	l.lost, l.gained = l.lostTip, l.gainedTip
	return func(q *Question) flips { return r.flipsVs(q, vs) }, l
}

// matches reports whether question x passes every filter of q.
func (q listQuery) matches(r *Run, x *Question, flipsOf func(*Question) flips) bool {
	if q.typ != "" && x.Type != q.typ {
		return false
	}
	for f, v := range q.bd {
		if x.Breakdown[f] != v {
			return false
		}
	}
	if q.text != "" && !strings.Contains(strings.ToLower(x.ID+" "+x.Text+" "+x.PaperID), strings.ToLower(q.text)) {
		return false
	}
	if q.mode != "" && len(x.Records[q.mode]) == 0 {
		return false
	}
	return q.outcomeMatches(r, x) && q.flipMatches(x, flipsOf)
}

// outcomeMatches: some mode (the chosen one, else any) has the outcome.
func (q listQuery) outcomeMatches(r *Run, x *Question) bool {
	if q.outcome == "" {
		return true
	}
	ms := r.Modes
	if q.mode != "" {
		ms = []string{q.mode}
	}
	return slices.ContainsFunc(ms, func(m string) bool { return outcomeOf(x.Records[m], shareOr(x, m), q.outcome) })
}

// flipMatches: the question flipped the chosen way (in the chosen mode).
func (q listQuery) flipMatches(x *Question, flipsOf func(*Question) flips) bool {
	if q.flip == "" {
		return true
	}
	f := flipsOf(x)
	lost, gained := f.Lost, f.Gained
	if q.mode != "" {
		lost, gained = only(lost, q.mode), only(gained, q.mode)
	}
	switch q.flip {
	case "lost":
		return len(lost) > 0
	case "gained":
		return len(gained) > 0
	case "either":
		return len(lost)+len(gained) > 0
	}
	return true
}

// sortQuestions orders the selected questions by the sort key; an unknown
// key keeps dataset order (reversed with desc).
func sortQuestions(hit []*Question, key string, desc bool, flipsOf func(*Question) flips) {
	less := sorter(key, flipsOf)
	switch {
	case less != nil:
		sort.SliceStable(hit, func(i, j int) bool {
			if desc {
				return less(hit[j], hit[i])
			}
			return less(hit[i], hit[j])
		})
	case desc:
		slices.Reverse(hit)
	}
}

// paginate clamps the page to the list (no overflow, no empty tail page),
// sets the page links and returns the page's bounds in a list of n.
func (d *listData) paginate(req *http.Request, page, n int) (lo, hi int) {
	page = min(max(page, 1), n/pageSize+1)
	d.Page = page
	lo = min((page-1)*pageSize, n)
	hi = min(lo+pageSize, n)
	if lo > 0 {
		d.Prev = withQuery(req, "page", strconv.Itoa(page-1))
	}
	if hi < n {
		d.Next = withQuery(req, "page", strconv.Itoa(page+1))
	}
	return lo, hi
}

// listRows renders one row per question: its marks per mode and its flips.
func listRows(r *Run, qs []*Question, flipsOf func(*Question) flips) []listRow {
	var rows []listRow
	for _, q := range qs {
		row := listRow{ID: q.ID, URL: questionURL(r, q.ID), Type: q.Type, Paper: q.PaperID, PaperURL: paperURL(r, q.PaperID), Flips: flipsOf(q)}
		for _, f := range r.Fields {
			row.Breakdown = append(row.Breakdown, q.Breakdown[f])
		}
		for _, m := range r.Modes {
			rs := q.Records[m]
			row.Cells = append(row.Cells, cell{Marks: marks(rs), Class: cellClass(rs, shareOr(q, m))})
		}
		row.Title = firstLine(q.Text, 140)
		rows = append(rows, row)
	}
	return rows
}

// choice is a select box with "any" first and cur selected; labels, when
// given, are shown instead of the values.
func choice(name, label string, vals, labels []string, cur string) selectBox {
	sb := selectBox{Name: name, Label: label, Options: []option{{"", "any", cur == ""}}}
	for i, v := range vals {
		l := v
		if labels != nil {
			l = labels[i]
		}
		sb.Options = append(sb.Options, option{v, l, v == cur})
	}
	return sb
}

// filterSelects are the filter form's select boxes, set to the query.
func filterSelects(r *Run, q listQuery, pairs []*Run, base string, l flipLabels) []selectBox {
	out := []selectBox{
		choice("mode", "mode", r.Modes, nil, q.mode),
		choice("outcome", "outcome", []string{"right", "wrong", "mixed", "miss", "error"},
			[]string{"right (every run)", "wrong (every run)", "mixed", "no answer extracted", "error"}, q.outcome),
		choice("flipped", "flipped vs "+l.against, []string{"lost", "gained", "either"},
			[]string{l.lost, l.gained, "either way"}, q.flip),
	}
	if len(pairs) > 0 {
		sb := selectBox{Name: "vs", Label: "flips against", Options: []option{{"", base + " in this run", q.vs == nil}}}
		for _, o := range pairs {
			sb.Options = append(sb.Options, option{o.ID, "run " + o.ID + ": " + o.Name + " (" + o.Config.Paradigm + "), same mode", q.vs == o})
		}
		out = append(out, sb)
	}
	out = append(out, choice("type", "type", r.Types, nil, q.typ))
	for _, f := range r.Fields {
		vals := map[string]bool{}
		for _, x := range r.Questions {
			if v := x.Breakdown[f]; v != "" {
				vals[v] = true
			}
		}
		out = append(out, choice("bd."+f, f, slices.Sorted(maps.Keys(vals)), nil, q.bd[f]))
	}
	return out
}

// sortHeaders are the column headings, each a link that sorts by it (a
// second click reverses).
func sortHeaders(req *http.Request, r *Run, q listQuery, against string) []sortLink {
	hdr := func(label, key string) sortLink {
		sl := sortLink{Label: label}
		nd := "0"
		if q.sortKey == key {
			sl.Arrow = "▲"
			if q.desc {
				sl.Arrow = "▼"
			} else {
				nd = "1"
			}
		}
		sl.URL = withQuery(req, "sort", key, "desc", nd, "page", "")
		return sl
	}
	out := []sortLink{hdr("question", "id"), hdr("type", "type"), hdr("paper", "paper")}
	for _, f := range r.Fields {
		out = append(out, hdr(f, "bd."+f))
	}
	for _, m := range r.Modes {
		h := hdr(m, "mode:"+m)
		h.Mode = true
		out = append(out, h)
	}
	return append(out, hdr("flips vs "+against, "flips"))
}

// listPage is a run's questions: parse the query, select, sort, paginate,
// then render the rows, the filter form and the sortable headings.
func (s *Site) listPage(req *http.Request, runID string) (any, bool) {
	r := s.Run(runID)
	if r == nil {
		return nil, false
	}
	pairs := s.paired(r)
	q := parseListQuery(req.URL.Query(), r, pairs)
	d := listData{Title: r.Name + " · questions", Run: r, Base: r.base(), Text: q.text, Total: len(r.Questions), Filtered: q.filtered()}
	flipsOf, labels := flipRule(r, d.Base, q.vs)
	d.Against, d.LostTip, d.GainedTip = labels.against, labels.lostTip, labels.gainedTip

	var hit []*Question
	for _, x := range r.Questions {
		if q.matches(r, x, flipsOf) {
			hit = append(hit, x)
		}
	}
	sortQuestions(hit, q.sortKey, q.desc, flipsOf)
	d.Shown = len(hit)
	lo, hi := d.paginate(req, q.page, len(hit))
	d.Rows = listRows(r, hit[lo:hi], flipsOf)
	d.Selects = filterSelects(r, q, pairs, d.Base, labels)
	d.Headers = sortHeaders(req, r, q, d.Against)
	return d, true
}

func shareOr(q *Question, m string) float64 {
	if s, ok := q.Share[m]; ok {
		return s
	}
	return -1
}

func only(ms []string, m string) []string {
	if slices.Contains(ms, m) {
		return []string{m}
	}
	return nil
}

func sorter(key string, flipsOf func(*Question) flips) func(a, b *Question) bool {
	switch {
	case key == "id":
		return func(a, b *Question) bool { return a.ID < b.ID }
	case key == "type":
		return func(a, b *Question) bool { return a.Type < b.Type }
	case key == "paper":
		return func(a, b *Question) bool { return a.PaperID < b.PaperID }
	case key == "flips":
		return func(a, b *Question) bool {
			fa, fb := flipsOf(a), flipsOf(b)
			return len(fa.Lost)+len(fa.Gained) < len(fb.Lost)+len(fb.Gained)
		}
	case strings.HasPrefix(key, "bd."):
		f := key[3:]
		return func(a, b *Question) bool { return a.Breakdown[f] < b.Breakdown[f] }
	case strings.HasPrefix(key, "mode:"):
		m := key[5:]
		return func(a, b *Question) bool { return shareOr(a, m) < shareOr(b, m) }
	}
	return nil
}

// withQuery is the request's URL with some query keys set ("" deletes).
func withQuery(req *http.Request, kv ...string) string {
	q := req.URL.Query()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			q.Del(kv[i])
		} else {
			q.Set(kv[i], kv[i+1])
		}
	}
	return req.URL.Path + "?" + q.Encode()
}

func firstLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len([]rune(s)) > n {
		return string([]rune(s)[:n]) + "…"
	}
	return s
}
