package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// pagedSearx stands in for a SearXNG instance whose result pages differ:
// page p (pageno p+1) answers pages[p], empty past the last. An entry with
// a scheme is used as is, others are paths on base.
func pagedSearx(t *testing.T, base string, pages [][]string, calls *atomic.Int32) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		p := 0
		if pn := r.URL.Query().Get("pageno"); pn != "" {
			p, _ = strconv.Atoi(pn)
			p--
		}
		type res struct {
			URL   string `json:"url"`
			Title string `json:"title"`
		}
		out := struct {
			Results []res `json:"results"`
		}{Results: []res{}}
		if p >= 0 && p < len(pages) {
			for i, u := range pages[p] {
				if !strings.Contains(u, "://") {
					u = base + u
				}
				out.Results = append(out.Results, res{URL: u, Title: "Result " + strconv.Itoa(p) + "." + strconv.Itoa(i)})
			}
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The first results are the paper itself (by id in the URL, and by the
// page's title once fetched), a blocked scheme and a dead link: the
// searcher fetches further, pages on, and still returns three usable
// pages, listing what it passed over and why; a replay gives the same.
func TestOverFetchSkipsOwnPaperAndFailures(t *testing.T) {
	pages := pageServer(t, 1<<20)
	var calls atomic.Int32
	searx := pagedSearx(t, pages.URL, [][]string{
		{"/abs/2401.01234v2", "ftp://example.org/x", "/missing", "/tsne", "/momentum"},
		{"/plain", "/empty", "/momentum", "/paper.pdf"},
	}, &calls)
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	own := Own{ID: "2401.01234", Title: "How to use t-SNE effectively"}
	s := &Searcher{Provider: NewSearXNG(searx.URL, nil), Fetcher: loopbackFetcher(128), Cache: cache, Results: 3}
	docs, err := s.SearchExcluding(context.Background(), "q", own)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{StatusOwn, StatusBlocked, "http 404", StatusOwn, StatusOK, StatusOK, StatusEmpty, StatusOK}
	var got []string
	for i, d := range docs {
		got = append(got, d.Status)
		if d.Rank != i+1 || d.Status == StatusOwn && d.Text != "" {
			t.Errorf("doc %d: %+v", i, d)
		}
	}
	if !reflect.DeepEqual(got, want) || calls.Load() != 2 {
		t.Fatalf("statuses %q after %d provider calls, want %q after 2", got, calls.Load(), want)
	}
	e, ok, err := cache.Get("q")
	if err != nil || !ok || len(e.Results) != 8 || len(e.Pages) != 8 || e.ResponseSHA256 == "" || len(e.MoreResponses) != 1 {
		t.Fatalf("cache entry %+v %v %v", e, ok, err)
	}
	if e.Pages[0].HTTPStatus != 0 {
		t.Errorf("the paper found by its URL was fetched: %+v", e.Pages[0])
	}

	s.Replay = true
	again, err := s.SearchExcluding(context.Background(), "q", own)
	if err != nil || !reflect.DeepEqual(docs, again) {
		t.Errorf("replay differs: %v\n%+v\n%+v", err, docs, again)
	}
	// Fewer wanted: the replay stops at the first usable page.
	s.Results = 1
	if one, err := s.SearchExcluding(context.Background(), "q", own); err != nil || len(one) != 5 || one[4].Status != StatusOK {
		t.Errorf("replay of one: %v %+v", err, one)
	}
}

// A search whose results are all unusable returns them without error, and
// stops at its candidate budget even when the engine has pages without end.
func TestNoUsableResultIsNotAnError(t *testing.T) {
	pages := pageServer(t, 1<<20)
	var calls atomic.Int32
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"results": []map[string]string{
			{"url": pages.URL + "/missing?" + strconv.Itoa(int(n)) + "a"},
			{"url": pages.URL + "/missing?" + strconv.Itoa(int(n)) + "b"},
		}})
	}))
	defer endless.Close()
	s := &Searcher{Provider: NewSearXNG(endless.URL, nil), Fetcher: loopbackFetcher(128), Results: 2}
	docs, err := s.Search(context.Background(), "q")
	if err != nil || len(docs) != 6 || calls.Load() != 3 {
		t.Fatalf("%d docs after %d calls: %v", len(docs), calls.Load(), err)
	}
	for _, d := range docs {
		if d.Status != "http 404" {
			t.Errorf("doc %+v", d)
		}
	}
}

func TestOwnMatching(t *testing.T) {
	o := Own{ID: "2401.01234", Title: "Tidal: Oscillating Token Budgets for Vision Transformers"}
	for _, c := range []struct {
		url, title string
		want       bool
	}{
		{"https://arxiv.org/abs/2401.01234", "", true},
		{"https://arxiv.org/pdf/2401.01234v3.pdf", "", true},
		{"https://arxiv.org/pdf/2401.01234v3", "", true},
		{"https://example.org/2401.012345", "", false},
		{"https://example.org/blog", "[2401.01234] Tidal: Oscillating Token Budgets for Vision Transformers", true},
		{"https://openreview.net/forum?id=x", "Tidal: oscillating token budgets for vision transformers | OpenReview", true},
		{"https://example.org/x", "Tidal: Oscillating Token Budgets for Vision ...", true},
		{"https://example.org/x", "Tidal: Oscillating ...", false},
		{"https://example.org/x", "A gentle explainer of why Tidal: Oscillating Token Budgets for Vision Transformers works", false},
		{"https://example.org/x", "Token Budgets", false},
	} {
		if got := o.Matches(Result{URL: c.url, Title: c.title}); got != c.want {
			t.Errorf("%s %q: %v, want %v", c.url, c.title, got, c.want)
		}
	}
	// Short or numeric ids and short titles are never matched.
	for _, o := range []Own{{ID: "17"}, {ID: "12345678"}, {Title: "Attention"}} {
		if o.Matches(Result{URL: "https://example.org/17/12345678", Title: "Attention"}) {
			t.Errorf("%+v matched", o)
		}
	}
	slug := Own{ID: "tidal-token-pruning"}
	if !slug.Matches(Result{URL: "https://example.org/papers/tidal-token-pruning.pdf"}) {
		t.Error("slug id not matched")
	}
}
