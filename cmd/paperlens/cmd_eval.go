package main

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/ingest/dataset"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/index"
)

func newEvalCmd() *cobra.Command {
	cmd := newEvalModelCmd()
	cmd.AddCommand(newEvalRetrievalCmd())
	return cmd
}

func newEvalRetrievalCmd() *cobra.Command {
	var f indexFlags
	var benchName, data, papers, retrievers, ks, forms string
	var asJSON bool
	var threshold float64
	var maxTokens int
	cmd := &cobra.Command{
		Use:   "retrieval --bench elaipbench --data FILE",
		Short: "Score retrievers against the benchmark's gold evidence (recall@k, hit@k, MRR)",
		Long: `eval retrieval asks each retriever for the passages of each question's own
paper and measures how much of the gold evidence (ElaipBench's
relevant_passage) they hold.

Matching: gold and passages are normalised (NFKC, lower case, hyphens and
punctuation dropped) and compared as word 3-grams. A gold sentence is found
in a passage when the passage covers at least --threshold of its words.
  recall@k  share of all gold words covered by the top k passages
  hit@k     1 when some gold sentence is found in the top k
  complete@k 1 when every gold sentence is found in the top k: a reader
           needs all of it, so this bounds RAG accuracy
  mrr       1 / rank of the first passage holding a gold sentence

Query forms (--query, several allowed):
  full     stem and all options as one query: the question as the dataset
           stores it, which ElaipBench retrieves with (default)
  stem     the question stem alone
  options  the stem and stem + each option, fused by reciprocal rank
           (each option has its own evidence)

Papers the file carries (paper_content) are ingested when not stored yet; a
row without paper_content uses the stored document with its paper_id.`,
		Example: `  paperlens eval retrieval --bench elaipbench --data testdata/elaipbench/sample.jsonl
  paperlens eval retrieval --bench elaipbench --data elabench.jsonl --retriever bm25,dense,hybrid --query stem,options --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if benchName != "elaipbench" {
				return fmt.Errorf("--bench %s has no gold evidence to score retrieval against; use --bench elaipbench", benchName)
			}
			if data == "" {
				return fmt.Errorf("--data FILE is required (ElaipBench's elabench.jsonl, or testdata/elaipbench/sample.jsonl)")
			}
			cfg := retrieval.Config{RRFK: f.rrfK}
			cfg.Evidence.Threshold = threshold
			for _, r := range splitList(retrievers) {
				cfg.Retrievers = append(cfg.Retrievers, r)
			}
			for _, q := range splitList(forms) {
				cfg.Forms = append(cfg.Forms, retrieve.QueryForm(q))
				if _, err := retrieve.QueryTexts(retrieve.QueryForm(q), "", nil); err != nil {
					return err
				}
			}
			for _, k := range splitList(ks) {
				n, err := strconv.Atoi(k)
				if err != nil || n <= 0 {
					return fmt.Errorf("-k %q: give positive whole numbers, e.g. -k 1,3,5,10", ks)
				}
				cfg.Ks = append(cfg.Ks, n)
			}
			ctx := cmd.Context()

			qs, problems, err := bench.LoadElaipBench(data)
			for _, p := range problems {
				fmt.Fprintf(os.Stderr, "%s:%s\n", data, p)
			}
			if err != nil {
				return err
			}
			home := homeDir(cmd)
			qs, err = ensurePapers(ctx, home, data, papers, maxTokens, qs)
			if err != nil {
				return err
			}
			st, ix, _, err := openIndex(ctx, home, &f, asJSON)
			if err != nil {
				return err
			}
			defer st.Close()
			defer ix.Close()
			enc := json.NewEncoder(os.Stdout)
			sum, err := retrieval.Run(ctx, ix, qs, cfg, func(r retrieval.QuestionResult) {
				if asJSON {
					_ = enc.Encode(r)
				}
			})
			if err != nil {
				return err
			}
			if asJSON {
				return enc.Encode(sum)
			}
			printRetrievalSummary(sum, cfg.Ks)
			return nil
		},
	}
	addIndexFlags(cmd, &f)
	fl := cmd.Flags()
	fl.StringVar(&benchName, "bench", "elaipbench", "benchmark format (elaipbench: the one with gold evidence)")
	fl.StringVar(&data, "data", "", "benchmark file (.jsonl, .json or .parquet)")
	fl.StringVar(&papers, "papers", "", "folder of the benchmark's papers (PDFs named by paper_id) to ingest instead of paper_content")
	fl.StringVar(&retrievers, "retriever", "bm25,dense,hybrid", "retrievers to score, comma-separated: "+strings.Join(index.Names(), ", "))
	fl.StringVarP(&ks, "k", "k", "1,3,5,10", "cut-offs, comma-separated")
	fl.StringVar(&forms, "query", "full", "query forms, comma-separated: full (stem + options, as the dataset stores the question: ElaipBench's), stem, options")
	addPassageTokens(cmd, &maxTokens, "max-tokens")
	fl.Float64Var(&threshold, "threshold", 0.6, "share of a gold sentence's words a passage must cover for the sentence to count as found")
	fl.BoolVar(&asJSON, "json", false, `one JSON object per question and retriever, then {"n":N,"retrievers":{...}}`)
	return cmd
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ensurePapers ingests the papers a benchmark needs: those under papersDir
// when given, else the paper_content its rows carry. Questions whose paper is
// then still missing are reported and dropped.
//
// Whether anything needs ingesting is decided read-only, and the store is
// opened for writing only then and closed right after: a writer waits for
// every reader of the home, so an eval that took the writer lock for nothing
// could not start while another eval runs on the same home.
func ensurePapers(ctx context.Context, home, data, papersDir string, maxTokens int, qs []bench.Question) ([]bench.Question, error) {
	if papersDir != "" && strings.HasSuffix(strings.ToLower(papersDir), ".zip") {
		dir, err := unzipPapers(papersDir, home)
		if err != nil {
			return nil, err
		}
		papersDir = dir
	}
	need, err := papersToIngest(home, papersDir, maxTokens, qs)
	if err != nil {
		return nil, err
	}
	if need {
		if err := ingestPapers(ctx, home, data, papersDir, maxTokens, qs); err != nil {
			return nil, err
		}
	}
	var st *corpus.Store
	if _, err := os.Stat(filepath.Join(home, corpus.FileName)); err == nil {
		// Only a read: questions whose paper is missing are dropped below.
		if st, err = corpus.Open(home, true); err != nil {
			return nil, err
		}
		defer st.Close()
	}
	kept := qs[:0]
	missing := map[string]int{}
	for _, q := range qs {
		if st == nil {
			missing[q.PaperID]++
			continue
		}
		if _, err := st.Doc(q.PaperID); err != nil {
			missing[q.PaperID]++
			continue
		}
		kept = append(kept, q)
	}
	for id, n := range missing {
		fmt.Fprintf(os.Stderr, "paper %q is not in the corpus and the file carries no paper_content for it: %d question(s) left out (ingest the PDF, or pass --papers DIR)\n", id, n)
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("no question has its paper available")
	}
	return kept, nil
}

// ensurePapersWrites counts the times ensurePapers opened the store for
// writing, so tests can tell a read-only pass from an ingest.
var ensurePapersWrites atomic.Int64

// ingestPapers is the writing half of ensurePapers.
func ingestPapers(ctx context.Context, home, data, papersDir string, maxTokens int, qs []bench.Question) error {
	st, err := corpus.Open(home, false)
	if err != nil {
		return err
	}
	defer st.Close()
	ensurePapersWrites.Add(1)
	report := func(r ingest.Result) {
		if r.Status == ingest.StatusError {
			fmt.Fprintf(os.Stderr, "ingest %s: %s\n", r.Source, r.Error)
		} else if r.Status == ingest.StatusOK {
			fmt.Fprintf(os.Stderr, "ingested %s (%d passages)\n", r.PaperID, r.Passages)
			if r.RechunkedFrom > 0 {
				fmt.Fprintf(os.Stderr, "note: %s was stored with passages of at most %d tokens and is re-chunked to %d (--passage-tokens)\n", r.PaperID, r.RechunkedFrom, maxTokens)
			}
		}
	}
	if papersDir != "" {
		_, err := ingest.Run(ctx, st, []string{papersDir}, ingest.Options{MaxTokens: maxTokens}, report)
		return err
	}
	_, err = ingest.RunTexts(ctx, st, datasetTexts(st, data, qs), ingest.Options{MaxTokens: maxTokens}, report)
	return err
}

// datasetTexts are the papers the rows carry that ingest is to be given:
// each once, and none the user ingested from its own file (PDF, HTML),
// whose version wins over the dataset's text.
func datasetTexts(st *corpus.Store, data string, qs []bench.Question) []ingest.Text {
	var texts []ingest.Text
	seen := map[string]bool{}
	for _, q := range qs {
		if q.PaperContent == "" || seen[q.PaperID] {
			continue
		}
		seen[q.PaperID] = true
		if d, err := st.Doc(q.PaperID); err == nil && d.Kind != "dataset" {
			continue
		}
		texts = append(texts, ingest.Text{ID: q.PaperID, Source: fmt.Sprintf("%s:%d", data, q.Line), Content: q.PaperContent})
	}
	return texts
}

// papersToIngest reports, reading the store under a shared lock, whether
// ingestPapers would store anything: it makes ingest's own skip test (same
// source bytes by SHA-256, same extractor version, same passage size) for
// every document ingest would be given. Whatever it cannot vouch for (an
// unreadable file, a paper that failed before) counts as needed, so ingest
// reports it as it always has.
func papersToIngest(home, papersDir string, maxTokens int, qs []bench.Question) (bool, error) {
	if _, err := os.Stat(filepath.Join(home, corpus.FileName)); errors.Is(err, os.ErrNotExist) {
		if papersDir != "" {
			return true, nil
		}
		for _, q := range qs {
			if q.PaperContent != "" {
				return true, nil
			}
		}
		return false, nil
	}
	st, err := corpus.Open(home, true)
	if err != nil {
		return false, err
	}
	defer st.Close()
	current := func(id string, raw []byte) bool {
		d, err := st.Doc(id)
		return err == nil && ingest.UpToDate(d, ingest.SourceHash(raw), maxTokens)
	}
	if papersDir == "" {
		for _, t := range datasetTexts(st, "", qs) {
			if !current(t.ID, []byte(t.Content)) {
				return true, nil
			}
		}
		return false, nil
	}
	files, ok := papersDirFiles(papersDir)
	if !ok {
		return true, nil
	}
	supported := map[string]bool{}
	for _, ext := range ingest.Supported() {
		supported[ext] = true
	}
	for _, path := range files {
		ext := strings.ToLower(filepath.Ext(path))
		if !supported[ext] {
			continue
		}
		if ingest.IsDataset(ext) {
			papers, err := dataset.Papers(path, "paper_id", "paper_content", func(int, error) {})
			if err != nil {
				return true, nil
			}
			for _, p := range papers {
				if !current(p.ID, []byte(p.Content)) {
					return true, nil
				}
			}
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil || !current(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), raw) {
			return true, nil
		}
	}
	return false, nil
}

// papersDirFiles lists the files ingest would consider under path, the way
// its walk does (hidden names skipped); ok is false when path cannot be
// walked, which ingest then reports.
func papersDirFiles(path string) (files []string, ok bool) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	if !info.IsDir() {
		return []string{path}, true
	}
	ok = true
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			ok = false
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && p != path {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	return files, ok
}

func printRetrievalSummary(sum retrieval.Summary, ks []int) {
	cols := []string{}
	for _, k := range ks {
		cols = append(cols, fmt.Sprintf("recall@%d", k))
	}
	for _, k := range ks {
		cols = append(cols, fmt.Sprintf("hit@%d", k))
	}
	for _, k := range ks {
		cols = append(cols, fmt.Sprintf("complete@%d", k))
	}
	cols = append(cols, "mrr")
	table := func(rows map[string]map[string]float64) {
		tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "retriever\tn\t")
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", c)
		}
		fmt.Fprintln(tw)
		labels := make([]string, 0, len(rows))
		for l := range rows {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, l := range labels {
			fmt.Fprintf(tw, "%s\t%.0f\t", l, rows[l]["n"])
			for _, c := range cols {
				fmt.Fprintf(tw, "%.3f\t", rows[l][c])
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	fmt.Printf("Evidence recall over %d questions (%d without locatable gold left out, %d retrieval errors)\n\n", sum.N, sum.NoGold, sum.Errors)
	table(sum.Retrievers)
	types := make([]string, 0, len(sum.ByType))
	for t := range sum.ByType {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		fmt.Printf("\n%s\n", t)
		table(sum.ByType[t])
	}
}

// unzipPapers extracts the PDFs of an archive such as ElaipBench's
// papers.zip into HOME/papers/<archive name>/, flattening folders (a paper's
// id is its file name). Files already extracted with the same size are kept,
// so a rerun does not unpack 380 MB again; names are never joined as paths,
// so an archive cannot write outside that folder.
func unzipPapers(zipPath, home string) (string, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", zipPath, err)
	}
	defer zr.Close()
	dir := filepath.Join(home, "papers", strings.TrimSuffix(filepath.Base(zipPath), filepath.Ext(zipPath)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	n := 0
	for _, f := range zr.File {
		name := filepath.Base(f.Name)
		if f.FileInfo().IsDir() || strings.HasPrefix(name, ".") || !strings.EqualFold(filepath.Ext(name), ".pdf") {
			continue
		}
		dst := filepath.Join(dir, name)
		if fi, err := os.Stat(dst); err == nil && fi.Size() == int64(f.UncompressedSize64) {
			n++
			continue
		}
		if err := extractZipFile(f, dst); err != nil {
			return "", fmt.Errorf("%s: %s: %w", zipPath, f.Name, err)
		}
		n++
	}
	if n == 0 {
		return "", fmt.Errorf("%s holds no .pdf files", zipPath)
	}
	fmt.Fprintf(os.Stderr, "%d PDFs from %s in %s\n", n, zipPath, dir)
	return dir, nil
}

func extractZipFile(f *zip.File, dst string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	tmp := dst + ".part"
	out, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, rc); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
