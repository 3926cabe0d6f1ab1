package inspector

import (
	"fmt"
	"html/template"
	"maps"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

var funcs = template.FuncMap{
	"pct": run.Percent,
	"pctp": func(x *float64) string {
		if x == nil {
			return "–"
		}
		return run.Percent(*x)
	},
	"signed": func(x float64) string { return fmt.Sprintf("%+.1f", 100*x) },
	"score":  func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) },
	"p": func(x float64) string {
		if x < 0.001 {
			return "<0.001"
		}
		return fmt.Sprintf("%.3f", x)
	},
	"trimHash": func(s string) string { return strings.TrimPrefix(s, "#") },
	"tok":      func(x float64) string { return strconv.Itoa(int(math.Round(x))) },
}

// ---- shared pieces ----

// runURL and friends build links from ids; ids are escaped as one path
// segment, so an id can never reach outside its run.
func runURL(r *Run) string { return "/r/" + r.ID + "/" }
func questionURL(r *Run, id string) string {
	return "/r/" + r.ID + "/q/" + url.PathEscape(id)
}
func paperURL(r *Run, id string) string { return "/r/" + r.ID + "/paper/" + url.PathEscape(id) }
func passageURL(r *Run, pid, passageID string) string {
	return paperURL(r, pid) + "#" + anchor(passageID)
}
func anchor(passageID string) string {
	if i := strings.LastIndexByte(passageID, '#'); i >= 0 {
		return "p" + passageID[i+1:]
	}
	return "p-" + url.PathEscape(passageID)
}

// safeHref links web results only when they are plain http(s) URLs; any
// other scheme (javascript:, data:, file:) is shown as text, not a link.
func safeHref(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.String()
}

// redactURL drops credentials and the query from a base URL before it is
// shown: some gateways take the API key there. It is the transport's own
// rule, so what the inspector shows matches every error message.
func redactURL(raw string) string {
	if raw == "" {
		return ""
	}
	return httpx.DisplayURL(raw)
}

// mark is one run's outcome as a symbol and a CSS class.
func mark(r run.Record) (string, string) {
	switch {
	case r.Error != "":
		return "!", "err"
	case r.Miss:
		return "?", "miss"
	case r.ScoreKind == "rouge_l" && r.Score != nil:
		return fmt.Sprintf("%.2f", *r.Score), "score"
	case r.Correct:
		return "+", "ok"
	}
	return "−", "bad"
}

// cellClass summarises all runs of one question in one mode.
func cellClass(rs []run.Record, share float64) string {
	switch {
	case len(rs) == 0:
		return "none"
	case share < 0:
		if _, c := mark(rs[0]); c == "score" {
			return "score"
		}
		return "err"
	case share == 1:
		return "ok"
	case share == 0:
		return "bad"
	}
	return "mix"
}

func marks(rs []run.Record) string {
	var b strings.Builder
	for _, r := range rs {
		m, _ := mark(r)
		b.WriteString(m)
	}
	return b.String()
}

// highlight escapes text and wraps the given spans in <mark>. The title of
// each mark says which gold evidence it matches.
func highlight(text string, spans []evidence.Span, label func([]int) string) template.HTML {
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.Start < at || s.End > len(text) || s.Start >= s.End {
			continue
		}
		b.WriteString(template.HTMLEscapeString(text[at:s.Start]))
		b.WriteString(`<mark class="gold" title="`)
		b.WriteString(template.HTMLEscapeString(label(s.Sentences)))
		b.WriteString(`">`)
		b.WriteString(template.HTMLEscapeString(text[s.Start:s.End]))
		b.WriteString("</mark>")
		at = s.End
	}
	b.WriteString(template.HTMLEscapeString(text[at:]))
	return template.HTML(b.String())
}

// ---- index ----

type modeRow struct {
	Mode, Note            string
	Acc, Std, Lo, Hi      float64
	N, Errors             int
	HasEffect             bool
	Diff, DLo, DHi, P     float64
	Recall                *float64
	Miss, Tokens, Trunc   float64
	RougeL                *float64
	IsBaseline, HasScored bool
	// Cut counts replies cut by the token limit with no answer; PerQ is
	// the server's tokens per record, "prompt · completion (reasoning)".
	Cut        int
	PerQ, Cost string
}

type runView struct {
	*Run
	URL, Data, BaseURL string
	Records            int
	Rows               []modeRow
	HasRouge           bool // short answers scored by ROUGE-L: show the column
	HasCost            bool // the run was priced (--price): show the cost column
	Cols               int  // columns after the mode's, for a row with only a note
}

type indexData struct {
	Title string
	Run   *Run // none: the index spans all runs
	Runs  []runView
}

// wilson is the 95% Wilson score interval of a proportion over n items.
func wilson(p float64, n int) (float64, float64) {
	if n == 0 {
		return 0, 0
	}
	const z = 1.959964
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return math.Max(0, c-h), math.Min(1, c+h)
}

func summaryRows(r *Run) []modeRow {
	eff := map[string]run.Effect{}
	for _, e := range r.Summary.Effects {
		eff[e.Mode] = e
	}
	var rows []modeRow
	for _, m := range r.Modes {
		st, ok := r.Summary.ByMode[m]
		if !ok {
			rows = append(rows, modeRow{Mode: m, Note: "no records yet"})
			continue
		}
		row := modeRow{Mode: m, Acc: st.Accuracy, Std: st.Std, N: st.N, Errors: st.Errors, Recall: st.EvidenceRecall,
			Miss: st.MissRate, Tokens: st.PromptTokens, Trunc: st.TruncatedShare, RougeL: st.RougeL,
			IsBaseline: m == r.Summary.Baseline, HasScored: st.N > 0,
			Cut: st.Truncated, PerQ: run.TokensPerQuestion(st), Cost: run.CostText(st.CostUSD)}
		row.Lo, row.Hi = wilson(st.Accuracy, st.N)
		if e, ok := eff[m]; ok && e.N > 0 { // nothing paired: no effect to show
			row.HasEffect, row.Diff, row.DLo, row.DHi, row.P = true, e.Diff, e.Lo, e.Hi, e.PValue
		}
		rows = append(rows, row)
	}
	return rows
}

func (s *Site) indexPage(*http.Request) (any, bool) {
	d := indexData{Title: "paperlens inspector"}
	for _, r := range s.Runs() {
		n := 0
		for _, q := range r.Questions {
			for _, rs := range q.Records {
				n += len(rs)
			}
		}
		rv := runView{Run: r, URL: runURL(r), Data: filepath.Base(r.Config.Data), BaseURL: redactURL(r.Config.BaseURL), Records: n, Rows: summaryRows(r)}
		for _, m := range r.Modes {
			rv.HasCost = rv.HasCost || r.Summary.ByMode[m].CostUSD != nil
		}
		for _, row := range rv.Rows {
			rv.HasRouge = rv.HasRouge || row.RougeL != nil
		}
		rv.Cols = 14
		for _, b := range []bool{rv.HasRouge, rv.HasCost} {
			if b {
				rv.Cols++
			}
		}
		d.Runs = append(d.Runs, rv)
	}
	return d, true
}

// ---- question list ----

// Flips compares a question's retrieval modes with the base mode (full when
// the run has it): Lost names modes that got wrong what the base got right,
// Gained the reverse. "Right" is a majority of the scored runs.
type flips struct{ Lost, Gained []string }

// ragMode reports whether a mode's context is partly retrieved; a mode this
// build does not know (a folder from another version) counts as one.
func ragMode(name string) bool {
	m, ok := mode.Lookup(name)
	return !ok || m.Retrieves()
}

func (r *Run) base() string {
	if slices.Contains(r.Modes, run.Full) {
		return run.Full
	}
	return r.Summary.Baseline
}

func (r *Run) flipsOf(q *Question) flips {
	var f flips
	base := r.base()
	b, ok := q.Share[base]
	if !ok || b < 0 {
		return f
	}
	// Right means at least half the scored runs: the rule of the summary's
	// McNemar counts, so the two agree.
	for _, m := range r.Modes {
		s, ok := q.Share[m]
		if m == base || !ragMode(m) || !ok || s < 0 {
			continue
		}
		f.add(m, b, s)
	}
	return f
}

// add files mode m under Lost or Gained when its share of right runs s
// crosses the reference's b: right is at least half the scored runs.
func (f *flips) add(m string, b, s float64) {
	switch {
	case b >= 0.5 && s < 0.5:
		f.Lost = append(f.Lost, m)
	case b < 0.5 && s >= 0.5:
		f.Gained = append(f.Gained, m)
	}
}

// paired lists the other served runs that ask the same model the same
// questions under another paradigm (base, cot, reasoning): the runs whose
// answers can be compared with r's question by question, mode by mode.
func (s *Site) paired(r *Run) []*Run {
	var out []*Run
	for _, o := range s.Runs() {
		if o.ID != r.ID && o.Config.Model == r.Config.Model && o.Config.Paradigm != r.Config.Paradigm && sameData(o.Config, r.Config) {
			out = append(out, o)
		}
	}
	return out
}

func sameData(a, b run.Config) bool {
	return a.Bench == b.Bench && filepath.Clean(a.Data) == filepath.Clean(b.Data)
}

// flipsVs compares each of q's modes with the same mode on the same
// question in run o: Lost names modes right in o and wrong here, Gained the
// reverse, by the majority rule of flipsOf. Every mode counts, closed-book
// and full too: across paradigms they are the comparison, not the base.
func (r *Run) flipsVs(q *Question, o *Run) flips {
	var f flips
	oq := o.byID[q.ID]
	if oq == nil {
		return f
	}
	for _, m := range r.Modes {
		s, ok1 := q.Share[m]
		b, ok2 := oq.Share[m]
		if !ok1 || !ok2 || s < 0 || b < 0 {
			continue
		}
		f.add(m, b, s)
	}
	return f
}

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

func (s *Site) listPage(req *http.Request, runID string) (any, bool) {
	r := s.Run(runID)
	if r == nil {
		return nil, false
	}
	qv := req.URL.Query()
	mode, outcome, typ, flip := qv.Get("mode"), qv.Get("outcome"), qv.Get("type"), qv.Get("flipped")
	text := strings.TrimSpace(qv.Get("text"))
	if mode != "" && !slices.Contains(r.Modes, mode) {
		mode = ""
	}
	bd := map[string]string{}
	for _, f := range r.Fields {
		if v := qv.Get("bd." + f); v != "" {
			bd[f] = v
		}
	}
	d := listData{Title: r.Name + " · questions", Run: r, Base: r.base(), Text: text, Total: len(r.Questions)}
	// vs=K compares with the same mode in paired run K instead of with
	// the base mode here; any other value is ignored, like an unknown mode.
	pairs := s.paired(r)
	var vs *Run
	for _, o := range pairs {
		if o.ID == qv.Get("vs") {
			vs = o
		}
	}
	flipsOf := r.flipsOf
	d.Against = d.Base
	d.LostTip, d.GainedTip = "right in the base mode, wrong here", "wrong in the base mode, right here"
	lostLabel, gainedLabel := "right in "+d.Base+", wrong with retrieval", "wrong in "+d.Base+", right with retrieval"
	if vs != nil {
		flipsOf = func(q *Question) flips { return r.flipsVs(q, vs) }
		d.Against = "run " + vs.ID + " (" + vs.Config.Paradigm + ")"
		d.LostTip, d.GainedTip = "right in "+d.Against+", wrong here", "wrong in "+d.Against+", right here"
		lostLabel, gainedLabel = d.LostTip, d.GainedTip
	}
	d.Filtered = mode != "" || outcome != "" || typ != "" || flip != "" || text != "" || len(bd) > 0 || vs != nil

	var hit []*Question
	for _, q := range r.Questions {
		if typ != "" && q.Type != typ {
			continue
		}
		ok := true
		for f, v := range bd {
			if q.Breakdown[f] != v {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if text != "" && !strings.Contains(strings.ToLower(q.ID+" "+q.Text+" "+q.PaperID), strings.ToLower(text)) {
			continue
		}
		if mode != "" && len(q.Records[mode]) == 0 {
			continue
		}
		if outcome != "" {
			ms := r.Modes
			if mode != "" {
				ms = []string{mode}
			}
			any := false
			for _, m := range ms {
				if outcomeOf(q.Records[m], shareOr(q, m), outcome) {
					any = true
				}
			}
			if !any {
				continue
			}
		}
		if flip != "" {
			f := flipsOf(q)
			lost, gained := f.Lost, f.Gained
			if mode != "" {
				lost, gained = only(lost, mode), only(gained, mode)
			}
			if (flip == "lost" && len(lost) == 0) || (flip == "gained" && len(gained) == 0) || (flip == "either" && len(lost)+len(gained) == 0) {
				continue
			}
		}
		hit = append(hit, q)
	}

	sortKey, desc := qv.Get("sort"), qv.Get("desc") == "1"
	less := sorter(sortKey, flipsOf)
	if less != nil {
		sort.SliceStable(hit, func(i, j int) bool {
			if desc {
				return less(hit[j], hit[i])
			}
			return less(hit[i], hit[j])
		})
	} else if desc {
		slices.Reverse(hit)
	}
	d.Shown = len(hit)
	page, _ := strconv.Atoi(qv.Get("page"))
	page = min(max(page, 1), len(hit)/pageSize+1) // no overflow, no empty tail page
	d.Page = page
	lo := min((page-1)*pageSize, len(hit))
	hi := min(lo+pageSize, len(hit))
	if lo > 0 {
		d.Prev = withQuery(req, "page", strconv.Itoa(page-1))
	}
	if hi < len(hit) {
		d.Next = withQuery(req, "page", strconv.Itoa(page+1))
	}
	for _, q := range hit[lo:hi] {
		row := listRow{ID: q.ID, URL: questionURL(r, q.ID), Type: q.Type, Paper: q.PaperID, PaperURL: paperURL(r, q.PaperID), Flips: flipsOf(q)}
		for _, f := range r.Fields {
			row.Breakdown = append(row.Breakdown, q.Breakdown[f])
		}
		for _, m := range r.Modes {
			rs := q.Records[m]
			row.Cells = append(row.Cells, cell{Marks: marks(rs), Class: cellClass(rs, shareOr(q, m))})
		}
		row.Title = firstLine(q.Text, 140)
		d.Rows = append(d.Rows, row)
	}

	opt := func(name, label string, vals, labels []string, cur string) selectBox {
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
	d.Selects = append(d.Selects,
		opt("mode", "mode", r.Modes, nil, mode),
		opt("outcome", "outcome", []string{"right", "wrong", "mixed", "miss", "error"},
			[]string{"right (every run)", "wrong (every run)", "mixed", "no answer extracted", "error"}, outcome),
		opt("flipped", "flipped vs "+d.Against, []string{"lost", "gained", "either"},
			[]string{lostLabel, gainedLabel, "either way"}, flip))
	if len(pairs) > 0 {
		sb := selectBox{Name: "vs", Label: "flips against", Options: []option{{"", d.Base + " in this run", vs == nil}}}
		for _, o := range pairs {
			sb.Options = append(sb.Options, option{o.ID, "run " + o.ID + ": " + o.Name + " (" + o.Config.Paradigm + "), same mode", vs == o})
		}
		d.Selects = append(d.Selects, sb)
	}
	d.Selects = append(d.Selects, opt("type", "type", r.Types, nil, typ))
	for _, f := range r.Fields {
		vals := map[string]bool{}
		for _, q := range r.Questions {
			if v := q.Breakdown[f]; v != "" {
				vals[v] = true
			}
		}
		d.Selects = append(d.Selects, opt("bd."+f, f, slices.Sorted(maps.Keys(vals)), nil, bd[f]))
	}
	hdr := func(label, key string) sortLink {
		sl := sortLink{Label: label}
		nd := "0"
		if sortKey == key {
			sl.Arrow = "▲"
			if desc {
				sl.Arrow = "▼"
			} else {
				nd = "1"
			}
		}
		sl.URL = withQuery(req, "sort", key, "desc", nd, "page", "")
		return sl
	}
	d.Headers = append(d.Headers, hdr("question", "id"), hdr("type", "type"), hdr("paper", "paper"))
	for _, f := range r.Fields {
		d.Headers = append(d.Headers, hdr(f, "bd."+f))
	}
	for _, m := range r.Modes {
		d.Headers = append(d.Headers, hdr(m, "mode:"+m))
	}
	d.Headers = append(d.Headers, hdr("flips vs "+d.Against, "flips"))
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

// ---- question page ----

type goldLoc struct {
	Q                   string // question id (paper view)
	QURL                string
	Sentence            string
	Found               bool
	PassageID, URL      string
	Section             string
	Start, End, Ordinal int
	Coverage            float64
}

type passView struct {
	Rank                 int
	Score                float64
	Retriever            string
	ID, URL, Section     string
	Tokens, Start, End   int
	Text                 template.HTML
	HasGold, Unavailable bool
	Why                  string // why the text is unavailable
}

type runLink struct {
	Run            int
	Marks, Class   string
	URL            string
	Selected       bool
	Correct, Error bool
}

type webView struct {
	run.WebItem
	Href string
}

type modeCol struct {
	Mode, Kind    string
	Paper         bool // the whole paper was in the prompt
	Runs          []runLink
	Rec           *run.Record
	Mark, Class   string
	PaperTokens   int
	Passages      []passView
	NotRetrieved  []goldLoc
	Web           []webView
	Oracle        string
	Retrievers    string
	RecallPercent string
	GoldUnknown   string // why the retrieved gold cannot be told
}

type questionData struct {
	Title      string
	Run        *Run
	Q          *Question
	Options    []string
	Stem       string
	Gold       []goldLoc
	Modes      []modeCol
	RunSel     int
	Prev, Next string
	ListURL    string
	PaperURL   string
	PaperTitle string
	Breakdown  [][2]string
	Stale      string
}

func (s *Site) questionPage(req *http.Request, runID, qid string) (any, bool) {
	r := s.Run(runID)
	if r == nil {
		return nil, false
	}
	q := r.byID[qid]
	if q == nil {
		return nil, false
	}
	sel, _ := strconv.Atoi(req.URL.Query().Get("run"))
	d := questionData{Title: q.ID + " · " + r.Name, Run: r, Q: q, ListURL: runURL(r), PaperURL: paperURL(r, q.PaperID)}
	if q.Index > 0 {
		d.Prev = questionURL(r, r.Questions[q.Index-1].ID)
	}
	if q.Index+1 < len(r.Questions) {
		d.Next = questionURL(r, r.Questions[q.Index+1].ID)
	}
	for _, f := range slices.Sorted(maps.Keys(q.Breakdown)) {
		d.Breakdown = append(d.Breakdown, [2]string{f, q.Breakdown[f]})
	}
	if len(q.MCQ.Options) > 0 {
		d.Stem = q.MCQ.Stem
		d.Options = q.MCQ.OptionLines()
	}
	p := s.papers.get(r.home, q.PaperID)
	if p != nil {
		d.PaperTitle = p.Doc.Title
	}
	d.Stale = staleNote(r, p)
	gold := q.Gold()
	var locs []evidence.Location
	if gold != nil && !gold.Empty() {
		locs = locate(gold, p)
		for _, l := range locs {
			d.Gold = append(d.Gold, locView(r, q.PaperID, p, l))
		}
	}
	label := func(ss []int) string {
		var parts []string
		for _, i := range ss {
			parts = append(parts, fmt.Sprintf("gold sentence %d", i+1))
		}
		return strings.Join(parts, ", ")
	}
	showMode := req.URL.Query().Get("mode")
	for _, m := range r.Modes {
		rs := q.Records[m]
		if showMode != "" && m != showMode {
			continue
		}
		spec, _ := mode.Lookup(m)
		col := modeCol{Mode: m, Kind: mode.KindOf(m), Paper: spec.NeedsPaper()}
		if p != nil {
			col.PaperTokens = p.Doc.Tokens
		}
		if len(rs) == 0 {
			d.Modes = append(d.Modes, col)
			continue
		}
		pick := 0
		for i, x := range rs {
			mk, cl := mark(x)
			if x.Run == sel {
				pick = i
			}
			col.Runs = append(col.Runs, runLink{Run: x.Run, Marks: mk, Class: cl, URL: questionURL(r, q.ID) + "?run=" + strconv.Itoa(x.Run)})
		}
		col.Runs[pick].Selected = true
		rec := rs[pick]
		col.Rec = &rec
		col.Mark, col.Class = mark(rec)
		if rec.Recall != nil {
			col.RecallPercent = fmt.Sprintf("%.0f%%", 100**rec.Recall)
		}
		var got []string
		retr := map[string]bool{}
		for _, c := range rec.Context {
			switch {
			case c.Retriever == "web":
				continue
			case c.PassageID == "gold":
				col.Oracle = q.Evidence
				continue
			}
			retr[c.Retriever] = true
			pv := passView{Rank: c.Rank, Score: c.Score, Retriever: c.Retriever, ID: c.PassageID, URL: passageURL(r, q.PaperID, c.PassageID)}
			var text string
			if p != nil {
				if i, ok := p.ord[c.PassageID]; ok {
					ps := p.Passages[i]
					text, pv.Section, pv.Tokens, pv.Start, pv.End = ps.Text, ps.Section, ps.Tokens, ps.Start, ps.End
				}
			}
			if text == "" {
				pv.Unavailable = true
				pv.Why = "the paper cannot be read from the corpus"
				if p != nil {
					pv.Why = "no passage with this id in the paper as stored now (re-ingested since the run?)"
				}
			}
			sp := gold.Spans(text)
			pv.HasGold = len(sp) > 0
			pv.Text = highlight(text, sp, label)
			got = append(got, text)
			col.Passages = append(col.Passages, pv)
		}
		col.Retrievers = strings.Join(slices.Sorted(maps.Keys(retr)), ", ")
		if (len(col.Passages) > 0 || spec.NeedsIndex()) && gold != nil && !gold.Empty() {
			unknown := 0
			for _, pv := range col.Passages {
				if pv.Unavailable {
					unknown++
				}
			}
			if unknown > 0 {
				col.GoldUnknown = fmt.Sprintf("%d of the %d passages this mode got cannot be read, so which gold evidence it retrieved is not known here.", unknown, len(col.Passages))
			} else {
				sc := gold.Score(got)
				for i, fr := range sc.FirstRank {
					if fr == 0 && i < len(locs) {
						col.NotRetrieved = append(col.NotRetrieved, locView(r, q.PaperID, p, locs[i]))
					}
				}
			}
		}
		for _, w := range rec.Web {
			col.Web = append(col.Web, webView{WebItem: w, Href: safeHref(w.URL)})
		}
		d.Modes = append(d.Modes, col)
	}
	d.RunSel = sel
	return d, true
}

// staleNote warns when a paper was re-ingested after the run started: the
// passages shown may not be the ones the run was given.
func staleNote(r *Run, p *paper) string {
	if p == nil || r.started.IsZero() || !p.Doc.IngestedAt.After(r.started) {
		return ""
	}
	return fmt.Sprintf("Paper %s was ingested again at %s, after this run started (%s): the passages shown may differ from what the run was given.",
		p.Doc.PaperID, p.Doc.IngestedAt.Format("2006-01-02 15:04"), r.started.Format("2006-01-02 15:04"))
}

func locate(g *evidence.Gold, p *paper) []evidence.Location {
	var ids, texts []string
	if p != nil {
		for _, x := range p.Passages {
			ids, texts = append(ids, x.PassageID), append(texts, x.Text)
		}
	}
	return g.Locate(ids, texts)
}

func locView(r *Run, pid string, p *paper, l evidence.Location) goldLoc {
	g := goldLoc{Sentence: l.Sentence, Found: l.PassageID != "", PassageID: l.PassageID, Coverage: l.Coverage, Ordinal: l.Ordinal}
	if g.Found {
		g.URL = passageURL(r, pid, l.PassageID)
		if p != nil && l.Ordinal >= 0 && l.Ordinal < len(p.Passages) {
			x := p.Passages[l.Ordinal]
			g.Section, g.Start, g.End = x.Section, x.Start, x.End
		}
	}
	return g
}

// ---- paper view ----

type paperQ struct {
	ID, URL     string
	Found, Gold int
}

type paperData struct {
	Title     string
	Run       *Run
	PaperID   string
	Doc       corpus.Document
	Source    string
	Passages  []passView
	Questions []paperQ
	NotFound  []goldLoc
	ListURL   string
	Missing   bool
	Stale     string
}

func (s *Site) paperPage(req *http.Request, runID, pid string) (any, bool) {
	r := s.Run(runID)
	if r == nil {
		return nil, false
	}
	qs, ok := r.byPaper[pid]
	if !ok {
		return nil, false
	}
	d := paperData{Title: pid + " · " + r.Name, Run: r, PaperID: pid, ListURL: runURL(r)}
	p := s.papers.get(r.home, pid)
	if p == nil {
		d.Missing = true
		return d, true
	}
	d.Doc, d.Source, d.Stale = p.Doc, filepath.Base(p.Doc.Source), staleNote(r, p)
	var golds []*evidence.Gold
	var owner []string // question id of each merged sentence
	var qi []int       // index into d.Questions of each merged sentence
	for _, q := range qs {
		pq := paperQ{ID: q.ID, URL: questionURL(r, q.ID)}
		if g := q.Gold(); g != nil {
			golds = append(golds, g)
			for range g.Sentences {
				owner, qi = append(owner, q.ID), append(qi, len(d.Questions))
			}
			pq.Gold = len(g.Sentences)
		}
		d.Questions = append(d.Questions, pq)
	}
	// One merged gold: the paper's passages are matched once for all its
	// questions, not once per question.
	all := evidence.Merge(golds...)
	for i, l := range locate(all, p) {
		pq := &d.Questions[qi[i]]
		if l.PassageID != "" {
			pq.Found++
			continue
		}
		lv := locView(r, pid, p, l)
		lv.Q, lv.QURL = pq.ID, pq.URL
		d.NotFound = append(d.NotFound, lv)
	}
	label := func(ss []int) string {
		seen := map[string]bool{}
		var ids []string
		for _, i := range ss {
			if i < len(owner) && !seen[owner[i]] {
				seen[owner[i]] = true
				ids = append(ids, owner[i])
			}
		}
		return "gold evidence of " + strings.Join(ids, ", ")
	}
	for _, x := range p.Passages {
		sp := all.Spans(x.Text)
		d.Passages = append(d.Passages, passView{ID: x.PassageID, URL: "#" + anchor(x.PassageID), Section: x.Section, Tokens: x.Tokens,
			Start: x.Start, End: x.End, Text: highlight(x.Text, sp, label), HasGold: len(sp) > 0, Rank: x.Ordinal})
	}
	return d, true
}
