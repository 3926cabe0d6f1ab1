package inspector

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/run"
)

func serve(t *testing.T, cfg run.Config) (*httptest.Server, string) {
	t.Helper()
	dir, _ := writeFixture(t, cfg)
	site, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return srv, dir
}

func get(t *testing.T, srv *httptest.Server, path string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Send the path exactly as written: the client would clean "..".
	req.URL.Opaque, _, _ = strings.Cut(path, "?")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

func TestRoutes(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	cases := []struct {
		path string
		code int
	}{
		{"/", 200},
		{"/r/1/", 200},
		{"/r/1/q/q1", 200},
		{"/r/1/q/q1?run=2&mode=bm25", 200},
		{"/r/1/paper/evil", 200},
		{"/static/style.css", 200},
		// Only the runs, questions and papers given are served.
		{"/r/2/", 404},
		{"/r/0/", 404},
		{"/r/1/q/q9", 404},
		{"/r/1/paper/nope", 404},
		{"/r/1/config.json", 404},
		{"/r/1/results.jsonl", 404},
		// Traversal, raw and encoded, never reaches a file or a redirect.
		{"/../", 404},
		{"/r/1/../../etc/passwd", 404},
		{"/r/1/q/../../config.json", 404},
		{"/r/1/q/..%2F..%2Fconfig.json", 404},
		{"/r/1/paper/..%2f..%2fhome%2fcorpus.db", 404},
		{"/r/%2e%2e/", 404},
		{"/static/../inspector.go", 404},
		{"/static/..%2fsite.go", 404},
		{"/%2e%2e%252f%2e%2e%252fetc/passwd", 404},
		{"/r/1/q/q1%00", 404},
		{"/r/1/./q/q1", 404},
		{"/r/1/q/q1/", 404},
		// Paging past the end (or overflowing) is the last page, not a crash.
		{"/r/1/?page=9223372036854775807", 200},
		{"/r/1/?page=-3", 200},
	}
	for _, c := range cases {
		if code, body, _ := get(t, srv, c.path); code != c.code {
			t.Errorf("GET %s = %d, want %d (%.80s)", c.path, code, c.code, body)
		}
	}
	res, err := srv.Client().Post(srv.URL+"/r/1/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d, want 405: the inspector is read-only", res.StatusCode)
	}
	// A page reached through another host name (DNS rebinding) is refused.
	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.Host = "attacker.example:80"
	res, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host = %d, want 421", res.StatusCode)
	}
}

// TestEscaping: paper, question, option, web and model text with markup is
// shown as text on every page, and the headers forbid scripts besides.
func TestEscaping(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	raw := regexp.MustCompile(`(?i)<script|<img|<[a-z][^>"]*\son[a-z]+=|href="javascript:|<b>`)
	for _, path := range []string{"/", "/r/1/", "/r/1/q/q1", "/r/1/q/q1?run=2", "/r/1/paper/evil"} {
		code, body, h := get(t, srv, path)
		if code != 200 {
			t.Fatalf("GET %s = %d", path, code)
		}
		if m := raw.FindString(body); m != "" {
			i := strings.Index(body, m)
			t.Errorf("GET %s: unescaped %q in %q", path, m, body[max(0, i-80):min(len(body), i+80)])
		}
		noActiveMarkup(t, path, body)
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
			t.Errorf("GET %s: CSP %q allows scripts", path, csp)
		}
	}
	_, q, _ := get(t, srv, "/r/1/q/q1")
	for _, want := range []string{
		"What does &lt;script&gt;alert(&#39;q&#39;)&lt;/script&gt; train on?", // question
		"B. &lt;img src=x onerror=alert(3)&gt;",                               // option
		"&lt;script&gt;alert(&#39;out&#39;)&lt;/script&gt; Answer: B",         // model output
		"thinking &lt;b&gt;bold&lt;/b&gt; about it",                           // reasoning
		"&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;",         // paper passage
		"&lt;img src=x onerror=alert(5)&gt; javascript:alert(4)",              // web result, not a link
		`<a href="https://example.org/a" rel="noreferrer noopener">Example page</a>`,
	} {
		if !strings.Contains(q, want) {
			t.Errorf("question page lacks %q", want)
		}
	}
	_, p, _ := get(t, srv, "/r/1/paper/evil")
	if !strings.Contains(p, "See javascript:alert(2) for details.") || !strings.Contains(p, "Evil &lt;b&gt;Paper&lt;/b&gt;") {
		t.Error("paper view does not show the paper's markup as text")
	}
}

// noActiveMarkup parses a page as a browser would and fails on any element
// or attribute that could run code: a check on the parsed tree, which a
// regular expression over the source cannot fool.
func noActiveMarkup(t *testing.T, path, body string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script", "img", "iframe", "object", "embed", "svg", "base":
			t.Errorf("%s: page holds a <%s> element", path, n.Data)
		}
		for _, a := range n.Attr {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(a.Key, "on") || strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:") {
				t.Errorf("%s: <%s %s=%q>", path, n.Data, a.Key, a.Val)
			}
		}
	}
}

func TestNoAPIKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-secret-1")
	srv, _ := serve(t, run.Config{BaseURL: "https://alice:sk-userinfo-secret@llm.example/v1?key=sk-query-secret", APIKeyEnv: "OPENAI_API_KEY"})
	for _, path := range []string{"/", "/r/1/", "/r/1/q/q1", "/r/1/paper/evil"} {
		_, body, _ := get(t, srv, path)
		if strings.Contains(body, "secret") || strings.Contains(body, "alice") {
			t.Errorf("GET %s shows a credential", path)
		}
	}
	if _, body, _ := get(t, srv, "/"); !strings.Contains(body, "https://llm.example/v1") {
		t.Error("index does not show the (redacted) model URL")
	}
}

func TestQuestionPage(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	_, body, _ := get(t, srv, "/r/1/q/q1")
	modes := regexp.MustCompile(`data-mode="([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(modes) != 3 || modes[0][1] != "full" || modes[1][1] != "bm25" || modes[2][1] != "web" {
		t.Fatalf("modes side by side: %v", modes)
	}
	bm25 := body[strings.Index(body, `data-mode="bm25"`):strings.Index(body, `data-mode="web"`)]
	// Passages in rank order with scores, retriever and a link into the paper.
	i0, i1 := strings.Index(bm25, "#1</span><span class=\"score\">score 2.5000</span><span>bm25</span><a href=\"/r/1/paper/evil#p0\">evil#0</a>"),
		strings.Index(bm25, "#2</span><span class=\"score\">score 1.2500</span><span>bm25</span><a href=\"/r/1/paper/evil#p1\">evil#1</a>")
	if i0 < 0 || i1 < i0 {
		t.Errorf("passages not in rank order with scores:\n%s", bm25)
	}
	// The gold sentence the second passage holds is highlighted in it.
	if !strings.Contains(bm25, `<mark class="gold" title="gold sentence 1">We train the retriever on twelve thousand labelled question passage pairs</mark>`) {
		t.Errorf("gold evidence not highlighted in the retrieved passage:\n%s", bm25)
	}
	// The one not retrieved is listed with its section and offset.
	miss := bm25[strings.Index(bm25, "Gold evidence not retrieved"):]
	if !strings.Contains(miss, "Results show the hybrid retriever") || !strings.Contains(miss, `section “4 Results”`) || !strings.Contains(miss, `<a href="/r/1/paper/evil#p2">evil#2</a>`) {
		t.Errorf("unretrieved gold not placed in the paper:\n%s", miss)
	}
	for _, want := range []string{"Answer: B", "reasoning (", "by rule", "wrong", "cut to fit"} {
		if !strings.Contains(body, want) {
			t.Errorf("question page lacks %q", want)
		}
	}
	if !strings.Contains(body, "120 tokens cut to fit the budget") {
		t.Error("full mode does not show the tokens cut by the budget")
	}
	web := body[strings.Index(body, `data-mode="web"`):]
	if !strings.Contains(web, "http 404") {
		t.Error("web results lack their status")
	}
	_, q3, _ := get(t, srv, "/r/1/q/q3")
	if !strings.Contains(q3, "web search: timeout after 3 attempts") {
		t.Error("an error record does not show its error")
	}
}

func TestPaperView(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	_, body, _ := get(t, srv, "/r/1/paper/evil")
	for _, want := range []string{
		`id="p0"`, `id="p1"`, `id="p2"`, "evil#1 <span class=\"kind kind-references\">references</span> · § 3.2 Method",
		`<mark class="gold" title="gold evidence of q1">We train the retriever on twelve thousand labelled question passage pairs</mark>`,
		`<mark class="gold" title="gold evidence of q2">The reranker improves accuracy by four points on the held out set</mark>`,
		`<mark class="gold" title="gold evidence of q1">Results show the hybrid retriever`,
		"2 of 2 gold sentences found",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("paper view lacks %q", want)
		}
	}
}

func TestListFilters(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	ids := regexp.MustCompile(`<td><a href="/r/1/q/([^"]+)"`)
	cases := []struct {
		query string
		want  []string
	}{
		{"", []string{"q1", "q2", "q3"}},
		{"mode=bm25&outcome=wrong", []string{"q1"}},
		{"mode=bm25&outcome=right", []string{"q2", "q3"}},
		{"outcome=error", []string{"q3"}},
		{"flipped=lost", []string{"q1"}},
		{"flipped=gained", []string{"q2"}},
		{"flipped=either", []string{"q1", "q2"}},
		{"flipped=lost&mode=web", []string{"q1"}}, // web is a retrieval mode too
		{"flipped=gained&mode=web", nil},
		{"type=MA-MCQ", []string{"q2"}},
		{"bd.difficulty=hard", []string{"q2"}},
		{"text=plain", []string{"q3"}},
		{"text=%3Cscript%3E", []string{"q1"}},
		{"sort=mode:bm25", []string{"q1", "q2", "q3"}},
		{"sort=mode:bm25&desc=1", []string{"q2", "q3", "q1"}},
		{"sort=id&desc=1", []string{"q3", "q2", "q1"}},
		{"sort=flips&desc=1", []string{"q1", "q2", "q3"}},
		{"mode=nonsense", []string{"q1", "q2", "q3"}},
	}
	for _, c := range cases {
		_, body, _ := get(t, srv, "/r/1/?"+c.query)
		var got []string
		for _, m := range ids.FindAllStringSubmatch(body, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("?%s: %v, want %v", c.query, got, c.want)
		}
	}
	_, body, _ := get(t, srv, "/r/1/")
	if !strings.Contains(body, `<td class="cell ok">&#43;&#43;</td><td class="cell bad">−−</td>`) || !strings.Contains(body, "lost: bm25, web") || !strings.Contains(body, "gained: bm25") {
		t.Errorf("list cells or flips wrong:\n%s", body)
	}
}

func TestIndexSummary(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	_, body, _ := get(t, srv, "/")
	// Computed from the records (the fixture has no summary.json): full is
	// right on q1 and q3 (2 of 3), bm25 on q2 and q3, web on none of the two
	// scored (q3's web record is an error).
	for _, want := range []string{`<td>full <span class="muted">\(baseline\)</span></td>\s*<td class="num">66.7</td>`, `<td>web</td>\s*<td class="num">0.0</td>`, `2 × 3 \(18 records\)`} {
		if !regexp.MustCompile(want).MatchString(body) {
			t.Errorf("index lacks %q", want)
		}
	}
}

// TestWatchesGrowingRun: a run still being written is re-read when its
// results file changes.
func TestWatchesGrowingRun(t *testing.T) {
	dir, _ := writeFixture(t, run.Config{})
	site, err := Load([]string{dir}, Options{Recheck: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	f, err := os.OpenFile(filepath.Join(dir, run.ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"question_id":"q3","paper_id":"plain","mode":"web","run":1,"model":"fixture-model","correct":true,"extracted":"A","gold":"A","score_kind":"exact","output":"Answer: A (retried)"}` + "\n")
	f.Close()
	// Not a race: a sleep is never shorter than asked, so Recheck (1 ms)
	// has passed whatever the load, and the re-read happens within the
	// request below.
	time.Sleep(5 * time.Millisecond)
	_, body, _ := get(t, srv, "/r/1/q/q3?run=1")
	if !strings.Contains(body, "Answer: A (retried)") {
		t.Error("a record appended after start is not shown")
	}
}

func TestMissingDatasetAndCorpus(t *testing.T) {
	cases := []struct {
		name              string
		dataset, corpusDB bool // removed?
		log               []string
		q1                []string
		notQ1             []string
	}{
		{"corpus gone", false, true, []string{"passages not shown"},
			[]string{"passage text not available: the paper cannot be read from the corpus", "which gold evidence it retrieved is not known"},
			[]string{"Gold evidence not retrieved"}},
		{"dataset and corpus gone", true, true, []string{"question texts not shown", "passages not shown"},
			[]string{"passage text not available", "question texts not shown"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, home := writeFixture(t, run.Config{})
			var cfg run.Config
			b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
			must(t, jsonUnmarshal(b, &cfg))
			if c.dataset {
				must(t, os.Remove(cfg.Data))
			}
			if c.corpusDB {
				must(t, os.Remove(filepath.Join(home, "corpus.db")))
			}
			var log strings.Builder
			site, err := Load([]string{dir}, Options{Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(site.Handler())
			defer srv.Close()
			for _, want := range c.log {
				if !strings.Contains(log.String(), want) {
					t.Errorf("log lacks %q: %s", want, log.String())
				}
			}
			code, body, _ := get(t, srv, "/r/1/q/q1")
			if code != 200 {
				t.Fatalf("q1: %d", code)
			}
			for _, want := range c.q1 {
				if !strings.Contains(body, want) {
					t.Errorf("q1 lacks %q", want)
				}
			}
			for _, bad := range c.notQ1 {
				if strings.Contains(body, bad) {
					t.Errorf("q1 shows %q though its passages cannot be read", bad)
				}
			}
			// Summarised from the records alone: the effects pair real questions.
			_, index, _ := get(t, srv, "/")
			if strings.Contains(index, "&lt;0.001") || !strings.Contains(index, "[-100.0, &#43;100.0]") {
				t.Errorf("index effects are not paired over the records' questions:\n%s", index)
			}
		})
	}
}

// TestOddIDs: ids that look like paths or markup still open their own page,
// and render as text everywhere, attributes included.
func TestOddIDs(t *testing.T) {
	dir, _ := writeFixture(t, run.Config{})
	var cfg run.Config
	b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	must(t, jsonUnmarshal(b, &cfg))
	evil := `q"><img src=x onerror=alert(1)>`
	ids := []string{"..", ".", "a/../b", "50% off", "#frag?x=1", "ünïcode", evil}
	f, err := os.OpenFile(cfg.Data, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	for _, id := range ids {
		b, _ := json.Marshal(map[string]any{"id": id, "paper_id": "evil", "question": "Odd " + id + "?", "options": []string{"a", "b"}, "answer": "A",
			"evidence": "Results show the hybrid retriever finds the evidence more often than BM25 alone in every setting we tried."})
		f.Write(append(b, '\n'))
	}
	f.Close()
	site, err := Load([]string{dir}, Options{})
	must(t, err)
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	r := site.Run("1")
	for _, id := range ids {
		u := questionURL(r, id)
		code, body, _ := get(t, srv, u)
		if code != 200 || !strings.Contains(body, html.EscapeString(id)) {
			t.Errorf("%q at %s: %d", id, u, code)
		}
		noActiveMarkup(t, u, body)
	}
	_, list, _ := get(t, srv, "/r/1/")
	noActiveMarkup(t, "/r/1/", list)
	if !strings.Contains(list, "10 of 10 questions") {
		t.Error("odd ids missing from the list")
	}
	// With only a mode chosen, questions without records in it drop out.
	if _, l, _ := get(t, srv, "/r/1/?mode=full"); !strings.Contains(l, "3 of 10 questions") {
		t.Error("?mode=full keeps questions that have no full record")
	}
	// On the paper view the ids sit in title attributes of the gold marks.
	_, paper, _ := get(t, srv, "/r/1/paper/evil")
	noActiveMarkup(t, "paper", paper)
	doc, _ := html.Parse(strings.NewReader(paper))
	found := false
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "mark" {
			for _, a := range n.Attr {
				if a.Key == "title" && strings.Contains(a.Val, evil) {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("no gold mark names %q in its title", evil)
	}
}

// TestStalePaper: a paper ingested again after the run started is flagged,
// since its passages may not be those the run was given.
func TestStalePaper(t *testing.T) {
	dir, home := writeFixture(t, run.Config{})
	hour := time.Now().Add(-time.Hour)
	must(t, os.Chtimes(filepath.Join(dir, "config.json"), hour, hour))
	st, err := corpus.Open(home, false)
	must(t, err)
	doc, err := st.Doc("evil")
	must(t, err)
	ps, err := st.Passages("evil")
	must(t, err)
	text, _ := st.Text("evil")
	doc.IngestedAt = time.Now()
	must(t, st.Put(doc, text, ps))
	st.Close()
	site, err := Load([]string{dir}, Options{})
	must(t, err)
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	for _, path := range []string{"/r/1/q/q1", "/r/1/paper/evil"} {
		if _, body, _ := get(t, srv, path); !strings.Contains(body, "after this run started") {
			t.Errorf("%s does not flag the re-ingested paper", path)
		}
	}
	if _, body, _ := get(t, srv, "/r/1/q/q3"); strings.Contains(body, "after this run started") {
		t.Error("q3's paper was not re-ingested but is flagged")
	}
}

// Each passage shows its kind next to its id, on the paper page and among
// a question's retrieved passages; a passage stored without one is body.
func TestPassageKinds(t *testing.T) {
	srv, _ := serve(t, run.Config{})
	cases := []struct {
		page, within string
		want         []string
	}{
		{"/r/1/paper/evil", "", []string{
			`evil#0 <span class="kind kind-body">body</span> · § 1 Introduction`,
			`evil#1 <span class="kind kind-references">references</span> · § 3.2 Method`,
			`evil#2 <span class="kind kind-body">body</span> · § 4 Results`,
		}},
		{"/r/1/q/q1", `data-mode="bm25"`, []string{
			`<a href="/r/1/paper/evil#p0">evil#0</a><span class="kind kind-body">body</span>`,
			`<a href="/r/1/paper/evil#p1">evil#1</a><span class="kind kind-references">references</span>`,
		}},
		{"/r/1/q/q3", `data-mode="bm25"`, []string{
			`<a href="/r/1/paper/plain#p1">plain#1</a><span class="kind kind-body">body</span>`,
		}},
	}
	for _, c := range cases {
		_, body, _ := get(t, srv, c.page)
		if c.within != "" {
			i := strings.Index(body, c.within)
			if i < 0 {
				t.Fatalf("%s lacks %s", c.page, c.within)
			}
			body = body[i:]
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %s", c.page, w)
			}
		}
	}
}
