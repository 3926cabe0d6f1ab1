package inspector

import (
	"net/http"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/stats"
)

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
		row.Lo, row.Hi = stats.Wilson(st.Accuracy, st.N)
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
