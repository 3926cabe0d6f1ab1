// Package browsertest drives one headless Chromium per test binary over the
// DevTools protocol (github.com/chromedp/chromedp), for tests that check
// what a person sees: that a page's scripts do not run, that no two text
// boxes of a figure intersect, that a page does not overflow a viewport.
//
// A package's tests share one browser and its one tab, taking turns:
// starting Chromium costs about 2 s of CPU and each further tab a renderer
// process and about 0.3 s more, and a process, then a tab, per page made
// browser tests most of a package's time on two cores. Each page a test
// reads is a new document loaded in the tab, at the viewport the test
// asks for, while the test holds its turn, so nothing of another test's
// page is left in it. TestMain calls Stop once every test has finished.
//
// Without Chromium on PATH the tests skip, except under CI ($CI set),
// where .ci/run installs Debian's chromium and a missing one is a failure.
package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TabTimeout bounds one page: a navigation that never loads fails its test
// instead of hanging the package until go test's own timeout.
const TabTimeout = 90 * time.Second

// DefaultWidth and DefaultHeight are the viewport of a page read without
// one of its own (DOM): the width the inspector is designed for.
const DefaultWidth, DefaultHeight = 1400, 2400

var chrome struct {
	once   sync.Once
	tab    context.Context // the browser's first and only tab
	turn   sync.Mutex      // held while a test loads and reads a page
	stop   func()
	err    error
	output lockedBuffer // what Chromium printed, for error messages
}

// Path returns the Chromium binary ($PAPERLENS_CHROMIUM, else chromium,
// chromium-browser or google-chrome on PATH), or skips the test (fails it
// under CI) when there is none.
func Path(t testing.TB) string {
	t.Helper()
	for _, name := range []string{os.Getenv("PAPERLENS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: .ci/run installs Debian's chromium for the browser tests")
	}
	t.Skip("no chromium on PATH (apt-get install chromium); browser tests skipped")
	return ""
}

// browser starts Chromium on first use, with the flags this machine's
// closed network needs, and returns its tab.
func browser(t testing.TB) context.Context {
	t.Helper()
	bin := Path(t)
	chrome.once.Do(func() {
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(bin),
			chromedp.Flag("headless", true),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.NoSandbox,
			chromedp.Flag("disable-gpu", true),
			chromedp.Flag("disable-quic", true),
			chromedp.NoFirstRun,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			// chromedp adds a fresh --user-data-dir, removed when the
			// browser stops, and talks to it over a pipe, not a port.
			chromedp.CombinedOutput(&chrome.output),
		}
		alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, stopCtx := chromedp.NewContext(alloc)
		chrome.tab = ctx
		chrome.stop = func() { stopCtx(); stopAlloc() }
		// The start itself cannot take a timeout (it would bound the
		// browser's whole life), so a timer kills a browser that hangs.
		timer := time.AfterFunc(TabTimeout, stopAlloc)
		err := chromedp.Do(ctx)
		if !timer.Stop() {
			err = fmt.Errorf("not started after %v: %w", TabTimeout, err)
		}
		if err != nil {
			chrome.err = fmt.Errorf("start chromium %s: %w\n%s", bin, err, chrome.output.tail(4000))
		}
	})
	if chrome.err != nil {
		t.Fatal(chrome.err)
	}
	return chrome.tab
}

// Stop kills the shared Chromium, if a test started it, and removes its
// profile.
func Stop() {
	if chrome.stop != nil {
		chrome.stop()
	}
}

// InTab loads url in the shared browser's tab, in this test's turn, after
// setup (a viewport of DefaultWidth x DefaultHeight when setup is empty,
// so that no page inherits another test's), and returns what get reads
// from the loaded page. Navigate returns once the load event of the new
// document fired, after the page's scripts ran.
func InTab[T any](t testing.TB, url string, setup []chromedp.Action[chromedp.Void], get chromedp.Action[T]) T {
	t.Helper()
	tab := browser(t)
	if len(setup) == 0 {
		setup = []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(DefaultWidth, DefaultHeight)}
	}
	chrome.turn.Lock()
	defer chrome.turn.Unlock()
	ctx, cancel := context.WithTimeout(tab, TabTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, append(setup, chromedp.Navigate(url))...); err != nil {
		t.Fatalf("chromium: load %s: %v\n%s", url, err, chrome.output.tail(4000))
	}
	v, err := chromedp.Run(ctx, get)
	if err != nil {
		t.Fatalf("chromium: read %s: %v", url, err)
	}
	return v
}

// DOM returns the document as the browser holds it once the page has
// loaded, after any script ran: what chromium --dump-dom prints.
func DOM(t testing.TB, url string) string {
	t.Helper()
	return InTab(t, url, nil, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
}

// Box is the rectangle of one element's text on the page, in CSS pixels.
type Box struct {
	Text                string
	X, Y, Width, Height float64
}

// Intersects reports whether b and o overlap by more than tol pixels in
// both directions (anti-aliasing and rounding touch by a fraction).
func (b Box) Intersects(o Box, tol float64) bool {
	return b.X+tol < o.X+o.Width && o.X+tol < b.X+b.Width &&
		b.Y+tol < o.Y+o.Height && o.Y+tol < b.Y+b.Height
}

// textBoxesJS measures every non-empty text run of the elements selector
// matches: SVG text by its bounding client rect, HTML text nodes by a
// Range over them (an element's own box is wider than its text).
const textBoxesJS = `(() => {
  const out = [];
  for (const el of document.querySelectorAll(%q)) {
    const text = (el.textContent || '').trim();
    if (!text) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    out.push({Text: text, X: r.x + window.scrollX, Y: r.y + window.scrollY, Width: r.width, Height: r.height});
  }
  return out;
})()`

// TextBoxes loads url at the given viewport and returns the boxes of the
// elements selector matches (e.g. "svg text").
func TextBoxes(t testing.TB, url string, width, height int64, selector string) []Box {
	t.Helper()
	return InTab(t, url, []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(width, height)},
		chromedp.Evaluate[[]Box](fmt.Sprintf(textBoxesJS, selector)))
}

// Overlaps returns the pairs of boxes that intersect by more than tol.
func Overlaps(boxes []Box, tol float64) [][2]Box {
	var out [][2]Box
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			if boxes[i].Intersects(boxes[j], tol) {
				out = append(out, [2]Box{boxes[i], boxes[j]})
			}
		}
	}
	return out
}

// ScrollWidth loads url at the given viewport and returns the document's
// scroll width and the viewport's width: the page overflows horizontally
// when the first exceeds the second.
func ScrollWidth(t testing.TB, url string, width, height int64) (scroll, viewport int64) {
	t.Helper()
	v := InTab(t, url, []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(width, height)},
		chromedp.Evaluate[[2]int64](`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`))
	return v[0], v[1]
}

// Screenshot returns a PNG of a width x height viewport of the page.
func Screenshot(t testing.TB, url string, width, height int64) []byte {
	t.Helper()
	return InTab(t, url, []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(width, height)}, chromedp.CaptureScreenshot())
}

// lockedBuffer collects Chromium's output, written from chromedp's
// goroutines while a test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) tail(n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	if len(s) > n {
		s = s[len(s)-n:]
	}
	return s
}
