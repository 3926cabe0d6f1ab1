package inspector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/paperlens/paperlens/internal/testkit/browsertest"
)

// The layout checks load pages of a twelve-mode run in headless Chromium
// at a laptop's width: a new user found the question page overflowing at
// eight modes even at 2,800 px, so the number of modes must not set the
// page's width.

// overflowJS finds what sticks out past the viewport's right edge: every
// element whose box ends past it, unless it sits inside a piece of
// content that scrolls on its own (a pre, a passage's text) and is itself
// in the viewport. A strip of mode columns or a table that scrolls
// sideways is an offender: it is the page's width problem moved into a
// box.
const overflowJS = `(() => {
  const vw = document.documentElement.clientWidth;
  const own = el => el.matches('pre, .text') && getComputedStyle(el).overflowX !== 'visible';
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= vw + 1) continue;
    let boxed = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (own(a) && a.getBoundingClientRect().right <= vw + 1) { boxed = true; break; }
    }
    if (!boxed) out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ' right=' + Math.round(r.right));
  }
  return out.slice(0, 12);
})()`

// TestTwelveModesFit: at 1,400 px the question page, the runs page and
// the question list of a twelve-mode run fit the viewport, whatever
// unbroken text the records hold.
func TestTwelveModesFit(t *testing.T) {
	srv := serveTwelve(t, true)
	const w, h = 1400, 900
	for _, page := range []string{"/r/1/q/q1", "/r/1/q/q1?mode=full,bm25", "/", "/r/1/", "/r/1/q/" + longID, "/r/1/paper/evil"} {
		t.Run(strings.ReplaceAll(page, "/", "_"), func(t *testing.T) {
			if code, body, _ := get(t, srv, page); code != 200 {
				t.Fatalf("GET %s = %d\n%.2000s", page, code, body)
			}
			scroll, view := browsertest.ScrollWidth(t, srv.URL+page, w, h)
			if view != w || scroll > view {
				t.Errorf("document scroll width %d, viewport %d: the page overflows", scroll, view)
			}
			off := browsertest.InTab(t, srv.URL+page, []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(w, h)}, chromedp.Evaluate[[]string](overflowJS))
			if len(off) > 0 {
				t.Errorf("past the right edge of a %d px viewport: %v", w, off)
			}
		})
	}
}

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

// TestScreenshot saves the question page of the twelve-mode run for the
// README's tour, when $PAPERLENS_SCREENSHOTS is set.
func TestScreenshot(t *testing.T) {
	if os.Getenv("PAPERLENS_SCREENSHOTS") == "" {
		t.Skip("set PAPERLENS_SCREENSHOTS to write docs/img/inspector.png")
	}
	srv := serveTwelve(t, false)
	// q3: the fixture's plain paper, not the one full of markup.
	png := browsertest.Screenshot(t, srv.URL+"/r/1/q/q3", 1400, 900)
	if len(png) > 300<<10 {
		t.Fatalf("screenshot is %d KB, over the README's 300 KB", len(png)>>10)
	}
	out := filepath.Join("..", "..", "docs", "img", "inspector.png")
	must(t, os.MkdirAll(filepath.Dir(out), 0o755))
	must(t, os.WriteFile(out, png, 0o644))
	t.Logf("wrote %s (%d KB)", out, len(png)>>10)
}
