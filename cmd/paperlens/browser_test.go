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
// driven over the DevTools protocol: starting Chromium costs ~2 s of CPU,
// and a process per page made those tests most of the package's time on
// two cores. Each test still gets its own tab (testTab), so parallel tests
// do not race on one document.
var chrome struct {
	once   sync.Once
	ctx    context.Context // the browser's first tab; NewContext on it opens more
	stop   func()
	err    error
	output lockedBuffer // what Chromium printed, for error messages
}

// tabTimeout bounds one page: a navigation that never loads fails its test
// instead of hanging the package until go test's own timeout.
const tabTimeout = 90 * time.Second

// sharedBrowser starts Chromium on first use, with the flags this machine's
// closed network needs, and returns the context its tabs are made from.
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
		chrome.ctx = ctx
		chrome.stop = func() { stopCtx(); stopAlloc() }
		// The start itself cannot take a timeout (it would bound the
		// browser's whole life), so a timer kills a browser that hangs.
		timer := time.AfterFunc(tabTimeout, stopAlloc)
		err := chromedp.Do(ctx)
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
	return chrome.ctx
}

// stopBrowser kills the shared Chromium, if a test started it, and removes
// its profile. TestMain calls it once every test has finished.
func stopBrowser() {
	if chrome.stop != nil {
		chrome.stop()
	}
}

// tabs holds each test's tab in the shared browser.
var tabs struct {
	mu sync.Mutex
	of map[*testing.T]context.Context
}

// testTab returns t's tab in the shared browser, opened on t's first page
// and closed when t ends. A test's pages load one after another in it: a
// new tab costs Chromium a renderer process and ~0.3 s of CPU, more than
// most pages the tests load, and the tests load a dozen.
func testTab(t *testing.T) context.Context {
	t.Helper()
	browser := sharedBrowser(t)
	tabs.mu.Lock()
	tab, ok := tabs.of[t]
	tabs.mu.Unlock()
	if ok {
		return tab
	}
	tab, closeTab := chromedp.NewContext(browser)
	// The first action on a tab opens it and binds it to the context it
	// runs under, so it runs under the tab's own context, and a timer
	// closes a tab that does not open, as one for the browser's start.
	timer := time.AfterFunc(tabTimeout, closeTab)
	err := chromedp.Do(tab)
	if !timer.Stop() {
		err = fmt.Errorf("not opened after %v: %w", tabTimeout, err)
	}
	if err != nil {
		closeTab()
		t.Fatalf("chromium: open a tab: %v\n%s", err, chrome.output.tail(4000))
	}
	tabs.mu.Lock()
	if tabs.of == nil {
		tabs.of = map[*testing.T]context.Context{}
	}
	tabs.of[t] = tab
	tabs.mu.Unlock()
	t.Cleanup(func() {
		tabs.mu.Lock()
		delete(tabs.of, t)
		tabs.mu.Unlock()
		closeTab()
	})
	return tab
}

// inTab loads url in t's tab of the shared browser, after setup, and
// returns what get reads from the loaded page. Navigate returns once the
// load event of the new document fired: the inspector's pages have no
// scripts, so the DOM and the layout are final by then, and nothing of the
// tab's previous page is left in them.
func inTab[T any](t *testing.T, url string, setup []chromedp.Action[chromedp.Void], get chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(testTab(t), tabTimeout)
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

// dumpDOM returns the document as the browser holds it once the page has
// loaded, after any script ran: what chromium --dump-dom prints.
func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	return inTab(t, url, nil, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
}

// The screenshots' viewport: the width the inspector is designed for, and
// tall enough to hold the first gold highlights of the question pages the
// tests take (about 1150-1750 px down at this width). A taller one costs
// Chromium raster and PNG encoding and this process PNG decoding, for
// pixels no test looks at.
const shotWidth, shotHeight = 1400, 2400

// screenshot saves a PNG of a shotWidth x shotHeight viewport of the page
// to the test's folder (and to $PAPERLENS_SCREENSHOTS when set, to keep
// it) and returns its path. The tab keeps that viewport for the test's
// later pages.
func screenshot(t *testing.T, url, name string) string {
	t.Helper()
	png := inTab(t, url, []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(shotWidth, shotHeight)}, chromedp.CaptureScreenshot())
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
