package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The browser tests share one headless Chromium for the whole package run,
// driven over the DevTools protocol, and its one tab, taking turns:
// starting Chromium costs ~2 s of CPU and each further tab a renderer
// process and ~0.3 s more, and a process, then a tab, per page made those
// tests most of the package's time on two cores. Each page a test reads
// is a new document loaded in the tab while the test holds its turn, so
// nothing of another test's page is left in it.
var chrome struct {
	once   sync.Once
	tab    context.Context // the browser's first and only tab
	turn   sync.Mutex      // held while a test loads and reads a page
	stop   func()
	err    error
	output lockedBuffer // what Chromium printed, for error messages
}

// tabTimeout bounds one page: a navigation that never loads fails its test
// instead of hanging the package until go test's own timeout.
const tabTimeout = 90 * time.Second

// The tab's viewport, for every page: the width the inspector is designed
// for, and tall enough to hold the first gold highlights of the question
// pages the tests take screenshots of (about 1150-1750 px down at this
// width). A taller one costs Chromium raster and PNG encoding and this
// process PNG decoding, for pixels no test looks at; the layout does not
// change the DOM that dumpDOM reads.
const viewWidth, viewHeight = 1400, 2400

// sharedBrowser starts Chromium on first use, with the flags this machine's
// closed network needs, and returns its tab.
func sharedBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromiumPath(t)
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
		timer := time.AfterFunc(tabTimeout, stopAlloc)
		err := chromedp.Do(ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
		if !timer.Stop() {
			err = fmt.Errorf("not started after %v: %w", tabTimeout, err)
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

// stopBrowser kills the shared Chromium, if a test started it, and removes
// its profile. TestMain calls it once every test has finished.
func stopBrowser() {
	if chrome.stop != nil {
		chrome.stop()
	}
}

// inTab loads url in the shared browser's tab, in this test's turn, and
// returns what get reads from the loaded page. Navigate returns once the
// load event of the new document fired: the inspector's pages have no
// scripts, so the DOM and the layout are final by then.
func inTab[T any](t *testing.T, url string, get chromedp.Action[T]) T {
	t.Helper()
	tab := sharedBrowser(t)
	chrome.turn.Lock()
	defer chrome.turn.Unlock()
	ctx, cancel := context.WithTimeout(tab, tabTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("chromium: load %s: %v\n%s", url, err, chrome.output.tail(4000))
	}
	v, err := chromedp.Run(ctx, get)
	if err != nil {
		t.Fatalf("chromium: read %s: %v", url, err)
	}
	return v
}

// dumpDOM returns the document as the browser holds it once the page has
// loaded, after any script ran: what chromium --dump-dom prints.
func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	return inTab(t, url, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
}

// screenshot saves a PNG of the tab's viewport (viewWidth x viewHeight) of
// the page to the test's folder (and to $PAPERLENS_SCREENSHOTS when set,
// to keep it) and returns its path.
func screenshot(t *testing.T, url, name string) string {
	t.Helper()
	png := inTab(t, url, chromedp.CaptureScreenshot())
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("PAPERLENS_SCREENSHOTS"); dir != "" && os.MkdirAll(dir, 0o755) == nil {
		os.WriteFile(filepath.Join(dir, name), png, 0o644)
	}
	t.Logf("screenshot: %s", path)
	return path
}

// lockedBuffer collects output written from several goroutines (an
// in-process command's workers and progress, Chromium's output through
// chromedp) while a test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
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

// TestBrowserRunsScripts guards what TestServeMaliciousPaper relies on: a
// page whose markup runs a script, inline or from an event handler, shows
// its effect in dumpDOM. Were scripts off, or the DOM read before the load
// event, that test could not catch an injected script.
func TestBrowserRunsScripts(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>clean</title>
<p>text</p><script>document.title='pwned'</script>
<img src="/missing.png" onerror="document.body.dataset.ran='onerror'">`)
	}))
	defer srv.Close()
	dom := dumpDOM(t, srv.URL+"/")
	for _, want := range []string{"<title>pwned</title>", `data-ran="onerror"`} {
		if !strings.Contains(dom, want) {
			t.Errorf("the DOM lacks %s: scripts did not run before it was read\n%s", want, dom)
		}
	}
}
