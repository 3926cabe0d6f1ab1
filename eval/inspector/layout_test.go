package inspector

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/paperlens/paperlens/internal/testkit/browsertest"
)

// routeFieldsJS reads self-route's call boxes: each field's label and
// value as the elements that hold them, and their boxes.
const routeFieldsJS = `(() => {
  const out = [];
  for (const call of document.querySelectorAll('[data-mode="self-route"] .route-call')) {
    const fields = [];
    for (const el of call.querySelectorAll('dl > dt, dl > dd')) {
      const r = el.getBoundingClientRect();
      fields.push({Text: el.textContent.trim(), X: r.x, Y: r.y, Width: r.width, Height: r.height});
    }
    out.push(fields);
  }
  return out;
})()`

// TestSelfRouteFieldsApart: each field of a self-route call is an element
// of its own, labelled, drawn apart from its neighbours (the box used to
// run them together: "tokensserver:").
func TestSelfRouteFieldsApart(t *testing.T) {
	srv := serveTwelve(t, true)
	calls := browsertest.InTab(t, srv.URL+"/r/1/q/q1?mode=self-route", []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(1400, 900)},
		chromedp.Evaluate[[][]browsertest.Box](routeFieldsJS))
	if len(calls) != 2 {
		t.Fatalf("%d self-route calls with fields, want 2: %+v", len(calls), calls)
	}
	want := [][]string{
		{"call", "rag", "prompt tokens", "400", "server tokens", "prompt 420 · completion 4", "cached", "yes", "read as", "unanswerable"},
		{"call", "full", "prompt tokens", "900", "server tokens", "prompt 930 · completion 4"},
	}
	for i, fields := range calls {
		var got []string
		for _, f := range fields {
			got = append(got, f.Text)
		}
		if strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("call %d fields %q, want %q", i+1, got, want[i])
		}
		if over := browsertest.Overlaps(fields, 0.5); len(over) > 0 {
			t.Errorf("call %d: fields drawn over each other: %+v", i+1, over)
		}
	}
}
