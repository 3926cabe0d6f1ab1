package scale

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/tokens"
)

// sciFactFile is where the BEIR SciFact tarball sits under the shared
// folder.
var sciFactFile = filepath.Join("external", "scifact", "scifact-beir.tar.gz")

// FindSciFact returns the BEIR SciFact tarball: under $PAPERLENS_SHARED
// when set, else in the "shared" folder beside the module root that holds
// the working directory.
func FindSciFact() (string, error) {
	if d := os.Getenv("PAPERLENS_SHARED"); d != "" {
		return filepath.Join(d, sciFactFile), nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find SciFact: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(filepath.Dir(dir), "shared", sciFactFile)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("BEIR SciFact not found: pass --scifact FILE (scifact-beir.tar.gz) or set PAPERLENS_SHARED")
		}
		dir = parent
	}
}

// sentence is one sentence of a SciFact abstract with its cl100k_base
// tokens counted after a space, as it sits inside a passage.
type sentence struct {
	text   string
	tokens int
}

// query is one SciFact claim.
type query struct {
	ID   string `json:"id"`
	Text string `json:"query"`
}

// sciFact is what the measurement takes from BEIR SciFact: the sentences
// of its abstracts in file order, and its queries, the test queries (those
// with qrels) first, each group in file order.
type sciFact struct {
	sentences []sentence
	queries   []query
}

// maxSentenceTokens leaves out the rare run-on "sentence" (a table or a
// list without stops) so that every passage holds several sentences.
const maxSentenceTokens = 160

// loaded keeps the last tarball read: its sentences take a second or
// two to split and count, and a process (a test) may measure twice.
var loaded struct {
	sync.Mutex
	path string
	sf   sciFact
}

// loadSciFact reads the tarball at path, or returns it as read before.
func loadSciFact(path string) (sciFact, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if loaded.path == path {
		return loaded.sf, nil
	}
	sf, err := readSciFact(path)
	if err == nil {
		loaded.path, loaded.sf = path, sf
	}
	return sf, err
}

// readSciFact reads the tarball at path.
func readSciFact(path string) (sciFact, error) {
	f, err := os.Open(path)
	if err != nil {
		return sciFact{}, fmt.Errorf("open SciFact: %w", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return sciFact{}, fmt.Errorf("read SciFact %s: %w", path, err)
	}
	var sf sciFact
	var all []query
	test := map[string]bool{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sciFact{}, fmt.Errorf("read SciFact %s: %w", path, err)
		}
		switch filepath.Base(h.Name) {
		case "corpus.jsonl":
			err = eachLine(tr, func(r beirRecord) { sf.sentences = appendSentences(sf.sentences, r.Text) })
		case "queries.jsonl":
			err = eachLine(tr, func(r beirRecord) { all = append(all, query(r)) })
		case "test.tsv":
			err = eachTSV(tr, func(qid string) { test[qid] = true })
		}
		if err != nil {
			return sciFact{}, fmt.Errorf("read %s of %s: %w", h.Name, path, err)
		}
	}
	if len(sf.sentences) == 0 || len(all) == 0 {
		return sciFact{}, fmt.Errorf("%s holds no corpus.jsonl or queries.jsonl: is it BEIR SciFact?", path)
	}
	sort.SliceStable(all, func(i, j int) bool { return test[all[i].ID] && !test[all[j].ID] })
	sf.queries = all
	return sf, nil
}

// beirRecord is a line of BEIR's corpus.jsonl or queries.jsonl.
type beirRecord struct {
	ID   string `json:"_id"`
	Text string `json:"text"`
}

func eachLine(r io.Reader, each func(beirRecord)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec beirRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return err
		}
		each(rec)
	}
	return sc.Err()
}

func eachTSV(r io.Reader, each func(qid string)) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 3 && f[0] != "query-id" {
			each(f[0])
		}
	}
	return sc.Err()
}

// appendSentences cuts an abstract into sentences with the chunker's
// sentence splitter, whitespace inside each squeezed to single spaces.
func appendSentences(out []sentence, text string) []sentence {
	for _, s := range chunk.Sentences(text) {
		t := strings.Join(strings.Fields(text[s.Start:s.End]), " ")
		if t == "" {
			continue
		}
		n := tokens.Count(" " + t)
		if n > maxSentenceTokens {
			continue
		}
		out = append(out, sentence{text: t, tokens: n})
	}
	return out
}
