package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/browsertest"
)

// The browser tests share one headless Chromium and its one tab for the
// whole package run (internal/testkit/browsertest says why); TestMain
// stops it once every test has finished.

// chromiumPath finds Debian's chromium; CI must have it (.ci/run installs
// it).
func chromiumPath(t *testing.T) string { return browsertest.Path(t) }

// stopBrowser kills the shared Chromium, if a test started it.
func stopBrowser() { browsertest.Stop() }

// dumpDOM returns the document as the browser holds it once the page has
// loaded, after any script ran: what chromium --dump-dom prints.
func dumpDOM(t *testing.T, url string) string {
	t.Helper()
	return browsertest.DOM(t, url)
}

// screenshot saves a PNG of the default viewport (the width the inspector
// is designed for, and tall enough to hold the first gold highlights of
// the question pages the tests look at) to the test's folder (and to
// $PAPERLENS_SCREENSHOTS when set, to keep it) and returns its path.
func screenshot(t *testing.T, url, name string) string {
	t.Helper()
	png := browsertest.Screenshot(t, url, browsertest.DefaultWidth, browsertest.DefaultHeight)
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
