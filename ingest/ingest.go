package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/doctext/htmltext"
	"github.com/paperlens/paperlens/doctext/pdftext"
	"github.com/paperlens/paperlens/ingest/dataset"
	"github.com/paperlens/paperlens/internal/isolate"
)

// ExtractorVersion is stored with every document; bumping it makes the next
// ingest re-extract files whose bytes did not change.
//
// 2 (issue 14): PDF fonts without ToUnicode decode through TeX encodings,
// reading order, tables as rows, headings, passage kinds; HTML h1–h4 become
// section headings.
//
// 3 (issue 25): titles of text and Markdown papers skip web-page chrome
// and markup debris; passages under chunk.DefaultMinTokens are merged into
// a neighbour; the text's kinds are stored with the document.
const ExtractorVersion = "3"

// Status values of a Result (fixed: scripts read them).
const (
	StatusOK      = "ok"
	StatusSkipped = "skipped"
	StatusError   = "error"
)

// Options steer an ingest run.
type Options struct {
	MaxTokens    int           // passage limit in cl100k_base tokens (default 512)
	MinTokens    int           // documents shorter than this are flagged (or rejected)
	RejectShort  bool          // reject rather than flag documents under MinTokens
	Timeout      time.Duration // per-document limit on reading, extraction and chunking (default 2 minutes)
	Workers      int           // parallel extractions (default GOMAXPROCS)
	Force        bool          // re-extract even unchanged files
	IDField      string        // dataset field holding the paper id (default paper_id)
	ContentField string        // dataset field holding the paper text (default paper_content)
	MaxFileSize  int64         // larger files are refused unread (default 200 MB)
	// Drop lists the kinds of text left out of the stored text and its
	// passages, comma-separated (see kind.Parse): "" means
	// kind.DefaultDrop (contents pages and figure text), "none" keeps
	// everything. A change re-makes the passages of stored papers.
	Drop string
	drop []kind.Kind // Drop, parsed
	// MinPassageTokens is the size, in tokens, under which a passage (a
	// title alone, a caption, a contents line) is merged into a
	// neighbour: chunk.Options.MinTokens, whose 0 is chunk.DefaultMinTokens
	// (at most a quarter of MaxTokens) and below 0 keeps passages as
	// packed. A change re-makes the passages of stored papers.
	MinPassageTokens int
	// Isolation runs each document in a worker process; nil means
	// DefaultIsolation. See Isolation.
	Isolation *Isolation
	// Pool, when set, gives the workers instead: already started, and
	// left running when the run ends.
	Pool *WorkerPool
}

// DefaultMaxFileSize is Options.MaxFileSize when unset: 200 MB, far above
// any paper, well below what would exhaust memory.
const DefaultMaxFileSize = 200_000_000

// DefaultMaxTokens is the passage size an unset Options.MaxTokens means
// (ElaipBench's).
const DefaultMaxTokens = 512

func (o *Options) defaults() {
	if o.MaxTokens <= 0 {
		o.MaxTokens = DefaultMaxTokens
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.IDField == "" {
		o.IDField = "paper_id"
	}
	if o.ContentField == "" {
		o.ContentField = "paper_content"
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if o.Isolation == nil {
		o.Isolation = DefaultIsolation
	}
}

// isolated reports whether documents go to worker processes.
func (o *Options) isolated() bool { return o.Isolation != nil && !o.Isolation.Off }

// Result reports one document (fixed JSON shape: see `paperlens ingest --json`).
type Result struct {
	PaperID  string  `json:"paper_id"`
	Source   string  `json:"source"`
	Status   string  `json:"status"`
	Error    string  `json:"error"`
	Pages    int     `json:"pages"`
	Chars    int     `json:"chars"`
	Tokens   int     `json:"tokens"`
	Passages int     `json:"passages"`
	Title    string  `json:"title,omitempty"`
	Warning  string  `json:"warning,omitempty"`
	Seconds  float64 `json:"seconds"`
	// RechunkedFrom is the passage size the paper was stored with when this
	// run chunked it again at another size (0 otherwise): a change of
	// --passage-tokens re-chunks the whole home, which must not go unsaid.
	RechunkedFrom int `json:"rechunked_from,omitempty"`
	// DropChangedFrom is the --drop setting the paper was stored with when
	// this run stored it again under another one ("" otherwise; "none" for
	// papers stored before the setting existed).
	DropChangedFrom string `json:"drop_changed_from,omitempty"`
}

// Kinds of source, by file extension.
var kinds = map[string]string{
	".pdf": "pdf", ".txt": "text", ".md": "text", ".markdown": "text",
	".html": "html", ".htm": "html", ".xhtml": "html",
	".json": "dataset", ".jsonl": "dataset", ".parquet": "dataset",
}

// SourceHash is what a stored document records of its source bytes.
func SourceHash(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// UpToDate reports whether a stored document came from source bytes with
// this SourceHash, by this extractor, in passages of maxTokens (0: the
// default) merged as by default (Options.MinPassageTokens 0) with the kinds
// drop (Options.Drop: "" is the default) left out: what makes ingest skip
// it. A caller can decide read-only whether an ingest would write anything.
func UpToDate(d corpus.Document, hash string, maxTokens int, drop string) bool {
	return upToDate(d, hash, maxTokens, 0, drop)
}

// upToDate is UpToDate for passages merged under minPassageTokens
// (Options.MinPassageTokens).
func upToDate(d corpus.Document, hash string, maxTokens, minPassageTokens int, drop string) bool {
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	kinds, err := ParseDrop(drop)
	if err != nil {
		return false
	}
	return d.SourceHash == hash && d.Extractor == ExtractorVersion && d.MaxTokens == maxTokens &&
		d.MinPassageTokens == minPassageTokens && storedDrop(d) == DropName(kinds)
}

// ParseDrop reads Options.Drop: "" is kind.DefaultDrop, "none" nothing.
func ParseDrop(s string) ([]kind.Kind, error) {
	if strings.TrimSpace(s) == "" {
		return kind.DefaultDrop, nil
	}
	ks, err := kind.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("--drop: %w", err)
	}
	return ks, nil
}

// DropName is how a drop setting is recorded and compared: the kinds in
// kind.All order, or "none".
func DropName(ks []kind.Kind) string {
	set := kind.NewSet(ks)
	var in []kind.Kind
	for _, k := range kind.All {
		if set.Has(k) {
			in = append(in, k)
		}
	}
	if len(in) == 0 {
		return "none"
	}
	return kind.Names(in)
}

// storedDrop is the drop setting a record was stored with: a record from
// before the setting existed dropped nothing.
func storedDrop(d corpus.Document) string {
	if d.Drop == "" {
		return "none"
	}
	return d.Drop
}

// keepsAll reports whether text stored under the drop setting old still
// holds every kind the setting now keeps, so that passages can be made
// again from it without extracting the source again.
func keepsAll(old string, now []kind.Kind) bool {
	olds, err := kind.Parse(old)
	if err != nil {
		return false
	}
	set := kind.NewSet(now)
	for _, k := range olds {
		if !set.Has(k) {
			return false
		}
	}
	return true
}

// IsDataset reports whether a file of this extension is read as a dataset
// of many papers (ids from its paper_id field) rather than as one paper
// named by its file.
func IsDataset(ext string) bool { return kinds[strings.ToLower(ext)] == "dataset" }

// Supported lists the file extensions ingest reads.
func Supported() []string {
	var out []string
	for k := range kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// job is one document to ingest: a file, or one paper carried by a dataset.
type job struct {
	id, source, kind, path string
	content                string // dataset papers arrive as text
}

// Run ingests the given files and folders into the store, calling report
// once per document (from a single goroutine, in completion order; a
// stored document once its batch is committed, see BatchPapers). It
// returns the number of failed documents; an error only when the run itself
// could not proceed.
func Run(ctx context.Context, st *corpus.Store, paths []string, opt Options, report func(Result)) (failed int, err error) {
	opt.defaults()
	if opt.drop, err = ParseDrop(opt.Drop); err != nil {
		return 0, err
	}
	emit := func(r Result) {
		if r.Status == StatusError {
			failed++
		}
		report(r)
	}
	jobs, pre := plan(paths, opt)
	for _, r := range pre {
		emit(r)
	}
	n, err := runJobs(ctx, st, jobs, opt, report)
	return failed + n, err
}

// Text is a document that arrives as text rather than as a file, such as a
// paper carried by a benchmark row.
type Text struct {
	ID, Source, Content string
}

// RunTexts ingests documents given as text, with the same skipping, chunking
// and storing as files.
func RunTexts(ctx context.Context, st *corpus.Store, docs []Text, opt Options, report func(Result)) (failed int, err error) {
	opt.defaults()
	if opt.drop, err = ParseDrop(opt.Drop); err != nil {
		return 0, err
	}
	jobs := make([]job, len(docs))
	for i, d := range docs {
		jobs[i] = job{id: d.ID, source: d.Source, kind: "dataset", content: d.Content}
	}
	return runJobs(ctx, st, jobs, opt, report)
}

func runJobs(ctx context.Context, st *corpus.Store, jobs []job, opt Options, report func(Result)) (failed int, err error) {
	var w *workers
	switch {
	case opt.Pool != nil:
		w = opt.Pool.w
	case opt.isolated() && len(jobs) > 0:
		if w, err = newWorkers(opt.Isolation, opt.Workers); err != nil {
			return 0, err
		}
		defer w.Close()
	}
	emit := func(r Result) {
		if r.Status == StatusError {
			failed++
		}
		report(r)
	}
	// One job more than workers with worker processes: while every
	// worker parses, the spare job reads and hashes the next file, so that
	// no worker waits for it.
	jobsAtOnce := opt.Workers
	if w != nil {
		jobsAtOnce++
	}
	out := make(chan outcome)
	go func() {
		var g errgroup.Group
		g.SetLimit(jobsAtOnce)
		for _, j := range jobs {
			if ctx.Err() != nil {
				break
			}
			g.Go(func() error {
				out <- process(ctx, st, j, opt, w)
				return nil
			})
		}
		_ = g.Wait() // process reports failures as outcomes
		close(out)
	}()
	storeBatches(st, out, emit)
	if ctx.Err() != nil {
		return failed, fmt.Errorf("ingest interrupted: %w (what finished is stored; run again to finish)", ctx.Err())
	}
	return failed, nil
}

// Papers are stored in batches, one transaction each (corpus.PutMany): a
// transaction costs the disk two flushes whatever it holds, and one per
// paper made a 500-paper dataset 1,003 flushes, its ingest 3.5–6× longer
// than its CPU time. A batch is committed when it holds BatchPapers
// papers or BatchBytes bytes of text, or BatchWait after its first paper
// arrived, whichever comes first, and at the end of the run (an
// interrupted one too). A paper is reported once its batch is committed,
// so a reported "ok" is on disk; a kill loses at most the batch being
// gathered, whose papers the next run does again (each stored whole or
// not at all, as before).
const (
	// BatchPapers bounds the papers of a batch: 64 papers cost 2 flushes
	// instead of 128, and a kill redoes at most 64.
	BatchPapers = 64
	// BatchBytes bounds the text a batch holds in memory.
	BatchBytes = 32 << 20
	// BatchWait bounds how long a stored paper waits for its batch: PDFs
	// that take seconds each are committed about one a second, as before.
	BatchWait = time.Second
)

// batchWait is BatchWait; tests that count commits raise it, so that a
// machine slowed by other work cannot split their batches.
var batchWait = BatchWait

// batchHook, when set (by tests), is called with the papers gathered for
// the next commit each time one is added.
var batchHook func(gathered int)

// storeBatches stores the outcomes of out in batches (see BatchPapers)
// and emits each result: one with nothing to store at once, a stored one
// after its batch is committed, as an error if the commit failed.
func storeBatches(st *corpus.Store, out <-chan outcome, emit func(Result)) {
	var batch []outcome
	size := 0
	var wait <-chan time.Time
	var timer *time.Timer
	commit := func() {
		if timer != nil {
			timer.Stop()
			timer, wait = nil, nil
		}
		if len(batch) == 0 {
			return
		}
		papers := make([]corpus.Paper, len(batch))
		for i, o := range batch {
			papers[i] = corpus.Paper{Doc: o.store.doc, Text: o.store.text, Passages: o.store.passages}
		}
		err := st.PutMany(papers)
		for _, o := range batch {
			if err != nil {
				o.res.Status, o.res.Error = StatusError, fmt.Sprintf("store: %v", err)
			}
			emit(o.res)
		}
		batch, size = nil, 0
	}
	for {
		select {
		case o, ok := <-out:
			if !ok {
				commit()
				return
			}
			if o.store == nil {
				emit(o.res)
				continue
			}
			batch = append(batch, o)
			size += len(o.store.text)
			if batchHook != nil {
				batchHook(len(batch))
			}
			if len(batch) >= BatchPapers || size >= BatchBytes {
				commit()
			} else if timer == nil {
				timer = time.NewTimer(batchWait)
				wait = timer.C
			}
		case <-wait:
			commit()
		}
	}
}

// FolderFiles lists, sorted, the files ingest takes from a folder: every
// file under root, names starting with a dot (and what a dot-folder holds)
// left out. unreadable is told of each path the walk cannot read.
func FolderFiles(root string, unreadable func(path string, err error)) []string {
	var files []string
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			unreadable(path, err)
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && path != root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files
}

// plan expands folders and dataset files into jobs. Problems found before
// any extraction (missing paths, unsupported types, bad dataset rows,
// duplicate ids) come back as error results.
func plan(paths []string, opt Options) ([]job, []Result) {
	var jobs []job
	var errs []Result
	seen := map[string]string{}
	add := func(j job) {
		if prev, dup := seen[j.id]; dup {
			errs = append(errs, Result{PaperID: j.id, Source: j.source, Status: StatusError,
				Error: fmt.Sprintf("duplicate paper id %q: %s has it too; rename one of them", j.id, prev)})
			return
		}
		seen[j.id] = j.source
		jobs = append(jobs, j)
	}
	addFile := func(path string, explicit bool) {
		kind, ok := kinds[strings.ToLower(filepath.Ext(path))]
		if !ok {
			if explicit {
				errs = append(errs, Result{Source: path, Status: StatusError,
					Error: fmt.Sprintf("unsupported file type %q; paperlens reads %s", filepath.Ext(path), strings.Join(Supported(), " "))})
			}
			return
		}
		if kind != "dataset" {
			add(job{id: idFromPath(path), source: path, kind: kind, path: path})
			return
		}
		bad := func(line int, err error) {
			// The row error already names file and row; the record keeps them apart.
			msg := err.Error()
			var re *dataset.RowError
			if errors.As(err, &re) {
				msg = re.Err.Error()
				if re.TextLine > 0 {
					line = re.TextLine
				}
			}
			errs = append(errs, Result{Source: fmt.Sprintf("%s:%d", path, line), Status: StatusError, Error: msg})
		}
		// The dataset reader opens the file by name: check first that a
		// read of it ends (no FIFO, no device) and fits in memory.
		if err := checkRegular(path, opt.MaxFileSize); err != nil {
			errs = append(errs, Result{Source: path, Status: StatusError, Error: err.Error()})
			return
		}
		papers, err := dataset.Papers(path, opt.IDField, opt.ContentField, bad)
		if err != nil {
			errs = append(errs, Result{Source: path, Status: StatusError, Error: err.Error()})
			return
		}
		for _, p := range papers {
			add(job{id: p.ID, source: fmt.Sprintf("%s:%d", path, p.Line), kind: "dataset", content: p.Content})
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, Result{Source: p, Status: StatusError, Error: plainStatError(err)})
			continue
		}
		if !info.IsDir() {
			addFile(p, true)
			continue
		}
		files := FolderFiles(p, func(path string, err error) {
			errs = append(errs, Result{Source: path, Status: StatusError, Error: plainStatError(err)})
		})
		for _, f := range files {
			addFile(f, false)
		}
	}
	return jobs, errs
}

func plainStatError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// idFromPath is a document's id: its file name without extension.
func idFromPath(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// extractions counts finished extractions, so tests can prove that an
// unchanged file is skipped without being read again.
var extractions atomic.Int64

type outcome struct {
	res   Result
	store *stored
}

type stored struct {
	doc      corpus.Document
	text     string
	passages []corpus.Passage
}

// process ingests one job. It never panics: a panic in an extractor
// becomes that document's error. Reading, extraction and chunking all run
// under the document's time limit; with w, extraction and chunking run in a
// worker process, under its memory cap too.
//
// The stages: read (or hash) the source (readSource); when the stored
// paper came from the same bytes, skip it or chunk its stored text again
// (reuseStored); else extract and chunk it (extractAndChunk); then store
// it (finish).
func process(ctx context.Context, st *corpus.Store, j job, opt Options, w *workers) (o outcome) {
	start := time.Now()
	o.res = Result{PaperID: j.id, Source: j.source}
	defer func() {
		if p := recover(); p != nil {
			o = outcome{res: Result{PaperID: j.id, Source: j.source, Status: StatusError,
				Error: fmt.Sprintf("internal error while reading this file (please report it): %v", p)}}
		}
		o.res.Seconds = time.Since(start).Seconds()
	}()
	fail := func(err error) outcome {
		o.res.Status, o.res.Error = StatusError, err.Error()
		return o
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	// The deadline covers reading the file and the work on it, but not the
	// start of a worker process, which is no fault of the document's.
	dl := docDeadline{parent: ctx, at: time.Now().Add(opt.Timeout), timeout: opt.Timeout}
	dctx, cancel := context.WithDeadline(ctx, dl.at)
	defer cancel()
	raw, hash, err := readSource(dctx, j, opt, w)
	if err != nil {
		return fail(dl.timedOut(err))
	}
	if done, err := reuseStored(dctx, st, j, hash, opt, w, dl, &o); done || err != nil {
		if err != nil {
			return fail(err)
		}
		return o
	}
	e, spans, err := extractAndChunk(ctx, dctx, j, raw, opt, w, dl)
	if err != nil {
		return fail(err)
	}
	extractions.Add(1)
	doc := corpus.Document{
		PaperID: j.id, Title: e.title, Source: j.source, Kind: j.kind, SourceHash: hash,
		Extractor: ExtractorVersion, Pages: e.pages,
	}
	return finish(o, doc, e.text, e.spans, spans, opt)
}

// docDeadline is one document's time limit.
type docDeadline struct {
	parent  context.Context // the run's context: its end is no time-out
	at      time.Time
	timeout time.Duration
}

// timedOut makes a document's time-out read the same whichever stage it
// hit; other errors pass as they are.
func (dl docDeadline) timedOut(err error) error {
	if dl.parent.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || time.Now().After(dl.at)) {
		return fmt.Errorf("timed out after %s; raise --timeout or leave this file out", dl.timeout)
	}
	return err
}

// readSource returns a job's bytes and their hash: a dataset row's text;
// for a PDF or HTML file going to a worker, only the hash (the worker
// reads the file itself, from the page cache since it was just hashed:
// sending the bytes down a pipe cost two more copies, and on this virtual
// machine a copy into fresh pages costs more than the parse of a small
// PDF); otherwise the file's bytes, read within ctx and the size limit.
func readSource(ctx context.Context, j job, opt Options, w *workers) (raw []byte, hash string, err error) {
	switch {
	case j.kind == "dataset":
		raw = []byte(j.content)
		return raw, SourceHash(raw), nil
	case w != nil && (j.kind == "pdf" || j.kind == "html"):
		hash, err = hashWithin(ctx, j.path, opt.MaxFileSize)
		return nil, hash, err
	}
	raw, err = readWithin(ctx, j.path, opt.MaxFileSize)
	if err != nil {
		return nil, "", err
	}
	return raw, SourceHash(raw), nil
}

// reuseStored looks at the paper as stored. From the same bytes and
// extractor (and not forced) it needs no extraction: it is skipped when
// up to date, or, for a new passage size or more kinds left out, its
// stored text is chunked again, its passages' kinds being its spans (text
// that now keeps a kind it left out needs the source). done says o is the
// outcome; a change of --drop is noted in o either way.
func reuseStored(dctx context.Context, st *corpus.Store, j job, hash string, opt Options, w *workers, dl docDeadline, o *outcome) (done bool, err error) {
	prev, err := st.Doc(j.id)
	if err != nil {
		return false, nil
	}
	dropName := DropName(opt.drop)
	if storedDrop(prev) != dropName {
		o.res.DropChangedFrom = storedDrop(prev)
	}
	if opt.Force || prev.SourceHash != hash || prev.Extractor != ExtractorVersion {
		return false, nil
	}
	if upToDate(prev, hash, opt.MaxTokens, opt.MinPassageTokens, dropName) {
		o.res.Status = StatusSkipped
		o.res.DropChangedFrom = ""
		o.res.Pages, o.res.Chars, o.res.Tokens, o.res.Passages, o.res.Title = prev.Pages, prev.Chars, prev.Tokens, prev.Passages, prev.Title
		return true, nil
	}
	if !keepsAll(storedDrop(prev), opt.drop) {
		return false, nil
	}
	text, terr := st.Text(j.id)
	stored, perr := st.Passages(j.id)
	if terr != nil || perr != nil {
		return false, nil
	}
	if prev.MaxTokens != opt.MaxTokens {
		o.res.RechunkedFrom = prev.MaxTokens
	}
	kinds := prev.Spans
	if kinds == nil {
		kinds = passageSpans(stored)
	}
	text, kinds, spans, err := chunkWithin(dctx, w.forDoc("", len(text)), time.Until(dl.at), text, kinds, opt)
	if err != nil {
		return false, dl.timedOut(err)
	}
	*o = finish(*o, prev, text, kinds, spans, opt)
	return true, nil
}

// extractAndChunk extracts a document and chunks its text: in a worker
// when there is one for its kind and size, else here under dctx. A
// worker's time starts when it takes the request, so time spent waiting
// for a free one is not the document's: only the worker's own time-out
// reads as one.
func extractAndChunk(ctx, dctx context.Context, j job, raw []byte, opt Options, w *workers, dl docDeadline) (extracted, []span, error) {
	if w := w.forDoc(j.kind, len(raw)); w != nil {
		req := workRequest{Kind: j.kind, Raw: raw, MaxTokens: opt.MaxTokens, MinTokens: opt.MinPassageTokens, Drop: opt.drop}
		if raw == nil {
			req.Path, req.MaxFileSize = j.path, opt.MaxFileSize
		}
		rep, err := w.do(ctx, time.Until(dl.at), req)
		if err != nil {
			var f *isolate.Failure
			if errors.As(err, &f) && f.Reason == isolate.Timeout {
				err = dl.timedOut(context.DeadlineExceeded)
			}
			return extracted{}, nil, err
		}
		return extracted{title: rep.Title, text: rep.Text, pages: rep.Pages, spans: rep.Spans}, rep.Passages, nil
	}
	e, err := extract(dctx, j, raw, opt.Timeout)
	if err != nil {
		return extracted{}, nil, dl.timedOut(err)
	}
	var spans []span
	if e.text, e.spans, spans, err = chunkWithin(dctx, nil, 0, e.text, e.spans, opt); err != nil {
		return extracted{}, nil, dl.timedOut(err)
	}
	return e, spans, nil
}

// chunkWithin leaves out the kinds opt drops from text, whose kinds are
// kinds, and chunks what is left: in a worker, within left, when there is
// one; else here until ctx ends, by abandoning the chunker. It returns the
// text kept, its kinds and its passages.
func chunkWithin(ctx context.Context, w *workers, left time.Duration, text string, kinds []kind.Span, opt Options) (string, []kind.Span, []span, error) {
	if w != nil {
		rep, err := w.do(ctx, left, workRequest{Raw: []byte(text), Spans: kinds, MaxTokens: opt.MaxTokens, MinTokens: opt.MinPassageTokens, Drop: opt.drop})
		return rep.Text, rep.Spans, rep.Passages, err
	}
	type res struct {
		text  string
		kinds []kind.Span
		spans []span
	}
	done := make(chan res, 1)
	go func() {
		t, k, s := prepare(text, kinds, opt.drop, opt.MaxTokens, opt.MinPassageTokens)
		done <- res{t, k, s}
	}()
	select {
	case r := <-done:
		return r.text, r.kinds, r.spans, nil
	case <-ctx.Done():
		return "", nil, nil, ctx.Err()
	}
}

// passageSpans are the kinds of a stored text, as its passages record them.
func passageSpans(ps []corpus.Passage) []kind.Span {
	var out []kind.Span
	for _, p := range ps {
		if k := p.KindOf(); k != kind.Body {
			out = append(out, kind.Span{Start: p.Start, End: p.End, Kind: k})
		}
	}
	return out
}

// finish fills in the stored record from the text, its kinds and its
// passages.
func finish(o outcome, doc corpus.Document, text string, kinds []kind.Span, spans []span, opt Options) outcome {
	ps := make([]corpus.Passage, len(spans))
	total := 0
	for i, p := range spans {
		if p.Start < 0 || p.End > len(text) || p.Start > p.End {
			o.res.Status, o.res.Error = StatusError, fmt.Sprintf("internal error: passage %d spans [%d,%d) of a %d-byte text (please report it)", i, p.Start, p.End, len(text))
			return o
		}
		ps[i] = corpus.Passage{Tokens: p.Tokens, Start: p.Start, End: p.End, Section: p.Section,
			Kind: string(p.Kind.Or()), Text: text[p.Start:p.End]}
		total += p.Tokens
	}
	doc.Chars, doc.Tokens, doc.MaxTokens, doc.Warning = utf8.RuneCountInString(text), total, opt.MaxTokens, ""
	doc.Drop = DropName(opt.drop)
	doc.MinPassageTokens, doc.Spans = opt.MinPassageTokens, kinds
	doc.IngestedAt = time.Now().UTC()
	o.res.Pages, o.res.Chars, o.res.Tokens, o.res.Passages, o.res.Title = doc.Pages, doc.Chars, total, len(ps), doc.Title
	if opt.MinTokens > 0 && total < opt.MinTokens {
		msg := fmt.Sprintf("short document: %d tokens, under --min-tokens %d", total, opt.MinTokens)
		if opt.RejectShort {
			o.res.Status, o.res.Error = StatusError, msg+" (rejected; drop --reject-short to keep it)"
			return o
		}
		doc.Warning, o.res.Warning = msg, msg
	}
	o.res.Status = StatusOK
	o.store = &stored{doc: doc, text: text, passages: ps}
	return o
}

// extracted is what an extractor hands back: spans mark kinds of its text.
type extracted struct {
	title, text string
	pages       int
	spans       []kind.Span
}

// extractors maps a source kind to its extractor. A variable, so tests can
// put in extractors that panic or hang.
var extractors = map[string]func(ctx context.Context, raw []byte) (extracted, error){
	"pdf": func(ctx context.Context, raw []byte) (extracted, error) {
		d, err := pdftext.Extract(ctx, bytes.NewReader(raw), int64(len(raw)))
		if err != nil {
			return extracted{}, err
		}
		return extracted{d.Title, d.Text, d.Pages, d.Spans}, nil
	},
	"html": func(_ context.Context, raw []byte) (extracted, error) {
		d, err := htmltext.Extract(bytes.NewReader(raw), "")
		if err != nil {
			return extracted{}, err
		}
		return extracted{title: d.Title, text: d.Text, spans: d.Spans}, nil
	},
	"text": plainExtract,
	// Dataset papers are plain text that arrived inside a dataset row.
	"dataset": plainExtract,
}

func plainExtract(_ context.Context, raw []byte) (extracted, error) {
	t, err := cleanPlain(raw)
	if err != nil {
		return extracted{}, err
	}
	return extracted{title: plainTitle(t), text: t}, nil
}

// extract runs the extractor for the job's kind under the per-document time
// limit. A file that exceeds it is reported, and its goroutine is abandoned:
// ledongthuc/pdf cannot be interrupted mid-page.
func extract(ctx context.Context, j job, raw []byte, limit time.Duration) (extracted, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type res struct {
		e   extracted
		err error
	}
	done := make(chan res, 1)
	// Looked up here, not in the goroutine, which may outlive this call:
	// nothing then orders its read of the map before a later write (a
	// test restoring an extractor).
	fn := extractors[j.kind]
	go func() {
		var r res
		defer func() {
			if p := recover(); p != nil {
				r = res{err: fmt.Errorf("unreadable file (the parser failed: %v)", p)}
			}
			done <- r
		}()
		r.e, r.err = fn(ctx, raw)
	}()
	select {
	case r := <-done:
		return r.e, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return extracted{}, fmt.Errorf("timed out after %s; raise --timeout or leave this file out", limit)
		}
		return extracted{}, ctx.Err()
	}
}
