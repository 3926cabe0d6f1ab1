package bm25

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/retrieve"
)

// writeOkapiFile analyses ps and writes them with an OkapiWriter, papers in
// a shuffled order, under budget; it returns the writer's stats.
func writeOkapiFile(t testing.TB, path string, ps []corpus.Passage, opt OkapiOptions, budget int64, seed int) OkapiWriterStats {
	t.Helper()
	aps, err := AnalyzePassages(ps, opt.withDefaults().Tokenizer)
	if err != nil {
		t.Fatal(err)
	}
	byPaper := map[string][]AnalyzedPassage{}
	var papers []string
	for _, a := range aps {
		if _, ok := byPaper[a.PaperID]; !ok {
			papers = append(papers, a.PaperID)
		}
		byPaper[a.PaperID] = append(byPaper[a.PaperID], a)
	}
	rand.New(rand.NewPCG(uint64(seed), 7)).Shuffle(len(papers), func(i, j int) { papers[i], papers[j] = papers[j], papers[i] })
	w, err := NewOkapiWriter(path, OkapiWriterOptions{Okapi: opt, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range papers {
		if err := w.AddPaper(p, byPaper[p]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w.Stats()
}

func openOkapiFile(t testing.TB, path string) *OkapiFile {
	t.Helper()
	f, err := OpenOkapiFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func paperIDs(ps []corpus.Passage) []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p.PaperID) {
			out = append(out, p.PaperID)
		}
	}
	return out
}

// checkParity runs every query corpus-wide (at two k) and within each
// paper on both scorers and requires the same hits: same passages, same
// order, same scores to the bit (the mean idf is summed exactly, so no
// tolerance is needed). It returns the number of hits compared.
func checkParity(t *testing.T, mem *Okapi, file *OkapiFile, queries, papers []string) int {
	t.Helper()
	ctx := context.Background()
	if mem.Count() != file.Count() {
		t.Fatalf("in memory %d passages, file %d", mem.Count(), file.Count())
	}
	compared := 0
	for _, text := range queries {
		qs := []retrieve.Query{{Text: text, K: 10}, {Text: text, K: 200}}
		for _, p := range papers {
			qs = append(qs, retrieve.Query{Text: text, PaperID: p, K: 5})
		}
		for _, q := range qs {
			want, werr := mem.Search(ctx, q)
			got, gerr := file.Search(ctx, q)
			if (werr == nil) != (gerr == nil) || (werr != nil && errors.Is(werr, ErrEmptyQuery) != errors.Is(gerr, ErrEmptyQuery)) {
				t.Fatalf("%+v: in memory error %v, file error %v", q, werr, gerr)
			}
			if !reflect.DeepEqual(got, want) {
				for i := range min(len(got), len(want)) {
					if got[i] != want[i] {
						t.Fatalf("%+v: hit %d: file %+v, in memory %+v", q, i, got[i], want[i])
					}
				}
				t.Fatalf("%+v: file %d hits, in memory %d", q, len(got), len(want))
			}
			compared += len(want)
		}
	}
	return compared
}

// The file written from analysed passages, papers in any order and spilled
// in runs, searches exactly as the in-memory Okapi fed the same passages,
// for both tokenizers, on the repo's sample papers and the shared seed
// papers; and a small budget changes not a byte of the file.
func TestOkapiFileMatchesOkapi(t *testing.T) {
	for _, c := range []struct {
		name string
		ps   []corpus.Passage
	}{
		{"sample", samplePassages(t, 64)},
		{"seeds", seedPassages(t, 128)},
	} {
		for _, opt := range []OkapiOptions{{}, {Tokenizer: TokenizerWhitespace, K1: 1.2, B: 0.6, Epsilon: 0.5}} {
			t.Run(c.name+"/"+opt.withDefaults().Tokenizer, func(t *testing.T) {
				mem := newOkapi(t, opt, c.ps)
				dir := t.TempDir()
				one := filepath.Join(dir, "one.okapi")
				if st := writeOkapiFile(t, one, c.ps, opt, 1<<30, 1); st.Runs != 0 || st.Passages != len(c.ps) {
					t.Fatalf("large budget: %+v", st)
				}
				runs := filepath.Join(dir, "runs.okapi")
				st := writeOkapiFile(t, runs, c.ps, opt, 256<<10, 2)
				if st.Runs < 1 {
					t.Fatalf("a 256 KiB budget: %+v; want runs", st)
				}
				a, _ := os.ReadFile(one)
				b, _ := os.ReadFile(runs)
				if !bytes.Equal(a, b) {
					t.Fatal("the file written in runs differs from the one written at once")
				}
				file := openOkapiFile(t, runs)
				if n := checkParity(t, mem, file, seedQueries(c.ps), paperIDs(c.ps)); n < 500 {
					t.Fatalf("only %d hits compared", n)
				}
				// The in-memory Okapi written through WriteFile is the same file.
				via := filepath.Join(dir, "via.okapi")
				if err := mem.WriteFile(context.Background(), via, 0); err != nil {
					t.Fatal(err)
				}
				if v, _ := os.ReadFile(via); !bytes.Equal(v, a) {
					t.Error("Okapi.WriteFile differs from the writer fed analysed passages")
				}
				entries, _ := os.ReadDir(dir)
				if len(entries) != 3 {
					t.Errorf("left behind: %v", entries)
				}
			})
		}
	}
}

// sciFact is BEIR SciFact's corpus (title, blank line, text, by id) and
// its queries, in file order.
type sciFact struct {
	ids, texts []string
	queries    []string
}

func loadSciFact(tb testing.TB) sciFact {
	tb.Helper()
	f, err := os.Open(testcorpus.Path(tb, "external", "scifact", "scifact-beir.tar.gz"))
	if err != nil {
		tb.Skipf("BEIR SciFact not found: %v", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	var sf sciFact
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if h.Name != "scifact/corpus.jsonl" && h.Name != "scifact/queries.jsonl" {
			continue
		}
		sc := bufio.NewScanner(tr)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var r struct {
				ID    string `json:"_id"`
				Title string `json:"title"`
				Text  string `json:"text"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				tb.Fatalf("%s: %v", h.Name, err)
			}
			if h.Name == "scifact/queries.jsonl" {
				sf.queries = append(sf.queries, r.Text)
				continue
			}
			sf.ids = append(sf.ids, r.ID)
			sf.texts = append(sf.texts, strings.TrimSpace(r.Title+"\n\n"+r.Text))
		}
		if err := sc.Err(); err != nil {
			tb.Fatal(err)
		}
	}
	if len(sf.ids) != 5183 || len(sf.queries) < 300 {
		tb.Fatalf("SciFact: %d abstracts, %d queries; want 5183 and at least 300", len(sf.ids), len(sf.queries))
	}
	return sf
}

// sciFactPassages are BEIR SciFact's abstracts, one paper each, cut into
// passages of 60 words, and its queries.
func sciFactPassages(t testing.TB) ([]corpus.Passage, []string) {
	t.Helper()
	sf := loadSciFact(t)
	var ps []corpus.Passage
	for i, id := range sf.ids {
		// Windows of 60 words: several passages a paper, without the cost
		// of the sentence chunker.
		words := strings.Fields(sf.texts[i])
		for j := 0; j < len(words); j += 60 {
			ord := j / 60
			ps = append(ps, corpus.Passage{PaperID: id, PassageID: corpus.PassageID(id, ord), Ordinal: ord, Text: strings.Join(words[j:min(j+60, len(words))], " ")})
		}
	}
	return ps, sf.queries
}

// On BEIR SciFact (5,183 abstracts in 21,060 passages of 60 words) the
// file, written in runs, finds what the in-memory Okapi finds for 120 of
// its queries, corpus-wide (k 10 and 200) and within a sample of papers.
func TestOkapiFileMatchesOkapiSciFact(t *testing.T) {
	if testing.Short() {
		t.Skip("SciFact parity takes a few seconds")
	}
	ps, queries := sciFactPassages(t)
	mem := newOkapi(t, OkapiOptions{}, ps)
	mem.PrepareCorpus()
	path := filepath.Join(t.TempDir(), "scifact.okapi")
	// Papers of one abstract are far smaller than the budget, so the
	// buffer stays within it.
	if st := writeOkapiFile(t, path, ps, OkapiOptions{}, 4<<20, 3); st.Runs < 2 || st.PeakBytes > 4<<20 {
		t.Fatalf("a 4 MiB budget: %+v; want runs, and the buffer within the budget", st)
	}
	file := openOkapiFile(t, path)
	papers := paperIDs(ps)
	sample := []string{}
	for i := 0; i < len(papers); i += len(papers) / 7 {
		sample = append(sample, papers[i])
	}
	if n := checkParity(t, mem, file, queries[:120], sample); n < 12000 {
		t.Fatalf("only %d hits compared", n)
	}
	// The same file pruned: the exhaustive hits to the bit, for fewer
	// passages scored (one SciFact build serves both checks).
	e, p := checkPruned(t, file, pruneQueries(t, file, queries[:120], false))
	t.Logf("exhaustive scored %d passages, pruned %d", e, p)
	if 2*p >= e {
		t.Errorf("pruning scored %d passages, exhaustive %d: too little pruned", p, e)
	}
}
