package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
)

// The test binary is also the extraction worker: a Pool started with
// testIsolation runs it with the worker's environment, and TestMain serves
// instead of testing. Its HTML extractor misbehaves on request, so the
// tests can make a worker die every way a hostile PDF makes the real one.
func TestMain(m *testing.M) {
	if spec := os.Getenv(killChildEnv); spec != "" {
		os.Exit(killChild(spec))
	}
	if IsWorker() {
		real := extractors["html"]
		extractors["html"] = func(ctx context.Context, raw []byte) (extracted, error) {
			if act, ok := strings.CutPrefix(string(raw), "hostile:"); ok {
				hostile(strings.TrimSpace(act))
			}
			if e, ok := markedExtract(raw); ok {
				return e, nil
			}
			return real(ctx, raw)
		}
		if err := ServeWorker(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var hostileSink [][]byte

// hostile does in a worker what the seven crashing PDFs of issue 12 did to
// ledongthuc/pdf.
func hostile(act string) {
	switch act {
	case "alloc": // a ToUnicode or Flate bomb
		for {
			b := make([]byte, 32<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			hostileSink = append(hostileSink, b)
		}
	case "columns": // /Predictor 12 /Columns 100000000000: one 100 GB make
		n := 100_000_000_000 + len(hostileSink)
		hostileSink = append(hostileSink, make([]byte, n))
	case "mapwrite": // a Go fatal error that recover() cannot catch
		m := map[int]int{}
		for range 4 {
			go func() {
				for j := 0; ; j++ {
					m[j] = j
				}
			}()
		}
		for j := 0; ; j++ {
			m[-j] = j
		}
	case "recurse": // an object stream that contains itself
		var f func(int) int
		f = func(n int) int { return f(n+1) + 1 }
		f(0)
	case "sleep": // a loop that never ends
		time.Sleep(time.Hour)
	case "panic":
		panic("index out of range [7] with length 3")
	}
}

var testIsolation = &Isolation{Command: []string{os.Args[0]}, Memory: 256 << 20}

// A batch of hostile documents among good ones: each hostile one is its
// own error in plain words, the worker's dying words never reach a
// message, and every good document is stored exactly as in-process
// ingest stores it.
func TestIsolatedHostileBatch(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	files := map[string]string{
		"alloc.html":    "hostile: alloc",
		"columns.html":  "hostile: columns",
		"mapwrite.html": "hostile: mapwrite",
		"recurse.html":  "hostile: recurse",
		"sleep.html":    "hostile: sleep",
		"panic.html":    "hostile: panic",
		"good.html":     "<html><head><title>Good Page</title></head><body><article><h1>Good Page</h1><p>" + strings.Repeat("Retrieval helps a little on long papers, we found. ", 60) + "</p></article></body></html>",
		"notes.txt":     longText(300),
		"long.txt":      longText(20000), // over smallText: cleaned and chunked in a worker
		"paper.md":      "# A Paper\n\n## 1 Introduction\n\nText here. More text.\n",
		"bench.jsonl":   `{"paper_id":"p1","paper_content":"Paper one text. It is short.","question":"q1"}` + "\n",
	}
	writeFiles(t, src, files)
	paths := []string{src}
	if pdfs := sharedPDFs(t, 2); len(pdfs) > 0 {
		paths = append(paths, pdfs...)
	}
	// The timeout leaves room for a loaded machine (the whole suite runs
	// packages side by side) and for the race detector: the memory and
	// nesting cases must fail by their cap, not by the clock.
	timeout := 8 * time.Second * raceSlowdown
	want := map[string]string{
		"alloc":    "the HTML page needs more than 256 MiB of memory to parse; it may be malicious or damaged",
		"columns":  "the HTML page needs more than 256 MiB of memory to parse",
		"mapwrite": "the HTML page crashed the parser; it may be malicious or damaged",
		"recurse":  "the HTML page is nested too deeply to parse",
		"sleep":    fmt.Sprintf("timed out after %s", timeout),
		"panic":    "index out of range [7] with length 3",
	}
	start := time.Now()
	got, failed := ingestDir(t, t.TempDir(), Options{Isolation: testIsolation, Timeout: timeout, Workers: 2}, paths...)
	t.Logf("batch of %d in %v", len(got), time.Since(start))
	for id, phrase := range want {
		r := got[id+"|"+id+".html"]
		if id == "mapwrite" && raceSlowdown > 1 && strings.Contains(r.Error, want["alloc"]) {
			// Under -race the writers are slowed so much that the map
			// reaches the memory cap before the runtime sees two writers
			// at once: the other way a worker dies, and as much that
			// document's error alone.
			continue
		}
		if r.Status != StatusError || !strings.Contains(r.Error, phrase) {
			t.Errorf("%s: %+v, want an error saying %q", id, r, phrase)
		}
	}
	if failed != len(want) {
		t.Errorf("%d failed, want %d", failed, len(want))
	}
	for k, r := range got {
		for _, leak := range []string{"fatal error", "goroutine", "runtime.", "concurrent map"} {
			if strings.Contains(r.Error, leak) {
				t.Errorf("%s: the worker's crash text reached the message: %s", k, r.Error)
			}
		}
		if _, hostile := want[r.PaperID]; !hostile && r.Status != StatusOK {
			t.Errorf("good document %s: %+v", k, r)
		}
	}

	// The same good documents in this process give the same passages.
	for id := range want {
		os.Remove(filepath.Join(src, id+".html"))
	}
	home1, home2 := t.TempDir(), t.TempDir()
	ingestDir(t, home1, Options{Isolation: testIsolation}, paths...)
	ingestDir(t, home2, Options{Isolation: &Isolation{Off: true}}, paths...)
	s1, _ := corpus.Open(home1, true)
	defer s1.Close()
	s2, _ := corpus.Open(home2, true)
	defer s2.Close()
	docs, _ := s2.Docs()
	if len(docs) < 5 {
		t.Fatalf("in-process ingest stored %d documents", len(docs))
	}
	for _, d := range docs {
		p1, err1 := s1.Passages(d.PaperID)
		p2, err2 := s2.Passages(d.PaperID)
		if err1 != nil || err2 != nil || fmt.Sprint(p1) != fmt.Sprint(p2) {
			t.Errorf("%s: isolated and in-process passages differ (%d vs %d passages; %v %v)", d.PaperID, len(p1), len(p2), err1, err2)
		}
		d1, _ := s1.Doc(d.PaperID)
		if d1.Title != d.Title || d1.Pages != d.Pages || d1.Tokens != d.Tokens || d1.Chars != d.Chars {
			t.Errorf("%s: isolated %+v, in-process %+v", d.PaperID, d1, d)
		}
	}
}

// sharedPDFs returns up to n of the shared corpus's PDFs, none when the
// corpus is absent (then the PDF path is tested by the cmd tests' CI).
func sharedPDFs(t *testing.T, n int) []string {
	root := os.Getenv("PAPERLENS_SHARED")
	if root == "" {
		root = filepath.Join("..", "..", "shared")
	}
	m, _ := filepath.Glob(filepath.Join(root, "corpus", "pdf", "*.pdf"))
	if len(m) == 0 && os.Getenv("CI") != "" {
		m, _ = filepath.Glob(filepath.Join(testcorpus.Path(t, "corpus", "pdf"), "*.pdf"))
	}
	return m[:min(n, len(m))]
}

// Only regular files are read, within the size cap, each in its time: a
// FIFO and a link to /dev/zero would otherwise block or fill memory.
func TestOnlyRegularFilesWithinSize(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"ok.txt": longText(10), "big.txt": strings.Repeat("x", 5000)})
	if err := syscall.Mkfifo(filepath.Join(src, "fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(src, "zero.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(src, "zero.jsonl")); err != nil {
		t.Fatal(err)
	}
	// PDFs and HTML take another road when isolated: only hashed here,
	// read by the worker.
	if err := syscall.Mkfifo(filepath.Join(src, "fifo2.pdf"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(src, "zero2.html")); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, src, map[string]string{"big2.html": "<p>" + strings.Repeat("y", 4993) + "</p>"})
	// A FIFO read would block and /dev/zero never end: each is refused by
	// its kind before any read, which the errors below say. The time limit
	// only ends a read that was wrongly started (its error would then be a
	// time-out, and fail the test); it is not the claim, so it is generous.
	for _, iso := range []*Isolation{testIsolation, {Off: true}} {
		got, failed := ingestDir(t, t.TempDir(), Options{Isolation: iso, Timeout: time.Minute, MaxFileSize: 4000}, src)
		want := map[string]string{
			"fifo|fifo.txt":    "not a regular file (a named pipe (FIFO))",
			"zero|zero.txt":    "not a regular file (a character device)",
			"|zero.jsonl":      "not a regular file (a character device)",
			"big|big.txt":      "file of 5 kB is larger than --max-file-size 4 kB",
			"fifo2|fifo2.pdf":  "not a regular file (a named pipe (FIFO))",
			"zero2|zero2.html": "not a regular file (a character device)",
			"big2|big2.html":   "file of 5 kB is larger than --max-file-size 4 kB",
		}
		for k, phrase := range want {
			if r := got[k]; r.Status != StatusError || !strings.Contains(r.Error, phrase) {
				t.Errorf("isolation %+v, %s: %+v, want an error saying %q", iso, k, r, phrase)
			}
		}
		if got["ok|ok.txt"].Status != StatusOK || failed != len(want) {
			t.Errorf("isolation %+v: ok.txt %+v, %d failed", iso, got["ok|ok.txt"], failed)
		}
	}
}

// hashRegular, which the parent runs when a worker reads the file, must
// give the SourceHash of the bytes readRegular reads, or every isolated
// re-ingest would extract again.
func TestHashRegularIsSourceHash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"empty.txt": "", "one.txt": "x", "long.txt": strings.Repeat("abc", 300000)})
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	files = append(files, sharedPDFs(t, 3)...)
	for _, f := range files {
		b, err := readRegular(f, 200<<20)
		if err != nil {
			t.Fatal(err)
		}
		h, err := hashRegular(f, 200<<20)
		if err != nil {
			t.Fatal(err)
		}
		if h != SourceHash(b) {
			t.Errorf("%s: hashRegular %s, SourceHash of the bytes read %s", f, h, SourceHash(b))
		}
		if fi, _ := os.Stat(f); int64(len(b)) != fi.Size() {
			t.Errorf("%s: read %d bytes of %d", f, len(b), fi.Size())
		}
	}
}

// A worker that cannot be found stops the run before any document, saying
// which and how to go on.
func TestMissingWorker(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	writeFiles(t, src, map[string]string{"a.txt": "Hello.\n\nWorld."})
	st, err := corpus.Open(t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = Run(context.Background(), st, []string{src}, Options{Isolation: &Isolation{Command: []string{"/nonexistent/paperlens", "__extract-worker"}}}, func(Result) {})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/paperlens") || !strings.Contains(err.Error(), "--isolate=false") {
		t.Fatalf("missing worker: %v", err)
	}
}
