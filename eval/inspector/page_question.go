package inspector

import (
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

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
	HasScore             bool // the retriever ranked it by a score (a tool's passages have none)
	Retriever            string
	ID, URL, Section     string
	Kind                 string // the passage's kind (body, references...); "" when unknown
	Tokens, Start, End   int
	Text                 template.HTML
	HasGold, Unavailable bool
	Why                  string // why the text is unavailable
	Expanded             bool   // added beside a hit by --expand
	Cited                bool   // the answer cites it
	Anchor               string // its element id in the page, for cite links
}

// citeLink is one passage an answer cites, linked to it in the column.
type citeLink struct {
	Label, ID, Href string
}

// routeView is self-route's path and each of its calls.
type routeView struct {
	Route string
	Calls []run.RouteCall
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
	PassagesTitle string // what the passages are: retrieved by rank, or what a tool returned
	Paper         bool   // the whole paper was in the prompt
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
	GoldUnknown   string          // why the retrieved gold cannot be told
	Transcript    *transcriptView // tool modes: the exchange step by step
	Route         *routeView      // self-route: which way it went, both calls
	Cited         []citeLink      // the passages the answer cites
	// Calls is how many model calls the record's prompt tokens and usage
	// sum over: a tool mode's turns, self-route's one or two calls; 0 for
	// the modes that make one. FirstTurnOnly marks a tool-mode record
	// written before paperlens summed the turns' prompts: its prompt
	// tokens are the first turn's alone.
	Calls         int
	FirstTurnOnly bool
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
	// Chooser links each mode in or out of the modes shown (?mode=a,b);
	// AllURL shows every mode again, and All says every mode is shown.
	Chooser []modeLink
	AllURL  string
	All     bool
}

// modeLink is one mode in the question page's chooser: On when it is
// shown by choice, URL the page with it added or taken away.
type modeLink struct {
	Mode, URL string
	On        bool
}

// questionCtx is what every mode column of one question page shares.
type questionCtx struct {
	r    *Run
	q    *Question
	p    *paper // nil when the paper cannot be read from the corpus
	gold *evidence.Gold
	locs []evidence.Location // where each gold sentence is in the paper
	sel  int                 // the run asked for (?run=N)
	// chosen are the modes asked for (?mode=a,b), in the run's order;
	// none means every mode.
	chosen []string
}

// questionPage is one question with every mode in a grid that wraps (or
// those chosen, ?mode=a,b), each showing the run asked for or its first.
func (s *Site) questionPage(req *http.Request, runID, qid string) (any, bool) {
	r := s.Run(runID)
	if r == nil {
		return nil, false
	}
	q := r.byID[qid]
	if q == nil {
		return nil, false
	}
	c := questionCtx{r: r, q: q, p: s.papers.get(r.home, q.PaperID), gold: q.Gold()}
	c.sel, _ = strconv.Atoi(req.URL.Query().Get("run"))
	c.chosen = chosenModes(req.URL.Query().Get("mode"), r.Modes)
	d := c.header()
	for _, m := range r.Modes {
		if len(c.chosen) == 0 || slices.Contains(c.chosen, m) {
			d.Modes = append(d.Modes, c.column(m))
		}
	}
	d.RunSel = c.sel
	c.chooser(&d)
	return d, true
}

// chosenModes reads ?mode=a,b: the run's modes it names, in the run's
// order. A name the run lacks is dropped; when none is left, every mode
// is shown, so a mistyped or stale link still shows the question.
func chosenModes(q string, modes []string) []string {
	if q == "" {
		return nil
	}
	asked := strings.Split(q, ",")
	var out []string
	for _, m := range modes {
		if slices.Contains(asked, m) {
			out = append(out, m)
		}
	}
	return out
}

// chooser links each mode in or out of the page. With every mode shown,
// a mode's link shows it alone; with some chosen, it adds or takes away
// that one. Plain links: the inspector runs no script.
func (c *questionCtx) chooser(d *questionData) {
	d.All = len(c.chosen) == 0
	d.AllURL = c.link(c.q.ID, c.sel, nil)
	for _, m := range c.r.Modes {
		on := slices.Contains(c.chosen, m)
		next := []string{m}
		switch {
		case on:
			next = slices.DeleteFunc(slices.Clone(c.chosen), func(x string) bool { return x == m })
		case !d.All: // the chosen ones and m, in the run's order
			next = slices.DeleteFunc(slices.Clone(c.r.Modes), func(x string) bool { return x != m && !slices.Contains(c.chosen, x) })
		}
		d.Chooser = append(d.Chooser, modeLink{Mode: m, On: on, URL: c.link(c.q.ID, c.sel, next)})
	}
}

// link is a question page's URL keeping the run and the modes chosen,
// so that moving between runs and questions keeps the chooser's choice.
// Mode names are escaped one by one ("+" would read as a space) and
// joined with a bare comma, so the address stays readable.
func (c *questionCtx) link(qid string, runN int, modes []string) string {
	var q []string
	if runN > 0 {
		q = append(q, "run="+strconv.Itoa(runN))
	}
	if len(modes) > 0 {
		esc := make([]string, len(modes))
		for i, m := range modes {
			esc[i] = url.QueryEscape(m)
		}
		q = append(q, "mode="+strings.Join(esc, ","))
	}
	u := questionURL(c.r, qid)
	if len(q) > 0 {
		u += "?" + strings.Join(q, "&")
	}
	return u
}

// header fills the page but for its mode columns: neighbours, the
// question, its paper and where its gold evidence is.
func (c *questionCtx) header() questionData {
	r, q, p := c.r, c.q, c.p
	d := questionData{Title: q.ID + " · " + r.Name, Run: r, Q: q, ListURL: runURL(r), PaperURL: paperURL(r, q.PaperID)}
	if q.Index > 0 {
		d.Prev = c.link(r.Questions[q.Index-1].ID, c.sel, c.chosen)
	}
	if q.Index+1 < len(r.Questions) {
		d.Next = c.link(r.Questions[q.Index+1].ID, c.sel, c.chosen)
	}
	for _, f := range slices.Sorted(maps.Keys(q.Breakdown)) {
		d.Breakdown = append(d.Breakdown, [2]string{f, q.Breakdown[f]})
	}
	if len(q.MCQ.Options) > 0 {
		d.Stem = q.MCQ.Stem
		d.Options = q.MCQ.OptionLines()
	}
	if p != nil {
		d.PaperTitle = p.Doc.Title
	}
	d.Stale = staleNote(r, p)
	if c.gold != nil && !c.gold.Empty() {
		c.locs = locate(c.gold, p)
		for _, l := range c.locs {
			d.Gold = append(d.Gold, locView(r, q.PaperID, p, l))
		}
	}
	return d
}

// column is one mode's record: its runs, the passages, gold excerpt or
// web results it was given, and the gold evidence it did not retrieve.
func (c *questionCtx) column(m string) modeCol {
	spec, _ := mode.Lookup(m)
	col := modeCol{Mode: m, Kind: mode.KindOf(m), Paper: spec.AlwaysPaper()}
	if c.p != nil {
		col.PaperTokens = c.p.Doc.Tokens
	}
	rs := c.q.Records[m]
	if len(rs) == 0 {
		return col
	}
	rec := c.pickRun(&col, rs)
	col.Rec = &rec
	col.Mark, col.Class = mark(rec)
	if rec.Recall != nil {
		// One unit for recall in every view: percent, one decimal, as
		// in the run's summary table.
		col.RecallPercent = run.Percent(*rec.Recall) + "%"
	}
	got := c.passages(&col, rec)
	if (len(col.Passages) > 0 || spec.NeedsIndex()) && c.gold != nil && !c.gold.Empty() {
		c.notRetrieved(&col, got)
	}
	col.Transcript = c.transcript(rec.Transcript)
	if tr := rec.Transcript; tr != nil {
		col.Calls = len(tr.Steps)
		col.FirstTurnOnly = tr.PromptTokens == 0 && len(tr.Steps) > 1
	}
	if rec.Route != "" {
		col.Calls = len(rec.RouteCalls)
		col.Route = &routeView{Route: rec.Route, Calls: rec.RouteCalls}
		col.Paper = rec.Route == run.RouteFull // the paper was in the second prompt
	}
	c.cites(&col, rec)
	for _, w := range rec.Web {
		col.Web = append(col.Web, webView{WebItem: w, Href: safeHref(w.URL)})
	}
	return col
}

// pickRun links every run of the mode and returns the one asked for, or
// the first.
func (c *questionCtx) pickRun(col *modeCol, rs []run.Record) run.Record {
	pick := 0
	for i, x := range rs {
		mk, cl := mark(x)
		if x.Run == c.sel {
			pick = i
		}
		col.Runs = append(col.Runs, runLink{Run: x.Run, Marks: mk, Class: cl, URL: c.link(c.q.ID, x.Run, c.chosen)})
	}
	col.Runs[pick].Selected = true
	return rs[pick]
}

// passages shows the paper's passages the record was given, in rank
// order with the gold evidence marked, and returns their texts ("" for
// one that cannot be read).
func (c *questionCtx) passages(col *modeCol, rec run.Record) []string {
	var got []string
	retr := map[string]bool{}
	scored := 0
	for _, ci := range rec.Context {
		switch {
		case ci.Retriever == "web":
			continue
		case ci.PassageID == "gold":
			col.Oracle = c.q.Evidence
			continue
		}
		retr[ci.Retriever] = true
		pv, text := c.passage(ci)
		pv.Expanded, pv.Anchor = ci.Expanded, passageAnchor(col.Mode, ci.PassageID)
		if pv.HasScore {
			scored++
		}
		got = append(got, text)
		col.Passages = append(col.Passages, pv)
	}
	col.Retrievers = strings.Join(slices.Sorted(maps.Keys(retr)), ", ")
	col.PassagesTitle = "Retrieved passages (rank order)"
	if scored == 0 && len(col.Passages) > 0 {
		col.PassagesTitle = "Passages the tools returned (in the order first shown)"
	}
	return got
}

// hasScore reports whether a context item was ranked by a retrieval
// score. A tool's passages (search_paper under agent) are listed in the
// order the model first saw them and record 0, which is no score; a
// neighbour --expand added records its hit's rank and 0 too.
func hasScore(ci run.ContextItem) bool {
	if ci.Expanded {
		return false
	}
	switch ci.Retriever {
	case mode.ToolSearchPaper, mode.ToolWebSearch, mode.ToolOpenPage, mode.ToolPythonCell:
		return false
	}
	return true
}

func (c *questionCtx) passage(ci run.ContextItem) (passView, string) {
	pv := passView{Rank: ci.Rank, Score: ci.Score, HasScore: hasScore(ci), Retriever: ci.Retriever, ID: ci.PassageID, URL: passageURL(c.r, c.q.PaperID, ci.PassageID)}
	var text string
	if c.p != nil {
		if i, ok := c.p.ord[ci.PassageID]; ok {
			ps := c.p.Passages[i]
			text, pv.Section, pv.Tokens, pv.Start, pv.End = ps.Text, ps.Section, ps.Tokens, ps.Start, ps.End
			pv.Kind = string(ps.KindOf())
		}
	}
	if text == "" {
		pv.Unavailable = true
		pv.Why = "the paper cannot be read from the corpus"
		if c.p != nil {
			pv.Why = "no passage with this id in the paper as stored now (re-ingested since the run?)"
		}
	}
	sp := c.gold.Spans(text)
	pv.HasGold = len(sp) > 0
	pv.Text = highlight(text, sp, goldSentences)
	return pv, text
}

// goldSentences names the gold sentences a highlight matches.
func goldSentences(ss []int) string {
	var parts []string
	for _, i := range ss {
		parts = append(parts, fmt.Sprintf("gold sentence %d", i+1))
	}
	return strings.Join(parts, ", ")
}

// notRetrieved lists the gold sentences none of the passages got holds,
// or says why that cannot be told.
func (c *questionCtx) notRetrieved(col *modeCol, got []string) {
	unknown := 0
	for _, pv := range col.Passages {
		if pv.Unavailable {
			unknown++
		}
	}
	if unknown > 0 {
		col.GoldUnknown = fmt.Sprintf("%d of the %d passages this mode got cannot be read, so which gold evidence it retrieved is not known here.", unknown, len(col.Passages))
		return
	}
	sc := c.gold.Score(got)
	for i, fr := range sc.FirstRank {
		if fr == 0 && i < len(c.locs) {
			col.NotRetrieved = append(col.NotRetrieved, locView(c.r, c.q.PaperID, c.p, c.locs[i]))
		}
	}
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

// cites marks the passages the answer cites and links each to its place
// in the column.
func (c *questionCtx) cites(col *modeCol, rec run.Record) {
	at := map[string]int{}
	for i, pv := range col.Passages {
		at[pv.ID] = i
	}
	for _, id := range rec.Cited {
		l := citeLink{Label: "p" + id[strings.LastIndexByte(id, '#')+1:], ID: id}
		if i, ok := at[id]; ok {
			col.Passages[i].Cited = true
			l.Href = "#" + col.Passages[i].Anchor
		}
		col.Cited = append(col.Cited, l)
	}
}

// passageAnchor is an element id for a passage in a mode's column: letters,
// digits and dashes, so that it works as a URL fragment as is.
func passageAnchor(mode, passageID string) string {
	var b strings.Builder
	b.WriteString("psg-")
	for _, r := range mode + "-" + passageID {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}
