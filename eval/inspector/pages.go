package inspector

import (
	"fmt"
	"html/template"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/eval/run"
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
	"wbr":      wbr,
	"tok":      func(x float64) string { return strconv.Itoa(int(math.Round(x))) },
}

// What the pages share: template functions, links, marks and highlighting.

// wbr escapes a name and lets it break after each "+" and "-" (a
// "full+hybrid" heading has no other place to break, and a line may not
// break after "+" by default).
func wbr(s string) template.HTML {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(template.HTMLEscapeString(string(r)))
		if r == '+' || r == '-' {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}

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
