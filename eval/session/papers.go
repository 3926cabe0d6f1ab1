package session

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/dataset"
)

// Papers says where a benchmark's papers come from and where they go.
type Papers struct {
	Home      string    // the paperlens home (corpus and indexes)
	Data      string    // the benchmark file; its rows may carry paper_content
	Dir       string    // a folder, file or .zip of papers (<paper_id>.pdf ...); a paper with no file there comes from its rows' paper_content
	MaxTokens int       // passage size in tokens (0: ingest's default)
	Log       io.Writer // what was ingested and what is missing; nil: discarded
	// Isolation parses the papers in worker processes; nil: in this one.
	Isolation *ingest.Isolation
}

func (p Papers) log() io.Writer {
	if p.Log == nil {
		return io.Discard
	}
	return p.Log
}

// EnsurePapers ingests the papers a benchmark needs, paper by paper: a
// paper's own file under p.Dir (a folder, a file or a .zip of PDFs; a file
// is a paper by its name, <paper_id>.pdf, .md, .txt or .html) when there is
// one, else the paper_content its rows carry. Questions whose paper is then
// still missing are reported, each paper with the file it was looked for
// in and the questions it takes out, and dropped; when none is left the
// error names them.
//
// Whether anything needs ingesting is decided read-only, and the store is
// opened for writing only then and closed right after: a writer waits for
// every reader of the home, so an eval that took the writer lock for nothing
// could not start while another eval runs on the same home.
func EnsurePapers(ctx context.Context, p Papers, qs []bench.Question) ([]bench.Question, error) {
	kept, _, err := ensurePapers(ctx, p, qs)
	return kept, err
}

// ensurePapers is EnsurePapers, saying whether it opened the store for
// writing (which a test tells a read-only pass from an ingest by).
func ensurePapers(ctx context.Context, p Papers, qs []bench.Question) (kept []bench.Question, wrote bool, err error) {
	log := p.log()
	home, maxTokens := p.Home, p.MaxTokens
	src := paperSource{given: p.Dir, dir: p.Dir}
	if src.dir != "" && strings.HasSuffix(strings.ToLower(src.dir), ".zip") {
		if src.dir, err = unzipPapers(src.dir, home, log); err != nil {
			return nil, false, err
		}
	}
	if src.dir != "" {
		src.ids = dirPaperIDs(src.dir)
		src.noteFallback(log, qs)
	}
	wrote, err = papersToIngest(home, src, maxTokens, qs)
	if err != nil {
		return nil, false, err
	}
	if wrote {
		if err := ingestPapers(ctx, p, src.dir, qs, log); err != nil {
			return nil, wrote, err
		}
	}
	var st *corpus.Store
	if _, err := os.Stat(filepath.Join(home, corpus.FileName)); err == nil {
		// Only a read: questions whose paper is missing are dropped below.
		if st, err = corpus.Open(home, true); err != nil {
			return nil, wrote, err
		}
		defer st.Close()
	}
	kept = qs[:0:0]
	missing := map[string][]string{} // paper id → its questions' ids
	var order []string
	for _, q := range qs {
		if st != nil {
			if _, err := st.Doc(q.PaperID); err == nil {
				kept = append(kept, q)
				continue
			}
		}
		if missing[q.PaperID] == nil {
			order = append(order, q.PaperID)
		}
		missing[q.PaperID] = append(missing[q.PaperID], q.ID)
	}
	msgs := make([]string, len(order))
	for i, id := range order {
		msgs[i] = src.missing(home, p.Data, id, missing[id])
		fmt.Fprintln(log, msgs[i])
	}
	if len(kept) == 0 {
		return nil, wrote, noPaperError(msgs)
	}
	return kept, wrote, nil
}

// noPaperError is the error of a benchmark none of whose papers is
// available; it repeats the first few papers' messages.
func noPaperError(msgs []string) error {
	const shown = 3
	if len(msgs) == 0 {
		return fmt.Errorf("no question has its paper available")
	}
	list := msgs[:min(len(msgs), shown)]
	more := ""
	if len(msgs) > shown {
		more = fmt.Sprintf("\n(and %d more papers, listed above)", len(msgs)-shown)
	}
	return fmt.Errorf("no question has its paper available:\n%s%s", strings.Join(list, "\n"), more)
}

// paperSource is where EnsurePapers looks for papers' files.
type paperSource struct {
	given string            // --papers as given: a folder, a file or a .zip; "" for none
	dir   string            // what is read: the folder the .zip was unpacked to, else given
	ids   map[string]string // paper id → the file under dir that holds it
}

// want is the file a paper is looked for as: <dir>/<id>.pdf, or the file
// --papers names.
func (s paperSource) want(id string) string {
	if info, err := os.Stat(s.dir); err == nil && !info.IsDir() {
		return s.dir
	}
	return filepath.Join(s.dir, id+".pdf")
}

// noteFallback says which papers have no file under --papers and come
// from their rows' paper_content instead.
func (s paperSource) noteFallback(log io.Writer, qs []bench.Question) {
	var ids []string
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q.PaperID] || q.PaperContent == "" {
			continue
		}
		seen[q.PaperID] = true
		if _, ok := s.ids[q.PaperID]; !ok {
			ids = append(ids, q.PaperID)
		}
	}
	if len(ids) > 0 {
		fmt.Fprintf(log, "--papers %s has no file for %d paper(s), which come from their rows' paper_content: %s\n", s.given, len(ids), listSome(ids, 10))
	}
}

// missing says why paper id is not in the corpus, which questions that
// takes out, and what to do.
func (s paperSource) missing(home, data, id string, questions []string) string {
	qs := fmt.Sprintf("%d question(s) left out (%s)", len(questions), listSome(questions, 20))
	if s.dir == "" {
		return fmt.Sprintf("paper %q is not in the corpus at %s and its rows in %s carry no paper_content: %s; pass --papers DIR with the paper as DIR/%s.pdf, or ingest it first (paperlens ingest %s.pdf)",
			id, home, data, qs, id, id)
	}
	from := ""
	if s.given != s.dir {
		from = fmt.Sprintf(" (unpacked from %s)", s.given)
	}
	if path, ok := s.ids[id]; ok {
		return fmt.Sprintf("paper %q: %s%s did not ingest (its error is above) and its rows in %s carry no paper_content: %s; replace the file with a readable copy",
			id, path, from, data, qs)
	}
	return fmt.Sprintf("paper %q: no file %s%s (nor %s.md, .txt or .html beside it), and its rows in %s carry no paper_content: %s; put the paper there as %s, or use a data file whose rows carry paper_content",
		id, s.want(id), from, id, data, qs, s.want(id))
}

// listSome joins up to n items, saying how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// dirPaperIDs maps the paper ids that ingest would find under path (a
// folder or one file) to the file holding each: a paper file by its name,
// a dataset file by its rows' paper_id. Unreadable files hold none.
func dirPaperIDs(path string) map[string]string {
	ids := map[string]string{}
	files, _ := papersDirFiles(path)
	supported := map[string]bool{}
	for _, ext := range ingest.Supported() {
		supported[ext] = true
	}
	for _, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		switch {
		case !supported[ext]:
		case ingest.IsDataset(ext):
			papers, err := dataset.Papers(f, "paper_id", "paper_content", func(int, error) {})
			if err != nil {
				continue
			}
			for _, p := range papers {
				ids[p.ID] = f
			}
		default:
			ids[strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))] = f
		}
	}
	return ids
}

// ingestPapers is the writing half of EnsurePapers: the files under
// papersDir first, then the paper_content of the rows whose paper is still
// not stored from a file of its own (none under papersDir, or one that
// failed).
func ingestPapers(ctx context.Context, p Papers, papersDir string, qs []bench.Question, log io.Writer) error {
	st, err := corpus.Open(p.Home, false)
	if err != nil {
		return err
	}
	defer st.Close()
	maxTokens := p.MaxTokens
	opt := ingest.Options{MaxTokens: maxTokens, Isolation: p.Isolation}
	report := func(r ingest.Result) {
		if r.Status == ingest.StatusError {
			fmt.Fprintf(log, "ingest %s: %s\n", r.Source, r.Error)
		} else if r.Status == ingest.StatusOK {
			fmt.Fprintf(log, "ingested %s (%d passages)\n", r.PaperID, r.Passages)
			if r.RechunkedFrom > 0 {
				fmt.Fprintf(log, "note: %s was stored with passages of at most %d tokens and is re-chunked to %d (--passage-tokens)\n", r.PaperID, r.RechunkedFrom, maxTokens)
			}
		}
	}
	if papersDir != "" {
		if _, err := ingest.Run(ctx, st, []string{papersDir}, opt, report); err != nil {
			return err
		}
	}
	_, err = ingest.RunTexts(ctx, st, datasetTexts(st, p.Data, qs), opt, report)
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
// every document ingest would be given: the files under src.dir, and the
// paper_content of the rows whose paper has no file there. Whatever it
// cannot vouch for (an unreadable file, a paper that failed before) counts
// as needed, so ingest reports it as it always has.
func papersToIngest(home string, src paperSource, maxTokens int, qs []bench.Question) (bool, error) {
	if _, err := os.Stat(filepath.Join(home, corpus.FileName)); errors.Is(err, os.ErrNotExist) {
		if src.dir != "" {
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
		return err == nil && ingest.UpToDate(d, ingest.SourceHash(raw), maxTokens, "")
	}
	for _, t := range datasetTexts(st, "", qs) {
		if _, inDir := src.ids[t.ID]; !inDir && !current(t.ID, []byte(t.Content)) {
			return true, nil
		}
	}
	if src.dir == "" {
		return false, nil
	}
	files, ok := papersDirFiles(src.dir)
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

// papersDirFiles lists the files ingest would consider under path
// (ingest.FolderFiles for a folder); ok is false when path cannot be walked,
// which ingest then reports.
func papersDirFiles(path string) (files []string, ok bool) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	if !info.IsDir() {
		return []string{path}, true
	}
	ok = true
	files = ingest.FolderFiles(path, func(string, error) { ok = false })
	return files, ok
}

// unzipPapers extracts the PDFs of an archive such as ElaipBench's
// papers.zip into HOME/papers/<archive name>/, flattening folders (a paper's
// id is its file name). Files already extracted with the same size are kept,
// so a rerun does not unpack 380 MB again; names are never joined as paths,
// so an archive cannot write outside that folder.
func unzipPapers(zipPath, home string, log io.Writer) (string, error) {
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
	fmt.Fprintf(log, "%d PDFs from %s in %s\n", n, zipPath, dir)
	return dir, nil
}

// extractZipFile writes one archive member to dst through a temporary file
// that replaces dst only when complete and synced.
func extractZipFile(f *zip.File, dst string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	out, err := renameio.NewPendingFile(dst, renameio.WithPermissions(0o644))
	if err != nil {
		return err
	}
	defer out.Cleanup()
	if _, err := io.Copy(out, rc); err != nil {
		return err
	}
	return out.CloseAtomicallyReplace()
}
