package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// startServe runs 'paperlens serve' on a free loopback port and returns its
// base URL ("http://127.0.0.1:PORT").
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	return startServeIn(t, "", args...)
}

// startServeIn is startServe run in dir: in this process for the test's
// own directory (""), stopped as Ctrl-C stops it when the test ends; as a
// process working in dir otherwise.
func startServeIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	args = append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)
	var out io.Reader
	var errb lockedBuffer
	if dir == "" {
		ctx, cancel := context.WithCancel(context.Background())
		r, w := io.Pipe()
		wait := cli{}.startContext(ctx, w, &errb, args...)
		go func() {
			wait()
			w.Close()
		}()
		t.Cleanup(func() { cancel(); wait() })
		out = r
	} else {
		c := paperlensProcess(args...)
		c.Dir = dir
		pipe, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		c.Stderr = &errb
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		out = pipe
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("serve did not print its address: %q %v\n%s", line, err, errb.String())
	}
	return "http://" + m[1]
}

// goldPixels counts pixels of the highlight colour (#ffe066) in a PNG.
func goldPixels(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	// Chromium's PNGs decode to *image.RGBA: RGBAAt spares At's boxing of
	// each of the screenshot's millions of pixels in an interface.
	rgba, _ := img.(*image.RGBA)
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var r, g, bl uint32
			if rgba != nil {
				r, g, bl, _ = rgba.RGBAAt(x, y).RGBA()
			} else {
				r, g, bl, _ = img.At(x, y).RGBA()
			}
			if r>>8 >= 250 && g>>8 >= 218 && g>>8 <= 230 && bl>>8 >= 95 && bl>>8 <= 110 {
				n++
			}
		}
	}
	return n
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// rawGet sends a request line exactly as written, so no client cleans "..".
func rawGet(t *testing.T, base, path string) int {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, host)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestServeInBrowser makes a run, serves it, and loads the question list and
// a question page in headless Chromium: the passages, their scores and the
// highlighted gold evidence must be in the rendered page, and the highlight
// must show on the screenshot.
func TestServeInBrowser(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	if _, errOut, code := paperlens(t, "eval", "--home", home, "--data", data, "--model", "ir", "--mode", "full,bm25,full+hybrid,oracle", "--runs", "2", "--out", out); code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	base := startServe(t, out)

	list := dumpDOM(t, base+"/r/1/")
	if !strings.Contains(list, "37 of 37 questions") || strings.Count(list, `<td class="cell `) != 37*4 {
		t.Fatalf("question list in the browser:\n%.3000s", list)
	}
	// Find a question whose bm25 passages hold gold evidence.
	qurl := questionShowing(t, base, list, `class="passage gold"`)
	if qurl == "" {
		t.Fatal("no question page shows a retrieved passage holding gold evidence")
	}
	page := dumpDOM(t, qurl)
	checks := map[string]*regexp.Regexp{
		"four modes side by side":   regexp.MustCompile(`(?s)data-mode="full".*data-mode="bm25".*data-mode="full\+hybrid".*data-mode="oracle"`),
		"passages with rank, score": regexp.MustCompile(`#1</span><span class="score">score \d+\.\d{4}</span><span>bm25</span>`),
		"gold highlighted":          regexp.MustCompile(`<div class="passage gold"[^>]*>(?s:.)*?<mark class="gold"[^>]*>[^<]{20,}</mark>`),
		"the model's output":        regexp.MustCompile(`<pre class="mono output">Answer: [A-D]+</pre>`),
	}
	for what, re := range checks {
		if !re.MatchString(page) {
			t.Errorf("question page in the browser lacks %s", what)
		}
	}
	shot := screenshot(t, qurl, "question.png")
	n := goldPixels(t, shot)
	t.Logf("%d pixels of the gold highlight", n)
	if n < 2000 {
		t.Errorf("screenshot %s has %d pixels of the gold highlight: not visible", shot, n)
	}
	// The question list is shot for the docs only: nothing here looks at
	// its pixels.
	if os.Getenv("PAPERLENS_SCREENSHOTS") != "" {
		screenshot(t, base+"/r/1/", "list.png")
	}

	for _, p := range []string{"/../../etc/passwd", "/r/1/../../config.json", "/r/1/q/..%2F..%2Fresults.jsonl", "/r/1/paper/..%2f..%2f..%2fetc%2fpasswd", "/static/../cmd_serve.go", "/r/2/"} {
		if code := rawGet(t, base, p); code != 404 {
			t.Errorf("GET %s = %d, want 404", p, code)
		}
	}
}

// TestServeMaliciousPaper ingests a paper and a question full of markup and
// proves, in a real browser, that it renders as text: no script runs (it
// would retitle the page), no element is injected, no javascript: link.
func TestServeMaliciousPaper(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	dir, home := t.TempDir(), t.TempDir()
	paper := filepath.Join(dir, "evil.md")
	text := `# A Study of <script>document.title='pwned'</script> Injection

## 1 Introduction

We measure how retrieval helps. <img src=x onerror="document.title='pwned'"> appears in the text.
See [this link](javascript:document.title='pwned') and <a href="javascript:alert(1)">that one</a>.

## 2 Method

The retriever returns <script>document.title='pwned'</script> ten passages for each question we ask it.
Every passage is scored with BM25 and the top ten go into the prompt of the model.
`
	if err := os.WriteFile(paper, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	q := map[string]any{"id": "evil-q", "paper_id": "evil", "question": `How many passages? <img src=x onerror="document.title='pwned'">`,
		"options": []string{"ten <script>document.title='pwned'</script>", "five", "one", "none"}, "answer": "A",
		"evidence": "The retriever returns <script>document.title='pwned'</script> ten passages for each question we ask it."}
	b, _ := json.Marshal(q)
	data := filepath.Join(dir, "q.jsonl")
	os.WriteFile(data, append(b, '\n'), 0o644)
	if _, errOut, code := paperlens(t, "ingest", "--home", home, paper); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	out := filepath.Join(dir, "run")
	if _, errOut, code := paperlens(t, "eval", "--home", home, "--bench", "jsonl", "--data", data, "--model", "ir", "--mode", "full,bm25", "--runs", "1", "--out", out); code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	base := startServe(t, out)
	var page string // the paper view's DOM, checked again below
	for _, path := range []string{"/", "/r/1/", "/r/1/q/evil-q", "/r/1/paper/evil"} {
		dom := dumpDOM(t, base+path)
		if path == "/r/1/paper/evil" {
			page = dom
		}
		doc, err := html.Parse(strings.NewReader(dom))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var texts strings.Builder
		for n := range doc.Descendants() {
			switch n.Type {
			case html.TextNode:
				texts.WriteString(n.Data)
			case html.ElementNode:
				switch n.Data {
				case "script", "img", "iframe", "object", "embed":
					t.Errorf("%s: the browser built a <%s> element from paper or question text", path, n.Data)
				case "title":
					if n.FirstChild != nil && strings.Contains(n.FirstChild.Data, "pwned") {
						t.Errorf("%s: a script ran and retitled the page", path)
					}
				}
				for _, a := range n.Attr {
					if strings.HasPrefix(a.Key, "on") || strings.HasPrefix(strings.TrimSpace(strings.ToLower(a.Val)), "javascript:") {
						t.Errorf("%s: <%s %s=%q> came from paper or question text", path, n.Data, a.Key, a.Val)
					}
				}
			}
		}
		if path == "/r/1/q/evil-q" || path == "/r/1/paper/evil" {
			for _, want := range []string{"<script>document.title='pwned'</script>", `<img src=x onerror="document.title='pwned'">`} {
				if !strings.Contains(texts.String(), want) {
					t.Errorf("%s: %q is not shown as text", path, want)
				}
			}
		}
	}
	if !strings.Contains(page, "javascript:alert(1)") || !strings.Contains(page, `<mark class="gold"`) {
		t.Errorf("paper view lacks the link text or the gold mark:\n%.3000s", page)
	}
}

// TestReasoningPairReportAndServe runs one model twice on the same data,
// paradigm base and paradigm reasoning (a loopback server that answers A
// without reasoning and B with it), and checks that the report lists the
// flips the records hold and that the inspector's vs filter returns exactly
// those questions. No browser: the pages are fetched over HTTP.
func TestReasoningPairReportAndServe(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{
		Answer: func(r modeltest.Request) (string, string) {
			if r.ReasoningEffort == "" {
				return "Answer: A", ""
			}
			return "Answer: B", "Option B fits the method section better than A."
		},
		ReasoningTokens: func(r modeltest.Request) int { return 120 },
		CachedTokens:    func(r modeltest.Request) int { return 8 },
	})
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	home, root := t.TempDir(), t.TempDir()
	dirs := map[string]string{"base": filepath.Join(root, "fake-base"), "reasoning": filepath.Join(root, "fake-reasoning")}
	for _, p := range []string{"base", "reasoning"} {
		args := []string{"eval", "--bench", "elaipbench", "--data", sample, "--model", "fake-llm", "--base-url", srv.BaseURL(),
			"--paradigm", p, "--mode", "full,bm25", "--runs", "1", "--concurrency", "4", "--price", "in=2,out=8", "--out", dirs[p], "--home", home}
		if p == "reasoning" {
			args = append(args, "--reasoning-effort", "high")
		}
		if _, errOut, code := paperlens(t, args...); code != 0 {
			t.Fatalf("eval --paradigm %s: exit %d\n%s", p, code, errOut)
		}
	}
	// What the records say: per mode, right without reasoning and wrong
	// with it (lost), and the reverse (gained).
	lost, gained := reasoningPairFlips(t, dirs)
	checkReasoningPairReport(t, root, dirs, lost, gained)
	checkReasoningPairServe(t, dirs, lost, gained)
}

// reasoningPairFlips reads the two runs' records and returns, per mode,
// the questions right without reasoning and wrong with it (lost), and the
// reverse (gained); each mode must flip both ways.
func reasoningPairFlips(t *testing.T, dirs map[string]string) (lost, gained map[string][]string) {
	t.Helper()
	correct := map[string]map[string]map[string]bool{} // paradigm → mode → question
	for p, d := range dirs {
		recs, err := run.ReadResults(filepath.Join(d, run.ResultsFile))
		if err != nil {
			t.Fatal(err)
		}
		correct[p] = map[string]map[string]bool{}
		for _, r := range recs {
			if run.Scored(r) {
				if correct[p][r.Mode] == nil {
					correct[p][r.Mode] = map[string]bool{}
				}
				correct[p][r.Mode][r.QuestionID] = r.Correct
			}
		}
	}
	lost, gained = map[string][]string{}, map[string][]string{}
	for _, m := range []string{"full", "bm25"} {
		for q, b := range correct["base"][m] {
			r, ok := correct["reasoning"][m][q]
			switch {
			case ok && b && !r:
				lost[m] = append(lost[m], q)
			case ok && !b && r:
				gained[m] = append(gained[m], q)
			}
		}
		slices.Sort(lost[m])
		slices.Sort(gained[m])
		if len(lost[m]) == 0 || len(gained[m]) == 0 {
			t.Fatalf("%s: %d lost, %d gained: the fixture should flip both ways", m, len(lost[m]), len(gained[m]))
		}
	}
	return lost, gained
}

// checkReasoningPairReport checks that the report pairs the two runs and
// lists the flips the records hold.
func checkReasoningPairReport(t *testing.T, root string, dirs map[string]string, lost, gained map[string][]string) {
	t.Helper()
	md := filepath.Join(root, "report.md")
	if _, errOut, code := paperlens(t, "report", "--md", md, dirs["base"], dirs["reasoning"]); code != 0 {
		t.Fatalf("report: %s", errOut)
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	rep := string(b)
	if !strings.Contains(rep, "### fake-llm: base (fake-base) → reasoning (fake-reasoning)") {
		t.Errorf("report pairs no runs:\n%s", rep)
	}
	for _, m := range []string{"full", "bm25"} {
		checkReasoningPairFlipsRow(t, rep, m, lost[m], gained[m])
	}
	for _, want := range []string{"| truncated | tokens/q in · out (reasoning) | cost US$ |", "(120) |", "Accuracy against prompt tokens", "Prompt tokens per question as the server reported them"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// checkReasoningPairFlipsRow checks the report's flips row for mode m.
func checkReasoningPairFlipsRow(t *testing.T, rep, m string, lost, gained []string) {
	t.Helper()
	row := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(m) + ` \| (\d+) \| (\d+) \| (\d+) \| ([^|]*) \|$`).FindStringSubmatch(rep)
	if row == nil {
		t.Errorf("report has no flips row for %s", m)
		return
	}
	if row[2] != strconv.Itoa(len(lost)) || row[3] != strconv.Itoa(len(gained)) {
		t.Errorf("%s: report says %s lost, %s gained; the records %d and %d", m, row[2], row[3], len(lost), len(gained))
	}
	listed, _, _ := strings.Cut(strings.TrimSpace(row[4]), " … and ")
	for _, id := range strings.Split(listed, ", ") {
		if !slices.Contains(lost, id) {
			t.Errorf("%s: report lists %q as lost", m, id)
		}
	}
}

// checkReasoningPairServe checks that the inspector's vs filter returns
// exactly the flipped questions, and a question page the server's tokens.
func checkReasoningPairServe(t *testing.T, dirs map[string]string, lost, gained map[string][]string) {
	t.Helper()
	base := startServe(t, dirs["base"], dirs["reasoning"])
	ids := func(path string) []string {
		code, body := httpGet(t, base+path)
		if code != 200 {
			t.Fatalf("GET %s: %d", path, code)
		}
		var out []string
		for _, m := range regexp.MustCompile(`<td><a href="/r/\d/q/([^"]+)"`).FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	for _, m := range []string{"full", "bm25"} {
		if got := ids("/r/2/?vs=1&flipped=lost&mode=" + m); !slices.Equal(got, lost[m]) {
			t.Errorf("reasoning run, %s, lost against base: %v, want %v", m, got, lost[m])
		}
		if got := ids("/r/1/?vs=2&flipped=lost&mode=" + m); !slices.Equal(got, gained[m]) {
			t.Errorf("base run, %s, lost against reasoning: %v, want %v", m, got, gained[m])
		}
	}
	_, page := httpGet(t, base+"/r/2/q/"+lost["full"][0])
	if !strings.Contains(page, "<dd class=\"finish\">stop</dd>") || !regexp.MustCompile(`completion \d+ \(120 reasoning\)`).MatchString(page) || !strings.Contains(page, "(8 cached)") {
		t.Errorf("question page lacks finish reason or server tokens")
	}
}

// TestInterruptedRunReportAndServe: a run killed part-way (summary.json
// never written, 50 of its 148 records kept and a line cut in half) is
// reported and served from another directory, summarised from its records
// and marked incomplete with the right counts.
func TestInterruptedRunReportAndServe(t *testing.T) {
	t.Parallel()
	_, dir := evalProject(t, "killed", "--mode", "full,bm25", "--runs", "2")
	for _, f := range []string{"summary.json", "summary.md"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, run.ResultsFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 148 {
		t.Fatalf("the run wrote %d records, want 148", len(lines))
	}
	kept := strings.Join(lines[:50], "") + lines[50][:len(lines[50])/2]
	if err := os.WriteFile(path, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	const detail = "50 of 148 records (37 questions × 2 modes × 2 runs)"
	const want = "incomplete: " + detail

	elsewhere := t.TempDir()
	md, errOut, code := paperlensIn(t, elsewhere, "report", dir)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s", code, errOut)
	}
	for _, w := range []string{"| 50 of 148 |", "**Incomplete run** killed (ir): " + detail, "no summary.json", "| full |", "| bm25 |"} {
		if !strings.Contains(md, w) {
			t.Errorf("report lacks %q:\n%.3000s", w, md)
		}
	}
	if !strings.Contains(errOut, want) {
		t.Errorf("report's stderr does not say the run is incomplete: %q", errOut)
	}
	htmlPath := filepath.Join(elsewhere, "r.html")
	if _, errOut, code := paperlensIn(t, elsewhere, "report", dir, "--html", htmlPath); code != 0 {
		t.Fatalf("report --html: exit %d\n%s", code, errOut)
	}
	if h, _ := os.ReadFile(htmlPath); !strings.Contains(string(h), "<td>50 of 148</td>") || !strings.Contains(string(h), "<b>Incomplete run</b> killed (ir): "+detail) {
		t.Error("the HTML report does not mark the run incomplete")
	}

	base := startServeIn(t, elsewhere, dir)
	_, index := httpGet(t, base+"/")
	if !strings.Contains(index, want) || !strings.Contains(index, "no summary.json") {
		t.Errorf("the inspector's index does not mark the run incomplete:\n%.3000s", index)
	}
	if _, list := httpGet(t, base+"/r/1/"); !strings.Contains(list, want) || !strings.Contains(list, "of 37 questions") {
		t.Errorf("the run's question list does not mark it incomplete or lacks the dataset's questions:\n%.3000s", list)
	}
}

// questionShowing returns the URL of the first question page linked from a
// run's question list whose HTML holds marker, or "" when none does.
func questionShowing(t *testing.T, base, list, marker string) string {
	t.Helper()
	for _, m := range regexp.MustCompile(`href="(/r/1/q/[^"]+)"`).FindAllStringSubmatch(list, -1) {
		if _, body := httpGet(t, base+m[1]); strings.Contains(body, marker) {
			return base + m[1]
		}
	}
	return ""
}
