package report

import (
	"strings"
	"testing"
)

// TestMarkdownSections: each section writer, on an empty page and on one
// with a row, says what it has or that it has nothing, escaping the names
// from the files.
func TestMarkdownSections(t *testing.T) {
	for _, tc := range []struct {
		name    string
		write   func(*strings.Builder, *page)
		p       page
		want    []string
		notWant []string
	}{
		{"runs: protocol and incomplete", writeRunsMarkdown,
			page{Runs: []runInfo{{Model: "a|b", Dir: "d", Records: "3"}}, Incomplete: []string{"d: 2 missing"},
				Protocol: []protocolInfo{{Model: "a", Dir: "d", Lines: []string{"k: 3 here"}}}},
			[]string{"| a\\|b | d |", "**Incomplete run** d: 2 missing", "## Protocol", "- k: 3 here"}, nil},
		{"runs: no protocol", writeRunsMarkdown, page{}, []string{"| model | folder |"}, []string{"## Protocol", "Incomplete"}},
		{"accuracy with cost", writeAccuracyMarkdown,
			page{Acc: accTable{Types: []string{"SA"}, HasCost: true, Rows: []accRow{{Model: "m", Mode: "full", Cells: []string{"50.0"}, Overall: "50.0", N: 4, Cost: "1.00"}}}},
			[]string{"| model | mode | SA | overall |", "| cost US$ |", "| **50.0** | 4 |", "| 1.00 |", "at the run's --price"}, nil},
		{"accuracy without cost", writeAccuracyMarkdown, page{}, []string{"## 1. "}, []string{"cost US$", "--price"}},
		{"no effects", writeEffectsMarkdown, page{}, []string{"No run has effects against a baseline."}, nil},
		{"effects", writeEffectsMarkdown, page{Effects: []effectBlock{{Model: "m", Baseline: "full", Rows: []effectRow{{Mode: "bm25", Diff: "-5.0", N: 9}}}}},
			[]string{"### m (baseline: full)", "| bm25 | -5.0 |"}, []string{"No run has effects"}},
		{"no tokens", writeTokensMarkdown, page{}, []string{"No mode has a prompt token count."}, []string{"plots"}},
		{"tokens, some left out", writeTokensMarkdown, page{Tokens: []tokenPoint{{Model: "m", Mode: "full", TokensS: "900", Source: "server", AccS: "50.0"}}, TokensTab: "Counted.", TokensOut: 2},
			[]string{"Counted. 2 mode(s) with no token count are left out. The HTML report plots these.", "| m | full | 900 | server | 50.0 |"}, nil},
		{"no recall", writeRecallMarkdown, page{}, []string{"No mode reports evidence recall."}, nil},
		{"recall", writeRecallMarkdown, page{Recall: []recallPoint{{Model: "m", Mode: "bm25", RecallS: "0.40", AccS: "50.0"}}}, []string{"| m | bm25 | 0.40 | 50.0 |"}, nil},
		{"no reasoning", writeReasoningMarkdown, page{}, []string{"No record carries reasoning text."}, nil},
		{"no reasoning by field", writeReasonByMarkdown, page{}, []string{"No run reports reasoning length by a breakdown field."}, nil},
		{"reasoning by field", writeReasonByMarkdown, page{ReasonBy: []reasonByTable{{Field: "difficulty", Values: []string{"easy"}, Rows: []reasonByRow{{Model: "m", Mode: "full", Cells: []string{"12 · 40"}}}}}},
			[]string{"### by difficulty", "| model | mode | easy |", "| m | full | 12 · 40 |"}, []string{"No run reports"}},
		{"no flips", writeFlipsMarkdown, page{}, []string{"No reasoning run has a base or cot run"}, nil},
		{"miss", writeMissMarkdown, page{Miss: missTable{Modes: []string{"full"}, Rows: []missRow{{Model: "m", Cells: []string{"10%"}}}}}, []string{"| model | full |", "| m | 10% |"}, nil},
		{"no tools: no section", writeToolsMarkdown, page{}, nil, []string{"## 10."}},
		{"tools", writeToolsMarkdown, page{Tools: []toolRow{{Model: "m", Mode: "agent", N: 8, MeanCalls: "2.12", NoTool: "25.0%", ByCalls: []string{"a", "b", "c", "d"}}}},
			[]string{"## 10. ", "| m | agent | 8 | 2.12 | 25.0% | a | b | c | d |"}, nil},
	} {
		var b strings.Builder
		tc.write(&b, &tc.p)
		out := b.String()
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: lacks %q:\n%s", tc.name, w, out)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(out, w) {
				t.Errorf("%s: has %q:\n%s", tc.name, w, out)
			}
		}
	}
}
