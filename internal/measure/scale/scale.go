// Package scale measures paperlens at corpus sizes from thousands to a
// million passages (paperlens measure scale): the index build's peak
// memory and CPU per passage, a fresh search process's start, per-query
// latency of bm25, dense and hybrid, hybrid's batch CPU against bm25's,
// and bm25's batch CPU against Xapian's on the same passages and queries
// in the same run.
//
// Each size gets a synthetic home: sentences of BEIR SciFact's abstracts,
// sampled with a seed, packed into passages of at most 512 tokens and
// grouped into papers of about 30 passages, written straight into the
// corpus store (ingest is not what is measured). The paperlens binary then
// runs as child processes (index, search), so memory and CPU are a real
// process's as the kernel accounts them.
package scale

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// Options say what to measure.
type Options struct {
	Self    string   // the paperlens binary measured; "": this program
	Sizes   []string // passages per home: 2000, 10k, 100k, 1M
	Queries int      // queries of the batch, from SciFact's queries file
	K       int      // hits per query
	Rounds  int      // interleaved rounds of the search measurements; each figure is the median
	Keep    string   // keep the built homes here and reuse them; "": a temporary folder
	SciFact string   // BEIR SciFact tarball; "": FindSciFact
	Seed    uint64   // of the sentence sampling
	Python  string   // interpreter of the Xapian anchor
	// Progress receives a line per step; nil: silent.
	Progress io.Writer
}

// AddFlags declares the options' flags.
func (o *Options) AddFlags(fl *pflag.FlagSet) {
	fl.StringSliceVar(&o.Sizes, "sizes", []string{"10k", "100k"}, "passages per synthetic home, comma-separated (k and M suffixes: 10k, 100k, 1M)")
	fl.IntVar(&o.Queries, "queries", 300, "queries of each batch, SciFact's test queries first")
	fl.IntVar(&o.K, "k", 10, "passages returned per query")
	fl.IntVar(&o.Rounds, "rounds", 3, "interleaved rounds of the search measurements; each figure is the median")
	fl.StringVar(&o.Keep, "keep", "", "build the homes under `DIR` and keep them; a later run with the same DIR, sizes and seed reuses each corpus, and its index and build figures when the same binary built them")
	fl.StringVar(&o.SciFact, "scifact", "", "BEIR SciFact tarball `FILE` (default: external/scifact/scifact-beir.tar.gz under $PAPERLENS_SHARED, or under the shared folder beside the repository)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the sentence sampling")
	fl.StringVar(&o.Self, "paperlens", "", "the paperlens binary `FILE` to measure, e.g. an older build (default: this program)")
	fl.StringVar(&o.Python, "python", DefaultPython, "the Python interpreter `FILE` with the xapian module, for the Xapian anchor")
}

// Result is the figures of every size, smallest first.
type Result struct {
	Binary  string `json:"binary"`
	Queries int    `json:"queries"`
	K       int    `json:"k"`
	Rounds  int    `json:"rounds"`
	Seed    uint64 `json:"seed"`
	Memory  string `json:"memory"` // how peak memory was measured
	// Xapian is the anchor's version, or why it was skipped.
	Xapian   string   `json:"xapian"`
	XapianOK bool     `json:"xapian_ok"`
	Sizes    []Size   `json:"sizes"`
	Targets  []Target `json:"targets"`
}

// Size is the figures of one synthetic home.
type Size struct {
	synthetic
	// Kept: the home and its build figures are from an earlier run (--keep).
	Kept  bool  `json:"kept"`
	Build Usage `json:"build"` // paperlens index of the whole home
	// BuildCPUPerPassageUs is the build's CPU over its passages, in µs;
	// BuildCPURatio that over the smallest size's.
	BuildCPUPerPassageUs float64 `json:"build_cpu_per_passage_us"`
	BuildCPURatio        float64 `json:"build_cpu_ratio"`
	// Start is a fresh paperlens search process answering one bm25 query:
	// its wall time is the time to the first answered query.
	Start Usage `json:"start"`
	// BM25Batch and HybridBatch are paperlens search --queries processes
	// answering the whole batch, index opening included.
	BM25Batch   Usage `json:"bm25_batch"`
	HybridBatch Usage `json:"hybrid_batch"`
	// HybridOverBM25 is HybridBatch's CPU over BM25Batch's.
	HybridOverBM25 float64 `json:"hybrid_over_bm25_cpu"`
	// BM25DerivedMs is bm25's CPU per query in the child: the batch's CPU
	// less the one-query process's, over the other queries.
	BM25DerivedMs float64 `json:"bm25_derived_cpu_ms_per_query"`
	// Per-query latency, one query at a time (see measureLatency).
	BM25   Latency `json:"bm25"`
	Dense  Latency `json:"dense"`
	Hybrid Latency `json:"hybrid"`
	// Xapian is the anchor on the same passages and queries; nil when skipped.
	Xapian *XapianFigures `json:"xapian,omitempty"`
}

// XapianFigures are the anchor's.
type XapianFigures struct {
	Build  Usage `json:"build"`  // indexing the passages
	Search Usage `json:"search"` // the process answering the batch: interpreter, open, queries
	// InScriptCPUMs is the open and the queries alone, without the
	// interpreter's start.
	InScriptCPUMs float64 `json:"in_script_cpu_ms"`
	// BM25OverXapian is paperlens' bm25 batch CPU over Xapian's search
	// process's.
	BM25OverXapian float64 `json:"bm25_over_xapian_cpu"`
	// Overlap is the mean share of Xapian's top k that paperlens' bm25
	// returns too.
	Overlap float64 `json:"top_k_overlap"`
}

// Run builds (or reuses) a home per size and measures it.
func Run(ctx context.Context, opt Options) (Result, error) {
	opt, sizes, err := opt.withDefaults()
	if err != nil {
		return Result{}, err
	}
	sf, err := loadSciFact(opt.SciFact)
	if err != nil {
		return Result{}, err
	}
	if opt.Queries > len(sf.queries) {
		return Result{}, fmt.Errorf("--queries %d: SciFact has %d queries", opt.Queries, len(sf.queries))
	}
	dir, cleanup, err := workDir(opt.Keep)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	bin, err := fileHash(opt.Self)
	if err != nil {
		return Result{}, err
	}
	m := &measurer{opt: opt, sf: sf, dir: dir, run: newRunner(dir), qs: sf.queries[:opt.Queries], binary: bin}
	res := Result{Binary: opt.Self, Queries: opt.Queries, K: opt.K, Rounds: opt.Rounds, Seed: opt.Seed, Memory: m.run.memorySource()}
	if a, err := newAnchor(ctx, opt.Python, dir); err != nil {
		res.Xapian = "skipped: " + err.Error()
		m.logf("xapian anchor %s", res.Xapian)
	} else {
		m.anchor, res.XapianOK = &a, true
		res.Xapian = "Xapian BM25 (python3-xapian, English stemmer, k1=1.5, b=0.75)"
	}
	if m.queries, err = writeQueries(filepath.Join(dir, fmt.Sprintf("queries-%d.jsonl", opt.Queries)), m.qs); err != nil {
		return Result{}, err
	}
	for _, n := range sizes {
		s, err := m.size(ctx, n)
		if err != nil {
			return res, err
		}
		res.Sizes = append(res.Sizes, s)
	}
	for i := range res.Sizes {
		if base := res.Sizes[0].BuildCPUPerPassageUs; base > 0 {
			res.Sizes[i].BuildCPURatio = res.Sizes[i].BuildCPUPerPassageUs / base
		}
	}
	res.Targets = targets(res.Sizes)
	return res, nil
}

func (o Options) withDefaults() (Options, []int, error) {
	if o.Self == "" {
		self, err := os.Executable()
		if err != nil {
			return o, nil, fmt.Errorf("find this program to run its index and search: %w", err)
		}
		o.Self = self
	}
	if o.SciFact == "" {
		p, err := FindSciFact()
		if err != nil {
			return o, nil, err
		}
		o.SciFact = p
	}
	if o.Python == "" {
		o.Python = DefaultPython
	}
	if o.Queries < 2 {
		return o, nil, fmt.Errorf("--queries %d: need at least 2", o.Queries)
	}
	o.K = max(o.K, 1)
	o.Rounds = max(o.Rounds, 1)
	var sizes []int
	for _, s := range o.Sizes {
		n, err := ParseSize(s)
		if err != nil {
			return o, nil, err
		}
		sizes = append(sizes, n)
	}
	if len(sizes) == 0 {
		return o, nil, errors.New("--sizes: give at least one size")
	}
	slices.Sort(sizes)
	return o, slices.Compact(sizes), nil
}

// ParseSize reads a passage count: digits with an optional k (thousand)
// or M (million) suffix.
func ParseSize(s string) (int, error) {
	t := strings.TrimSpace(s)
	mult := 1
	switch {
	case strings.HasSuffix(t, "k"), strings.HasSuffix(t, "K"):
		mult, t = 1000, t[:len(t)-1]
	case strings.HasSuffix(t, "M"), strings.HasSuffix(t, "m"):
		mult, t = 1_000_000, t[:len(t)-1]
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n*float64(mult) < 1 || n*float64(mult) > 1e8 {
		return 0, fmt.Errorf("size %q: want a passage count such as 2000, 10k or 1M", s)
	}
	return int(n * float64(mult)), nil
}

// workDir is keep (created) or a new temporary folder removed by cleanup.
func workDir(keep string) (dir string, cleanup func(), err error) {
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return "", nil, fmt.Errorf("--keep: %w", err)
		}
		return keep, func() {}, nil
	}
	dir, err = os.MkdirTemp("", "paperlens-measure-scale-")
	if err != nil {
		return "", nil, fmt.Errorf("work folder: %w", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// writeQueries writes qs as a search --queries file.
func writeQueries(path string, qs []query) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("write queries: %w", err)
	}
	enc := json.NewEncoder(f)
	for _, q := range qs {
		if err := enc.Encode(q); err != nil {
			f.Close()
			return "", fmt.Errorf("write queries: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("write queries: %w", err)
	}
	return path, nil
}

// built is what a kept home remembers of its build.
type built struct {
	Version   int       `json:"version"`
	Seed      uint64    `json:"seed"`
	Binary    string    `json:"binary"` // sha256 of the paperlens that built the index
	Synthetic synthetic `json:"synthetic"`
	Build     Usage     `json:"build"`
	Xapian    *Usage    `json:"xapian,omitempty"`
}

// builtVersion changes when the synthetic corpus would; kept homes of
// another version are rebuilt.
const builtVersion = 1

func readBuilt(path string) (built, error) {
	var b built
	data, err := os.ReadFile(path)
	if err != nil {
		return b, err
	}
	if err := json.Unmarshal(data, &b); err != nil {
		return b, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

func writeBuilt(path string, b built) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("record the build: %w", err)
	}
	return nil
}

// isNotExist says whether err is a missing file.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// fileHash is the sha256 of the file at path, in hex.
func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("the paperlens binary: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read the paperlens binary: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
