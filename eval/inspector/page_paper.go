package inspector

import (
	"net/http"
	"path/filepath"
	"strings"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

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

// paperPage is a paper's passages with the gold evidence of all its
// questions marked, and the gold sentences no passage holds.
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
	g := mergeGold(r, qs)
	d.Questions = g.questions
	// One merged gold: the paper's passages are matched once for all its
	// questions, not once per question.
	for i, l := range locate(g.all, p) {
		pq := &d.Questions[g.qi[i]]
		if l.PassageID != "" {
			pq.Found++
			continue
		}
		lv := locView(r, pid, p, l)
		lv.Q, lv.QURL = pq.ID, pq.URL
		d.NotFound = append(d.NotFound, lv)
	}
	for _, x := range p.Passages {
		sp := g.all.Spans(x.Text)
		d.Passages = append(d.Passages, passView{ID: x.PassageID, URL: "#" + anchor(x.PassageID), Section: x.Section, Kind: string(x.KindOf()), Tokens: x.Tokens,
			Start: x.Start, End: x.End, Text: highlight(x.Text, sp, g.label), HasGold: len(sp) > 0, Rank: x.Ordinal})
	}
	return d, true
}

// paperGold is the gold evidence of a paper's questions merged into one,
// with each merged sentence's question.
type paperGold struct {
	all       *evidence.Gold
	questions []paperQ
	owner     []string // question id of each merged sentence
	qi        []int    // index into questions of each merged sentence
}

func mergeGold(r *Run, qs []*Question) paperGold {
	var g paperGold
	var golds []*evidence.Gold
	for _, q := range qs {
		pq := paperQ{ID: q.ID, URL: questionURL(r, q.ID)}
		if qg := q.Gold(); qg != nil {
			golds = append(golds, qg)
			for range qg.Sentences {
				g.owner, g.qi = append(g.owner, q.ID), append(g.qi, len(g.questions))
			}
			pq.Gold = len(qg.Sentences)
		}
		g.questions = append(g.questions, pq)
	}
	g.all = evidence.Merge(golds...)
	return g
}

// label names the questions whose gold sentences a highlight matches.
func (g paperGold) label(ss []int) string {
	seen := map[string]bool{}
	var ids []string
	for _, i := range ss {
		if i < len(g.owner) && !seen[g.owner[i]] {
			seen[g.owner[i]] = true
			ids = append(ids, g.owner[i])
		}
	}
	return "gold evidence of " + strings.Join(ids, ", ")
}
