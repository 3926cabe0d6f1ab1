package bm25

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/retrieve"
)

func analyzedByPaper(t testing.TB, ps []corpus.Passage) map[string][]AnalyzedPassage {
	t.Helper()
	aps, err := AnalyzePassages(ps, TokenizerAnalyzer)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]AnalyzedPassage{}
	for _, a := range aps {
		out[a.PaperID] = append(out[a.PaperID], a)
	}
	return out
}

// A writer seeded from a file keeps its papers but those Keep refuses and
// those added again, without analysing them, and writes byte for byte the
// file a fresh writer makes of the resulting papers: a paper removed, one
// re-chunked (added again while the seed still holds it), one new.
func TestOkapiWriterSeed(t *testing.T) {
	ctx := context.Background()
	all := append(samplePassages(t, 64), seedPassages(t, 128)...)
	papers := paperIDs(all)
	removed, rechunked, added := papers[0], papers[1], papers[2]
	var before, after []corpus.Passage
	for _, p := range all {
		if p.PaperID != added {
			before = append(before, p)
		}
		if p.PaperID != removed && p.PaperID != rechunked {
			after = append(after, p)
		}
	}
	for _, p := range samplePassages(t, 32) {
		if p.PaperID == rechunked {
			after = append(after, p)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "okapi.idx")
	writeOkapiFile(t, path, before, OkapiOptions{}, 0, 1)
	old := openOkapiFile(t, path) // a reader of the old file keeps searching it

	byPaper := analyzedByPaper(t, after)
	w, err := NewOkapiWriter(path, OkapiWriterOptions{Seed: path, Budget: 512 << 10, Keep: func(id string) bool { return id != removed }})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{added, rechunked} {
		if err := w.AddPaper(id, byPaper[id]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.idx")
	writeOkapiFile(t, fresh, after, OkapiOptions{}, 0, 2)
	a, _ := os.ReadFile(path)
	b, _ := os.ReadFile(fresh)
	if !bytes.Equal(a, b) {
		t.Fatal("the seeded file differs from one written fresh from the same papers")
	}
	if n := checkParity(t, newOkapi(t, OkapiOptions{}, after), openOkapiFile(t, path), seedQueries(after)[:20], paperIDs(after)); n < 100 {
		t.Fatalf("only %d hits compared", n)
	}
	if hits, err := old.Search(ctx, retrieve.Query{Text: "verification", PaperID: removed, K: 3}); err != nil || old.Count() != len(before) {
		t.Fatalf("the old file's reader after the rewrite: %v %v", hits, err)
	}

	// Twice the same paper is an error, and leaves the target alone.
	w, err = NewOkapiWriter(path, OkapiWriterOptions{Seed: path})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.AddPaper(added, byPaper[added]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(ctx); err == nil || !strings.Contains(err.Error(), "added twice") {
		t.Errorf("a paper added twice: %v", err)
	}
	if c, _ := os.ReadFile(path); !bytes.Equal(c, a) {
		t.Error("a failed write changed the target")
	}
	// A seed with other options cannot be merged into.
	if _, err := NewOkapiWriter(path, OkapiWriterOptions{Seed: path, Okapi: OkapiOptions{K1: 1.2}}); err == nil || !strings.Contains(err.Error(), "rebuild") {
		t.Errorf("seed with other options: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

// An empty writer writes a valid file of no passages, which searches as an
// empty Okapi does.
func TestOkapiFileEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.idx")
	w, err := NewOkapiWriter(path, OkapiWriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := openOkapiFile(t, path)
	empty, err := EmptyOkapiFile(OkapiOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mem := newOkapi(t, OkapiOptions{})
	for _, r := range []retrieve.Retriever{f, empty} {
		checkParity(t, mem, r.(*OkapiFile), []string{"cat", "the"}, []string{"nope"})
	}
}

// fileCorruptions are damage done to a valid file: each must make opening
// or a search fail with ErrCorruptOkapi (or not matter), never panic.
func TestOkapiFileCorrupt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.idx")
	ps := append(passages("pets", petsText...), passages("far", farText...)...)
	writeOkapiFile(t, path, ps, OkapiOptions{Tokenizer: TokenizerWhitespace}, 0, 1)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Truncated anywhere, or garbage of the same size: an error at open.
	for _, n := range []int{0, 10, okHeaderSize - 1, okHeaderSize, len(good) / 2, len(good) - 1} {
		if _, err := newOkapiFile("t", good[:n]); !errors.Is(err, ErrCorruptOkapi) {
			t.Errorf("truncated to %d bytes: %v", n, err)
		}
	}
	if _, err := newOkapiFile("x", bytes.Repeat([]byte("x"), len(good))); !errors.Is(err, ErrCorruptOkapi) {
		t.Errorf("garbage: %v", err)
	}
	// The gob format is named, with what to do.
	gob := filepath.Join(dir, "okapi.gob")
	if err := newOkapi(t, OkapiOptions{}, ps).Save(gob); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenOkapiFile(gob); !errors.Is(err, ErrCorruptOkapi) || !strings.Contains(err.Error(), OkapiFileFormat) {
		t.Errorf("a gob file opened as %s: %v", OkapiFileFormat, err)
	}
	// Damage past the header is found by the search or merge that reads
	// it. Every other byte is set to 0xff in turn (the header's checksum
	// makes damage there an error at open; FuzzOkapiFile tries the rest).
	detected := 0
	for i := okHeaderSize; i < len(good); i += 2 {
		bad := bytes.Clone(good)
		bad[i] = 0xff
		if searchAll(t, bad) {
			detected++
		}
	}
	if detected == 0 {
		t.Error("no damage detected")
	}
}

// searchAll opens data and runs searches and a merge over it, reporting
// whether any of them failed with ErrCorruptOkapi; any other error fails t.
func searchAll(t testing.TB, data []byte) bool {
	f, err := newOkapiFile("fuzz", data)
	if err != nil {
		if !errors.Is(err, ErrCorruptOkapi) && !strings.Contains(err.Error(), "format") {
			t.Fatalf("open: %v", err)
		}
		return true
	}
	failed := false
	check := func(err error) {
		if err != nil {
			if !errors.Is(err, ErrCorruptOkapi) {
				t.Fatalf("%v", err)
			}
			failed = true
		}
	}
	for _, q := range []retrieve.Query{{Text: "the cat bird", K: 3}, {Text: "a dog", K: 10}, {Text: "the cat", PaperID: "pets", K: 2}, {Text: "zebra hand", PaperID: "far", K: 5}} {
		_, err := f.Search(context.Background(), q)
		if errors.Is(err, ErrEmptyQuery) {
			continue
		}
		check(err)
	}
	check(mergeTo(context.Background(), &memOut{}, filepath.Join(os.TempDir(), "paperlens-okapi-fuzz.terms-"), []mergeSource{fileSource{&f.v}}, true, func(id string) bool { return id != "far" }, f.Options()))
	return failed
}

// FuzzOkapiFile opens mutated files and searches and merges them: any
// outcome but a panic (or an error not wrapping ErrCorruptOkapi) passes.
func FuzzOkapiFile(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed.idx")
	ps := append(passages("pets", petsText...), passages("far", farText...)...)
	writeOkapiFile(f, path, ps, OkapiOptions{Tokenizer: TokenizerWhitespace}, 0, 1)
	good, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Fuzz(func(t *testing.T, data []byte) { searchAll(t, data) })
}

// memOut is a file in memory for merges under test.
type memOut struct{ b []byte }

func (m *memOut) WriteAt(p []byte, off int64) (int, error) {
	if end := int(off) + len(p); end > len(m.b) {
		m.b = append(m.b, make([]byte, end-len(m.b))...)
	}
	return copy(m.b[off:], p), nil
}

func (m *memOut) Write(p []byte) (int, error) { return m.WriteAt(p, int64(len(m.b))) }

// Opening reads the header and nothing else: the allocations of an open
// are the same for a file of five passages and one of the seed papers'
// hundreds, and nothing proportional to the corpus is built.
func TestOkapiFileOpenIsConstant(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.idx"), filepath.Join(dir, "large.idx")
	writeOkapiFile(t, small, append(passages("pets", petsText...), passages("far", farText...)...), OkapiOptions{}, 0, 1)
	ps := seedPassages(t, 64)
	writeOkapiFile(t, large, ps, OkapiOptions{}, 0, 1)
	allocs := func(path string) float64 {
		return testing.AllocsPerRun(20, func() {
			f, err := OpenOkapiFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
		})
	}
	a, b := allocs(small), allocs(large)
	if f := openOkapiFile(t, large); f.Count() != len(ps) || f.Count() < 100*5 {
		t.Fatalf("large file holds %d passages", f.Count())
	}
	if a != b {
		t.Errorf("opening 5 passages allocates %v times, %d passages %v times", a, len(ps), b)
	}
}

// A file truncated in place under a reader's mapping (writers never do
// that; a copy over it could) fails the search with ErrCorruptOkapi
// instead of killing the process with SIGBUS.
func TestOkapiFileTruncatedUnderMapping(t *testing.T) {
	path := filepath.Join(t.TempDir(), "okapi.idx")
	ps := seedPassages(t, 128)
	writeOkapiFile(t, path, ps, OkapiOptions{}, 0, 1)
	f := openOkapiFile(t, path)
	q := retrieve.Query{Text: "retrieval with rank_bm25 default hyper-parameters", K: 10}
	if _, err := f.Search(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if f.v.data == nil {
		t.Skip("the file is read, not mapped, on this platform")
	}
	if err := os.Truncate(path, okHeaderSize); err != nil {
		t.Fatal(err)
	}
	_, err := f.Search(context.Background(), q)
	if !errors.Is(err, ErrCorruptOkapi) || !strings.Contains(err.Error(), "faulted") {
		t.Fatalf("search of a file truncated under its mapping: %v", err)
	}
}
