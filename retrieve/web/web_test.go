package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// pageServer stands in for the web sites that search results point to. It
// serves corpus pages and pages that fail in each way a real site can.
func pageServer(t *testing.T, maxBytes int64) *httptest.Server {
	t.Helper()
	corpus := func(name string) []byte {
		b, err := os.ReadFile(testcorpus.Path(t, "corpus", "html", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tsne, momentum := corpus("distill-misread-tsne.html"), corpus("distill-momentum.html")
	mux := http.NewServeMux()
	html := func(b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(b)
		}
	}
	mux.HandleFunc("/tsne", html(tsne))
	mux.HandleFunc("/paper.pdf", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, testcorpus.Path(t, "corpus", "pdf", "batchnorm.pdf"))
	})
	mux.HandleFunc("/momentum", html(momentum))
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		// Never answers before the client gives up. The minute only keeps a
		// client that never gives up from hanging the test: it then gets an
		// empty page, not a time-out.
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n...."))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		// Streamed (no Content-Length): the limit must hold while reading.
		w.Header().Set("Content-Type", "text/html")
		chunk := []byte(strings.Repeat("<p>all work and no play makes jack a dull boy.</p>\n", 100))
		for written := int64(0); written <= 2*maxBytes; written += int64(len(chunk)) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/huge-declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", fmt.Sprint(10*maxBytes))
		w.Write([]byte("<p>x</p>")) // the client stops at the header
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/tsne", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	mux.HandleFunc("/app-shell", html([]byte(`<html><head><title>Paper viewer</title></head><body><div id="root"></div><script src="/bundle.js"></script></body></html>`)))
	mux.HandleFunc("/empty", html([]byte(`<html><head><script>var x = 1;</script></head><body><nav><a href="/">Home</a></nav></body></html>`)))
	mux.HandleFunc("/plain", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("Dynamic k-max pooling\nselects the k largest   values.\n\n\nSecond paragraph.\n"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// loopbackFetcher allows 127.0.0.1, where every test server listens. Its
// time limit is far beyond any loopback download, however busy the
// machine: no page but /slow may time out. timeoutFetcher's is short, for
// /slow, which never answers, so that its time-out is certain and cheap.
func loopbackFetcher(tok int) *Fetcher {
	return NewFetcher(FetchOptions{Timeout: time.Minute, MaxBytes: 1 << 20, AllowPrivate: true, Tokens: tok})
}

func timeoutFetcher(tok int) *Fetcher {
	return NewFetcher(FetchOptions{Timeout: 200 * time.Millisecond, MaxBytes: 1 << 20, AllowPrivate: true, Tokens: tok})
}

func TestFetchCorpusPage(t *testing.T) {
	srv := pageServer(t, 1<<20)
	d := loopbackFetcher(100000).Fetch(context.Background(), Result{URL: srv.URL + "/tsne", Title: "search title", Rank: 2})
	if d.Status != StatusOK {
		t.Fatalf("status %q", d.Status)
	}
	if d.Title != "How to Use t-SNE Effectively" || d.Rank != 2 {
		t.Errorf("title %q rank %d", d.Title, d.Rank)
	}
	for _, want := range []string{
		"A popular method for exploring high-dimensional data is something called t-SNE, introduced by van der Maaten and Hinton in 2008.",
		"The basic message is that distances between well-separated clusters in a t-SNE plot may mean nothing.",
	} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("missing prose %q", want)
		}
	}
	for _, bad := range []string{"play_arrow", "play_arrow pause refresh", "refresh", "  ", "\n\n\n"} {
		if strings.Contains(d.Text, bad) {
			t.Errorf("text contains %q", bad)
		}
	}
	if d.Tokens != tokens.Count(d.Text) || d.Tokens < 1000 {
		t.Errorf("tokens %d", d.Tokens)
	}
}

func TestFetchTruncatesAtSentence(t *testing.T) {
	srv := pageServer(t, 1<<20)
	full := loopbackFetcher(100000).Fetch(context.Background(), Result{URL: srv.URL + "/tsne"})
	for _, n := range []int{60, 200, 1024} {
		d := loopbackFetcher(n).Fetch(context.Background(), Result{URL: srv.URL + "/tsne"})
		if d.Status != StatusOK || d.Tokens > n || d.Tokens < n/2 {
			t.Fatalf("n=%d: status %q tokens %d", n, d.Status, d.Tokens)
		}
		if !strings.HasPrefix(full.Text, d.Text) {
			t.Errorf("n=%d: not a prefix of the full text", n)
		}
		if last := d.Text[len(d.Text)-1]; !strings.ContainsRune(".!?\")", rune(last)) {
			t.Errorf("n=%d: does not end a sentence: %q", n, d.Text[max(0, len(d.Text)-60):])
		}
	}
	// The default budget is 1024 tokens, as in the paper's setting.
	if d := NewFetcher(FetchOptions{AllowPrivate: true}).Fetch(context.Background(), Result{URL: srv.URL + "/tsne"}); d.Tokens > 1024 || d.Tokens < 512 {
		t.Errorf("default budget: %d tokens", d.Tokens)
	}
}

func TestFetchFailures(t *testing.T) {
	srv := pageServer(t, 1<<20)
	f := loopbackFetcher(1024)
	cases := map[string]string{
		"/tsne":          StatusOK,
		"/moved":         StatusOK,
		"/momentum":      StatusOK,
		"/plain":         StatusOK,
		"/paper.pdf":     StatusOK,
		"/slow":          StatusTimeout,
		"/missing":       "http 404",
		"/broken":        "http 500",
		"/image":         StatusNotHTML,
		"/huge":          StatusTooLarge,
		"/huge-declared": StatusTooLarge,
		"/loop":          StatusRedirects,
		"/to-file":       StatusBlocked,
		"/empty":         StatusEmpty,
		"/app-shell":     StatusEmpty,
	}
	for path, want := range cases {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			f := f
			if path == "/slow" {
				f = timeoutFetcher(1024)
			}
			d := f.Fetch(context.Background(), Result{URL: srv.URL + path})
			if d.Status != want {
				t.Fatalf("status %q, want %q", d.Status, want)
			}
			if (d.Status == StatusOK) != (d.Text != "") {
				t.Errorf("status %q with %d bytes of text", d.Status, len(d.Text))
			}
		})
	}
	if d := f.Fetch(context.Background(), Result{URL: srv.URL + "/paper.pdf"}); !strings.Contains(d.Text, "Batch Normalization") || d.Tokens > 1024 {
		t.Errorf("pdf: %q, %d tokens", d.Text[:min(200, len(d.Text))], d.Tokens)
	}
	d := f.Fetch(context.Background(), Result{URL: srv.URL + "/plain"})
	if d.Text != "Dynamic k-max pooling selects the k largest values.\n\nSecond paragraph." {
		t.Errorf("plain text %q", d.Text)
	}
}

func TestSSRFGuard(t *testing.T) {
	// The resolver stands in for DNS: names pointing inside the network.
	resolver := func(ctx context.Context, host string) ([]net.IP, error) {
		switch host {
		case "public.example":
			return []net.IP{net.ParseIP("10.0.0.1")}, nil
		case "mixed.example": // one public and one loopback address
			return []net.IP{net.ParseIP("93.184.216.34"), net.ParseIP("127.0.0.1")}, nil
		case "metadata.example":
			return []net.IP{net.ParseIP("fe80::1")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	f := NewFetcher(FetchOptions{Timeout: 2 * time.Second, Resolver: resolver})
	for _, u := range []string{
		"http://127.0.0.1/",
		"http://127.0.0.1:8080/admin",
		"http://169.254.169.254/latest/meta-data/",
		"http://[::1]/",
		"http://[::ffff:127.0.0.1]/",
		"http://0.0.0.0/",
		"http://10.1.2.3/",
		"http://192.168.1.1/",
		"http://[fd00::1]/",
		"http://224.0.0.1/",
		"https://public.example/paper.html",
		"http://mixed.example/",
		"http://metadata.example/",
		"ftp://example.com/paper.pdf",
		"file:///etc/passwd",
		"gopher://example.com/",
	} {
		if d := f.Fetch(context.Background(), Result{URL: u}); d.Status != StatusBlocked {
			t.Errorf("%s: status %q, want blocked", u, d.Status)
		}
	}
	// A real loopback server is refused too, even though it is up.
	srv := pageServer(t, 1<<20)
	if d := f.Fetch(context.Background(), Result{URL: srv.URL + "/tsne"}); d.Status != StatusBlocked {
		t.Errorf("live loopback server: status %q", d.Status)
	}
	for _, a := range []string{"8.8.8.8", "93.184.216.34", "2606:4700::1111"} {
		if blockedAddr(netip.MustParseAddr(a)) {
			t.Errorf("%s should be allowed", a)
		}
	}
}

// searxServer stands in for a SearXNG instance: it answers with the given
// page-server paths as results.
func searxServer(t *testing.T, pageBase string, paths []string, calls *atomic.Int32) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls != nil {
			calls.Add(1)
		}
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") == "" {
			http.Error(w, "bad request", 400)
			return
		}
		type res struct {
			URL     string `json:"url"`
			Title   string `json:"title"`
			Content string `json:"content"`
		}
		var out struct {
			Query   string `json:"query"`
			Results []res  `json:"results"`
		}
		out.Query = r.URL.Query().Get("q")
		page := paths
		if pn := r.URL.Query().Get("pageno"); pn != "" && pn != "1" {
			page = nil // a real instance has other results on later pages; this one has none
		}
		for i, p := range page {
			out.Results = append(out.Results, res{URL: pageBase + p, Title: fmt.Sprintf("<b>Result</b> %d", i+1), Content: "snippet &amp; more"})
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSearchAndReplay(t *testing.T) {
	pages := pageServer(t, 1<<20)
	searx := searxServer(t, pages.URL, []string{"/tsne", "/missing", "/image", "/momentum", "/tsne", "/loop", "/plain"}, nil)
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &Searcher{Provider: NewSearXNG(searx.URL+"/", nil), Fetcher: loopbackFetcher(512), Cache: cache}
	q := "Why can cluster sizes in a t-SNE plot mislead? How to Use t-SNE Effectively"
	docs, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	// The duplicate /tsne is dropped; with only three of the six distinct
	// URLs usable, all six are fetched and returned with their status.
	want := []string{StatusOK, "http 404", StatusNotHTML, StatusOK, StatusRedirects, StatusOK}
	if len(docs) != len(want) {
		t.Fatalf("%d docs", len(docs))
	}
	for i, d := range docs {
		if d.Status != want[i] || d.Rank != i+1 {
			t.Errorf("doc %d: status %q rank %d", i, d.Status, d.Rank)
		}
	}
	if docs[1].Title != "Result 2" {
		t.Errorf("search title not kept for a failed page: %q", docs[1].Title)
	}

	// Everything is in the cache with hashes that match the stored files.
	e, ok, err := cache.Get(q)
	if err != nil || !ok {
		t.Fatalf("cache entry: %v %v", ok, err)
	}
	if e.Provider != "searxng" || e.Time.IsZero() || len(e.Pages) != 6 {
		t.Fatalf("entry %+v", e)
	}
	raw, err := cache.Blob(e.ResponseSHA256)
	if err != nil || !strings.Contains(string(raw), pages.URL+"/tsne") {
		t.Fatalf("search response not stored: %v", err)
	}
	for _, p := range e.Pages {
		if p.URL == "" || p.Time.IsZero() || p.Status == "" {
			t.Errorf("page record %+v", p)
		}
		if p.Status == StatusOK {
			b, err := cache.Blob(p.SHA256)
			if err != nil || hashHex(b) != p.SHA256 || len(b) != p.Bytes {
				t.Errorf("page %s body: %v", p.URL, err)
			}
		}
	}

	// Replay with every server gone gives the same Docs.
	pages.Close()
	searx.Close()
	s.Replay = true
	again, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(docs, again) {
		t.Error("replayed docs differ")
	}
	// A fresh Cache on the same directory (another process) replays too.
	cache2, _ := OpenCache(cache.dir)
	s2 := &Searcher{Cache: cache2, Replay: true}
	if again, err := s2.Search(context.Background(), q); err != nil || !reflect.DeepEqual(docs, again) {
		t.Errorf("replay from reopened cache: %v", err)
	}
	_, err = s.Search(context.Background(), "a question never asked")
	if !errors.Is(err, ErrNotCached) || err.Error() != "not in the web cache: a question never asked" {
		t.Errorf("replay miss: %v", err)
	}
}

func TestGoogleProvider(t *testing.T) {
	pages := pageServer(t, 1<<20)
	var calls atomic.Int32
	// Stands in for https://www.googleapis.com/customsearch/v1.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("key") != "k123" || q.Get("cx") != "cx9" {
			w.WriteHeader(403)
			w.Write([]byte(`{"error":{"code":403,"message":"API key not valid."}}`))
			return
		}
		// Over-fetch: three times the five results wanted, capped at the
		// API's ten per request; two usable results of five wanted ask for
		// the second page, which has none.
		if q.Get("q") != "question paper" || q.Get("num") != "10" {
			http.Error(w, "unexpected query "+r.URL.RawQuery, 400)
			return
		}
		calls.Add(1)
		if q.Get("start") == "11" {
			fmt.Fprint(w, `{"kind":"customsearch#search"}`)
			return
		}
		if q.Get("start") != "" {
			http.Error(w, "unexpected query "+r.URL.RawQuery, 400)
			return
		}
		fmt.Fprintf(w, `{"kind":"customsearch#search","items":[
			{"link":%q,"title":"How to Use t-SNE","snippet":"t-SNE ..."},
			{"link":%q,"title":"Momentum","snippet":"..."}]}`, pages.URL+"/tsne", pages.URL+"/momentum")
	}))
	defer api.Close()
	s := &Searcher{Provider: NewGoogle("k123", "cx9", nil, api.URL), Fetcher: loopbackFetcher(256)}
	docs, err := s.Search(context.Background(), "question paper")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || docs[0].Status != StatusOK || docs[1].Status != StatusOK || docs[1].Title != "Why Momentum Really Works" || calls.Load() != 2 {
		t.Fatalf("docs %+v after %d calls", docs, calls.Load())
	}
	_, err = NewGoogle("wrong", "cx9", nil, api.URL).Search(context.Background(), "question paper", 5)
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 403 || !strings.Contains(err.Error(), "API key not valid") || strings.Contains(err.Error(), "wrong") {
		t.Errorf("bad key error: %v", err)
	}
}

func TestBraveProvider(t *testing.T) {
	// Stands in for https://api.search.brave.com/res/v1/web/search.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Subscription-Token") != "bk" {
			http.Error(w, `{"message":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"type":"search","web":{"results":[
			{"url":"https://distill.pub/2016/misread-tsne/","title":"How to Use <strong>t-SNE</strong> Effectively","description":"A <strong>popular</strong> method"},
			{"url":"https://example.org/b","title":"B","description":"b"}]}}`))
	}))
	defer api.Close()
	rs, err := NewBrave("bk", nil, api.URL).Search(context.Background(), "t-SNE", 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{URL: "https://distill.pub/2016/misread-tsne/", Title: "How to Use t-SNE Effectively", Snippet: "A popular method", Rank: 1}}
	if !reflect.DeepEqual(rs, want) {
		t.Errorf("got %+v", rs)
	}
	if _, err := NewBrave("nope", nil, api.URL).Search(context.Background(), "x", 5); err == nil || !strings.Contains(err.Error(), "http 401") {
		t.Errorf("bad key: %v", err)
	}
}

func TestProviderRetry(t *testing.T) {
	pages := pageServer(t, 1<<20)
	var calls atomic.Int32
	good := searxServer(t, pages.URL, []string{"/tsne"}, nil)
	// Stands in for a rate-limited search engine: 429 on the first call.
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		http.Redirect(w, r, good.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	defer flaky.Close()
	// One result wanted, so that the one found ends the search without
	// asking for a second page.
	s := &Searcher{Provider: NewSearXNG(flaky.URL, nil), Fetcher: loopbackFetcher(128), Backoff: time.Millisecond, Results: 1}
	docs, err := s.Search(context.Background(), "q")
	if err != nil || len(docs) != 1 || docs[0].Status != StatusOK || calls.Load() != 2 {
		t.Fatalf("docs %v err %v calls %d", docs, err, calls.Load())
	}

	// Stands in for an engine that is down: 500 every time.
	var calls500 atomic.Int32
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls500.Add(1)
		http.Error(w, "internal error", 500)
	}))
	defer down.Close()
	s = &Searcher{Provider: NewSearXNG(down.URL, nil), Backoff: time.Millisecond}
	_, err = s.Search(context.Background(), "q")
	var se *StatusError
	if !errors.As(err, &se) || se.Code != 500 || calls500.Load() != 3 {
		t.Fatalf("err %v calls %d", err, calls500.Load())
	}
	// A 400 is not retried.
	var calls400 atomic.Int32
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls400.Add(1)
		http.Error(w, "bad", 400)
	}))
	defer bad.Close()
	s = &Searcher{Provider: NewSearXNG(bad.URL, nil), Backoff: time.Millisecond}
	if _, err := s.Search(context.Background(), "q"); err == nil || calls400.Load() != 1 {
		t.Errorf("400: err %v calls %d", err, calls400.Load())
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("GOOGLE_API_KEY", "")
	t.Setenv("GOOGLE_CSE_ID", "cx")
	if _, err := GoogleFromEnv(); err == nil || !strings.Contains(err.Error(), "GOOGLE_API_KEY") {
		t.Errorf("google: %v", err)
	}
	t.Setenv("GOOGLE_API_KEY", "k")
	if p, err := GoogleFromEnv(); err != nil || p.Name() != "google" {
		t.Errorf("google: %v", err)
	}
	t.Setenv("BRAVE_API_KEY", "")
	if _, err := BraveFromEnv(); err == nil || !strings.Contains(err.Error(), "BRAVE_API_KEY") {
		t.Errorf("brave: %v", err)
	}
	t.Setenv("SEARXNG_URL", "")
	if _, err := SearXNGFromEnv(); err == nil || !strings.Contains(err.Error(), "SEARXNG_URL") {
		t.Errorf("searxng: %v", err)
	}
}

func TestCacheConcurrent(t *testing.T) {
	c, err := OpenCache(filepath.Join(t.TempDir(), "nested", "cache"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for i := range 16 {
		go func() {
			q := fmt.Sprintf("q%d", i%4)
			sum, err := c.PutBlob([]byte(q))
			if err == nil {
				err = c.Put(&Entry{Query: q, Provider: "p", ResponseSHA256: sum, Docs: []Doc{{URL: q, Status: "ok"}}})
			}
			done <- err
		}()
	}
	for range 16 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		q := fmt.Sprintf("q%d", i)
		e, ok, err := c.Get(q)
		if err != nil || !ok || e.Docs[0].URL != q {
			t.Errorf("%s: %v %v", q, ok, err)
		}
	}
}
