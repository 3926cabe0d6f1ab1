package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// A web run through a fake SearXNG (a loopback server speaking its JSON API)
// whose results point at a local server of the shared corpus' HTML pages,
// then the same run with --web-replay after both servers are shut down:
// the contexts and results are identical.
func TestWebRunAndReplay(t *testing.T) {
	t.Parallel()
	pages := http.NewServeMux()
	for path, file := range map[string]string{"/tsne": "distill-misread-tsne.html", "/momentum": "distill-momentum.html"} {
		body, err := os.ReadFile(testcorpus.Path(t, "corpus", "html", file))
		if err != nil {
			t.Fatal(err)
		}
		pages.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(body)
		})
	}
	pageSrv := httptest.NewServer(pages)
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") == "" {
			http.Error(w, "bad request", 400)
			return
		}
		fmt.Fprintf(w, `{"results":[{"url":%q,"title":"t-SNE","content":"x"},{"url":%q,"title":"Momentum","content":"y"},{"url":%q,"title":"Gone","content":"z"}]}`,
			pageSrv.URL+"/tsne", pageSrv.URL+"/momentum", pageSrv.URL+"/missing")
	}))
	model := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber})
	data := writeQuestions(t, 4)
	base := []string{"eval", "--bench", "jsonl", "--data", data, "--model", "fake", "--base-url", model.BaseURL(),
		"--mode", "web", "--runs", "1", "--web-provider", "searxng", "--allow-private-hosts", "--home", t.TempDir()}
	first := filepath.Join(t.TempDir(), "first")
	cache := filepath.Join(first, "web-cache")
	if _, errOut, code := paperlens(t, append(base, "--searxng-url", searx.URL, "--out", first)...); code != 0 {
		t.Fatalf("web run: exit %d: %s", code, errOut)
	}
	searx.Close()
	pageSrv.Close()
	second := filepath.Join(t.TempDir(), "second")
	if _, errOut, code := paperlens(t, append(base, "--searxng-url", searx.URL, "--web-replay", "--web-cache", cache, "--out", second)...); code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	a, b := readRecords(t, first), readRecords(t, second)
	if len(a) != 4 || len(b) != 4 {
		t.Fatalf("%d and %d records", len(a), len(b))
	}
	byID := map[string]run.Record{}
	for _, r := range b {
		byID[r.QuestionID] = r
	}
	for _, r := range a {
		s := byID[r.QuestionID]
		if r.Error != "" || len(r.Web) != 3 || r.Web[0].Status != "ok" || r.Web[2].Status != "http 404" {
			t.Fatalf("web record: %+v", r)
		}
		if !reflect.DeepEqual(r.Web, s.Web) || !reflect.DeepEqual(r.Context, s.Context) || r.Output != s.Output || r.PromptTokens != s.PromptTokens {
			t.Errorf("%s: replay differs:\n%+v\n%+v", r.QuestionID, r, s)
		}
	}
	// The prompt held the article's prose in labelled blocks, and not the widget labels.
	for _, req := range model.Requests() {
		p := req.Messages[len(req.Messages)-1].Content
		if p == run.PreflightPrompt {
			continue
		}
		if !strings.Contains(p, "UNTRUSTED WEB RESULT") || strings.Contains(p, "play_arrow") || !strings.Contains(p, "t-SNE") {
			t.Fatalf("web prompt: %.400q", p)
		}
	}
	raw, _ := json.Marshal(a[0].Web)
	t.Logf("web items: %s", raw)

	// A missing key is a clear error before the run starts.
	_, errOut, code := paperlens(t, append(base[:len(base)-2], "--web-provider", "google", "--out", t.TempDir(), "--home", t.TempDir())...)
	if code != 2 || !strings.Contains(errOut, "GOOGLE_API_KEY") {
		t.Errorf("google without a key: exit %d %q", code, errOut)
	}
}

// The offline corpus provider on the sample cut into short passages, where
// a question's own paper fills the top of the corpus-wide ranking: web and
// full+web keep every question, each with five passages of other papers.
func TestWebCorpusProviderKeepsEveryQuestion(t *testing.T) {
	t.Parallel()
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	out := filepath.Join(t.TempDir(), "run")
	if _, errOut, code := paperlens(t, "eval", "--bench", "elaipbench", "--data", sample, "--model", "ir", "--mode", "web,full+web",
		"--runs", "1", "--max-passage-tokens", "32", "--home", t.TempDir(), "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	n := sampleQuestions(t, sample)
	kept := map[string]int{}
	for _, r := range readRecords(t, out) {
		ok := 0
		for _, w := range r.Web {
			if w.Status == "ok" && !strings.HasPrefix(w.URL, "corpus://"+r.PaperID+"#") {
				ok++
			}
		}
		if r.Error != "" || ok != 5 {
			t.Errorf("%s %s: error %q, %d usable results: %+v", r.QuestionID, r.Mode, r.Error, ok, r.Web)
			continue
		}
		kept[r.Mode]++
	}
	if kept["web"] != n || kept["full+web"] != n {
		t.Errorf("kept %v of %d questions", kept, n)
	}
}

// A loopback SearXNG whose first results for each question are the
// question's own paper (by id in the URL, and later by title), a blocked
// scheme and a dead link, with the good pages further down and on the
// second page: every question still gets --web-results 3 usable pages, the
// paper's pages are never fetched, and the prompt numbers the three 1 to 3.
// For one paper the engine finds nothing usable at all: its questions are
// answered without web results, web with the closed-book prompt and
// full+web with the paper alone, recorded without error.
func TestWebOverFetchPastOwnPaperAndFailures(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	if _, errOut, code := paperlens(t, "ingest", "--home", home, sample); code != 0 {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	titles := webPaperTitles(t, home)
	const barren = "tidal-token-pruning" // the paper the engine finds nothing usable for
	var ownFetched atomic.Int32
	searx := webOverFetchServers(t, titles, barren, &ownFetched)
	model := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return "The answer is A.", "" }})
	out := filepath.Join(t.TempDir(), "run")
	if _, errOut, code := paperlens(t, "eval", "--bench", "elaipbench", "--data", sample, "--model", "fake", "--base-url", model.BaseURL(),
		"--mode", "web,full+web", "--runs", "1", "--web-provider", "searxng", "--searxng-url", searx.URL, "--allow-private-hosts",
		"--web-results", "3", "--home", home, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkWebOverFetchRecords(t, readRecords(t, out), sample, barren)
	if n := ownFetched.Load(); n != 0 {
		t.Errorf("the paper's own pages were fetched %d times", n)
	}
	checkWebOverFetchPrompts(t, model.Requests(), sample, barren)
}

// webPaperTitles maps the title of each paper in home to its id.
func webPaperTitles(t *testing.T, home string) map[string]string {
	t.Helper()
	list, _, _ := paperlens(t, "papers", "--json", "--home", home)
	titles := map[string]string{} // title -> paper id
	sc := bufio.NewScanner(strings.NewReader(list))
	for sc.Scan() {
		var d struct {
			PaperID string `json:"paper_id"`
			Title   string `json:"title"`
		}
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		titles[d.Title] = d.PaperID
	}
	return titles
}

// webOverFetchServers starts the pages and the loopback SearXNG of
// TestWebOverFetchPastOwnPaperAndFailures, counting fetches of a paper's
// own pages in ownFetched, and returns the SearXNG server.
func webOverFetchServers(t *testing.T, titles map[string]string, barren string, ownFetched *atomic.Int32) *httptest.Server {
	t.Helper()
	pages := http.NewServeMux()
	for _, name := range []string{"alpha", "beta", "gamma"} {
		pages.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<html><head><title>Page %s</title></head><body><article><p>The %s page explains adapters, pruning and replay in enough words to be kept as a usable result.</p></article></body></html>", name, name)
		})
	}
	pages.HandleFunc("/papers/", func(w http.ResponseWriter, r *http.Request) { ownFetched.Add(1); http.NotFound(w, r) })
	pages.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { ownFetched.Add(1); http.NotFound(w, r) })
	pageSrv := httptest.NewServer(pages)
	t.Cleanup(pageSrv.Close)
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		id, title := "", ""
		for t, p := range titles {
			if strings.HasSuffix(q, " "+t) {
				id, title = p, t
			}
		}
		if id == "" {
			http.Error(w, "query without a paper title: "+q, 400)
			return
		}
		type res struct {
			URL   string `json:"url"`
			Title string `json:"title"`
		}
		var rs []res
		page := r.URL.Query().Get("pageno")
		switch {
		case id == barren && page == "":
			rs = []res{{pageSrv.URL + "/papers/" + id + ".pdf", "PDF"}, {"ftp://example.org/x", "FTP"}, {pageSrv.URL + "/missing", "Gone"}}
		case id == barren:
		case page == "":
			rs = []res{{pageSrv.URL + "/papers/" + id + ".pdf", "PDF"}, {"ftp://example.org/x", "FTP"}, {pageSrv.URL + "/missing", "Gone"}, {pageSrv.URL + "/alpha", "Alpha"}}
		case page == "2":
			rs = []res{{pageSrv.URL + "/elsewhere", title}, {pageSrv.URL + "/beta", "Beta"}, {pageSrv.URL + "/gamma", "Gamma"}}
		}
		json.NewEncoder(w).Encode(map[string]any{"results": rs})
	}))
	t.Cleanup(searx.Close)
	return searx
}

// checkWebOverFetchRecords checks each record's web statuses and context:
// three usable pages past the failures, none for the barren paper.
func checkWebOverFetchRecords(t *testing.T, recs []run.Record, sample, barren string) {
	t.Helper()
	if n := sampleQuestions(t, sample); len(recs) != 2*n {
		t.Fatalf("%d records for %d questions", len(recs), n)
	}
	want := []string{"own paper", "blocked", "http 404", "ok", "own paper", "ok", "ok"}
	for _, r := range recs {
		var got []string
		for _, w := range r.Web {
			got = append(got, w.Status)
		}
		if r.PaperID == barren {
			if r.Error != "" || len(r.Context) != 0 || !reflect.DeepEqual(got, []string{"own paper", "blocked", "http 404"}) {
				t.Errorf("%s %s: error %q, web %q", r.QuestionID, r.Mode, r.Error, got)
			}
			continue
		}
		if r.Error != "" || !reflect.DeepEqual(got, want) || len(r.Context) != 3 {
			t.Errorf("%s %s: error %q, web %q, want %q", r.QuestionID, r.Mode, r.Error, got, want)
		}
	}
}

// checkWebOverFetchPrompts checks the prompts the model was sent: three
// web results numbered 1 to 3, none for the barren paper's questions.
func checkWebOverFetchPrompts(t *testing.T, reqs []modeltest.Request, sample, barren string) {
	t.Helper()
	stems := map[string]bool{} // the barren paper's questions
	qs, _, err := bench.LoadElaipBench(sample)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if q.PaperID == barren {
			stems[q.MCQ.Stem] = true
		}
	}
	if len(stems) == 0 {
		t.Fatal("no question on " + barren)
	}
	for _, req := range reqs {
		p := req.Messages[len(req.Messages)-1].Content
		if p == run.PreflightPrompt {
			continue
		}
		isBarren := false
		for s := range stems {
			isBarren = isBarren || strings.Contains(p, s)
		}
		blocks := strings.Count(p, "<<<BEGIN UNTRUSTED WEB RESULT")
		switch {
		case isBarren && (blocks != 0 || strings.Contains(p, "from the web") || strings.Contains(p, "web search results")):
			t.Errorf("prompt without web results speaks of them: %.400q", p)
		case !isBarren && (blocks != 3 || !strings.Contains(p, "<<<BEGIN UNTRUSTED WEB RESULT 3>>>")):
			t.Errorf("%d web blocks: %.400q", blocks, p)
		}
	}
}

// sampleQuestions is the number of questions the benchmark reader keeps.
func sampleQuestions(t *testing.T, path string) int {
	t.Helper()
	qs, _, err := bench.LoadElaipBench(path)
	if err != nil {
		t.Fatal(err)
	}
	return len(qs)
}
