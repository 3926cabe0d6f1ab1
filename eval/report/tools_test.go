package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/run"
)

// agentRecords are eight agent records: calls 0,0,1,1,2,3,4,6, right on
// 0 (first), 1 (both), 2–3 (one of two), none past 3.
func agentRecords() []run.Record {
	calls := []int{0, 0, 1, 1, 2, 3, 4, 6}
	right := []bool{true, false, true, true, true, false, false, false}
	var out []run.Record
	for i, c := range calls {
		out = append(out, run.Record{QuestionID: "t" + string(rune('0'+i)), Mode: "agent", Run: 1, Correct: right[i],
			Transcript: &agent.Transcript{ToolCalls: c, CutOff: c >= 6}})
	}
	// A record without a transcript (failed before the loop) and a
	// retrieval mode's record are not counted.
	out = append(out, run.Record{QuestionID: "t9", Mode: "agent", Run: 1, Error: "timeout"},
		run.Record{QuestionID: "t0", Mode: "bm25", Run: 1, Correct: true})
	return out
}

func TestBuildTools(t *testing.T) {
	cases := []struct {
		name string
		recs []run.Record
		want []toolRow
	}{
		{"agent", agentRecords(), []toolRow{{Model: "m", Mode: "agent", N: 8, MeanCalls: "2.12", NoTool: "25.0",
			ByCalls: []string{"50.0 (2)", "100.0 (2)", "50.0 (2)", "0.0 (2)"}}}},
		{"no tool mode", []run.Record{{Mode: "bm25", Correct: true}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := buildTools([]Run{{Records: c.recs}}, []string{"m"})
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				g, w := got[i], c.want[i]
				if g.Model != w.Model || g.Mode != w.Mode || g.N != w.N || g.MeanCalls != w.MeanCalls || g.NoTool != w.NoTool || !slices.Equal(g.ByCalls, w.ByCalls) {
					t.Errorf("row %d: got %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// The tool section appears in both formats for a run with a tool mode,
// and not at all for runs without one.
func TestToolSection(t *testing.T) {
	dir := writeRun(t, "agentic", 0.5)
	f, err := os.OpenFile(filepath.Join(dir, "results.jsonl"), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range agentRecords() {
		r.Model = "agentic"
		b, _ := json.Marshal(r)
		f.Write(append(b, '\n'))
	}
	f.Close()
	cases := []struct {
		name     string
		dirs     []string
		md, html []string
		absent   bool
	}{
		{"tool mode", []string{dir},
			[]string{"## 10. " + hTools, "| model | mode | n | calls/q | no tool % | 0 calls: acc % | 1 calls: acc % | 2–3 calls: acc % | 4+ calls: acc % |", "| agentic | agent | 8 | 2.12 | 25.0 | 50.0 (2) | 100.0 (2) | 50.0 (2) | 0.0 (2) |"},
			[]string{"<h2>10. " + hTools + "</h2>", "<td class=\"l\">agent</td><td>8</td><td>2.12</td><td>25.0</td><td>50.0 (2)</td><td>100.0 (2)</td><td>50.0 (2)</td><td>0.0 (2)</td>"}, false},
		{"no tool mode", []string{writeRun(t, "ir", 0.5)}, nil, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs, err := Load(c.dirs...)
			if err != nil {
				t.Fatal(err)
			}
			var md, h bytes.Buffer
			if err := Markdown(&md, runs); err != nil {
				t.Fatal(err)
			}
			if err := HTML(&h, runs); err != nil {
				t.Fatal(err)
			}
			if c.absent && (strings.Contains(md.String(), hTools) || strings.Contains(h.String(), hTools)) {
				t.Errorf("tool section shown without a tool mode")
			}
			for _, w := range c.md {
				if !strings.Contains(md.String(), w) {
					t.Errorf("Markdown lacks %q\n%s", w, md.String())
				}
			}
			for _, w := range c.html {
				if !strings.Contains(h.String(), w) {
					t.Errorf("HTML lacks %q", w)
				}
			}
		})
	}
}
