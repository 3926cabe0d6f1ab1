package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// Papers may come as a zip of PDFs named by paper_id (ElaipBench's
// papers.zip); rows without paper_content then use the parsed PDFs.
func TestEvalRetrievalPapersZip(t *testing.T) {
	t.Parallel()
	pdf, err := os.ReadFile(filepath.Join("..", "..", "testdata", "papers", "quantile-early-exit-asr.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	zpath := filepath.Join(dir, "papers.zip")
	zf, _ := os.Create(zpath)
	zw := zip.NewWriter(zf)
	w, _ := zw.Create("papers/quantile-early-exit-asr.pdf")
	w.Write(pdf)
	w, _ = zw.Create("../../evil/readme.txt") // never written anywhere
	w.Write([]byte("x"))
	zw.Close()
	zf.Close()

	// Keep the sample's rows for that paper, without paper_content.
	raw, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["paper_id"] == "quantile-early-exit-asr" {
			delete(m, "paper_content")
			b, _ := json.Marshal(m)
			rows = append(rows, string(b))
		}
	}
	data := filepath.Join(dir, "rows.jsonl")
	os.WriteFile(data, []byte(strings.Join(rows, "\n")+"\n"), 0o644)

	home := t.TempDir()
	out, errOut, code := paperlens(t, "eval", "retrieval", "--json", "--home", home, "--data", data, "--papers", zpath, "--retriever", "bm25", "-k", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum struct{ N int }
	json.Unmarshal([]byte(lines[len(lines)-1]), &sum)
	if sum.N != len(rows) || sum.N == 0 {
		t.Fatalf("n = %d, want %d: %s", sum.N, len(rows), errOut)
	}
	if _, err := os.Stat(filepath.Join(home, "papers", "papers", "quantile-early-exit-asr.pdf")); err != nil {
		t.Errorf("PDF not extracted under home: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, "..", "evil")); err == nil {
		t.Error("the archive wrote outside its folder")
	}
}

func TestAskOffline(t *testing.T) {
	t.Parallel()
	home := papersHome(t, false) // the sample papers ingested
	out, errOut, code := paperlens(t, "ask", "--home", home, "--paper", "tidal-token-pruning", "--mode", "hybrid",
		"How are parked tokens brought back?\nA. Averaged with neighbours\nB. Highest stored score first, refreshed by a residual network\nC. All at once\nD. Never")
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Passages given to the model", "tidal-token-pruning#", "Answer (ir):", "Extracted: "} {
		if !strings.Contains(out, want) {
			t.Errorf("ask output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = paperlens(t, "ask", "--home", home, "--paper", "tidal-token-pruning", "what is a reservoir?")
	if code != 0 || !strings.Contains(out, "No model configured") {
		t.Errorf("free-form ask without a model: exit %d\n%s", code, out)
	}
}

// ask tells the model to cite passage labels, and lists the passages its
// answer cites (id, section, first words) under the answer; a label that
// was not in the context is dropped.
func TestAskPrintsCitedPassages(t *testing.T) {
	t.Parallel()
	home := papersHome(t, false) // the sample papers ingested
	offered := regexp.MustCompile(`cite as \[(p[0-9]+)\]`)
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		p := r.Messages[len(r.Messages)-1].Content
		if strings.Contains(p, `write "unanswerable"`) {
			return "Unanswerable.", ""
		}
		ls := offered.FindAllStringSubmatch(p, -1)
		if len(ls) < 2 {
			return "The prompt offered no labels.", ""
		}
		return fmt.Sprintf("Parked tokens return highest score first [%s], refreshed by a residual network [%s, p9999].", ls[1][1], ls[0][1]), ""
	}})
	// ask caches answers for every process on the machine, under
	// $TMPDIR/paperlens-ask, by endpoint, model and prompt: a model name
	// of this run's own keeps an answer cached by an earlier run, whose
	// double happened to listen on the same port, from standing in for
	// this double's (it did, at about one run in forty: no request
	// reached the double, and the test panicked reading the last one).
	modelName := fmt.Sprintf("fake-model-%d-%d", os.Getpid(), time.Now().UnixNano())
	out, errOut, code := paperlens(t, "ask", "--home", home, "--paper", "tidal-token-pruning", "--mode", "bm25",
		"--model", modelName, "--base-url", srv.BaseURL(), "How are parked tokens brought back?")
	if code != 0 {
		t.Fatalf("ask: exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatalf("ask made no request to the model:\n%s", out)
	}
	prompt := reqs[len(reqs)-1].Prompt()
	ls := offered.FindAllStringSubmatch(prompt, -1)
	if len(ls) < 2 || !strings.Contains(prompt, "Cite the passages your answer uses") {
		t.Fatalf("the prompt does not offer labels to cite:\n%s", prompt)
	}
	_, cited, ok := strings.Cut(out, "Cited passages:\n")
	if !ok {
		t.Fatalf("no cited passages under the answer:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(cited), "\n")
	if len(lines) != 4 {
		t.Fatalf("cited passages (want two, two lines each):\n%s", cited)
	}
	for i, l := range []string{ls[1][1], ls[0][1]} {
		head := "[" + l + "] tidal-token-pruning#" + strings.TrimPrefix(l, "p")
		if !strings.HasPrefix(strings.TrimSpace(lines[2*i]), head) || !strings.Contains(lines[2*i], "§ ") || len(strings.Fields(lines[2*i+1])) < 5 {
			t.Errorf("cited passage %d: want %q with its section, then its first words:\n%s", i+1, head, cited)
		}
	}
	if strings.Contains(cited, "p9999") {
		t.Errorf("a label not in the context is listed:\n%s", cited)
	}
	// --expand brings each hit's neighbours, and ask names them.
	out, errOut, code = paperlens(t, "ask", "--home", home, "--paper", "tidal-token-pruning", "--mode", "bm25", "--expand", "1",
		"--model", modelName, "--base-url", srv.BaseURL(), "How are parked tokens brought back?")
	if code != 0 || !strings.Contains(out, "--expand added their neighbours: tidal-token-pruning#") {
		t.Errorf("ask --expand 1: exit %d\n%s%s", code, out, errOut)
	}
	// In self-route the double declines the passages, so the answer comes
	// from the whole paper, and ask says so.
	out, errOut, code = paperlens(t, "ask", "--home", home, "--paper", "tidal-token-pruning", "--mode", "self-route",
		"--model", modelName, "--base-url", srv.BaseURL(), "How are parked tokens brought back?")
	if code != 0 || !strings.Contains(out, "Route: full.") || !strings.Contains(out, "The prompt offered no labels.") {
		t.Errorf("ask --mode self-route: exit %d\n%s%s", code, out, errOut)
	}
}
