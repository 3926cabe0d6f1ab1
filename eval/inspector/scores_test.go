package inspector

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// columns are the modes of a question page's columns, in page order.
func columns(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`data-mode="([^"]+)"`).FindAllStringSubmatch(body, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// column is one mode's column of a question page: from its data-mode
// to the next column's ("" when the page has no such column).
func column(body, mode string) string {
	at := regexp.MustCompile(`data-mode="([^"]+)"`).FindAllStringSubmatchIndex(body, -1)
	for i, m := range at {
		if html.UnescapeString(body[m[2]:m[3]]) != mode {
			continue
		}
		if i+1 < len(at) {
			return body[m[0]:at[i+1][0]]
		}
		return body[m[0]:]
	}
	return ""
}

// A passage shows a score only when its retriever ranked it by one: the
// passages search_paper returned under agent have none, and evidence
// recall is a percentage with one decimal, as in the summary table.
func TestScoresAndUnits(t *testing.T) {
	srv := serveTwelve(t, false)
	_, body, _ := get(t, srv, "/r/1/q/q1")
	if got := columns(body); !slices.Equal(got, twelveModes) {
		t.Fatalf("columns %v, want the twelve modes", got)
	}
	bm25, agentCol := column(body, "bm25"), column(body, "agent")
	for _, want := range []string{
		`#1</span><span class="score">score 12.3456</span><span>bm25</span>`,
		`<h4>Retrieved passages (rank order)</h4>`,
		`evidence recall: <strong>50.0%</strong>`,
	} {
		if !strings.Contains(bm25, want) {
			t.Errorf("bm25 column lacks %s", want)
		}
	}
	for _, want := range []string{
		`#1</span><span class="score none" title="search_paper returns passages without a retrieval score">score –</span><span>search_paper</span>`,
		`<h4>Passages the tools returned (in the order first shown)</h4>`,
		`evidence recall: <strong>100.0%</strong>`,
	} {
		if !strings.Contains(agentCol, want) {
			t.Errorf("agent column lacks %s", want)
		}
	}
	if strings.Contains(agentCol, "score 0.0000") {
		t.Error("agent passages show a score of 0")
	}
}
