package ingest

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/doctext/htmltext"
	"github.com/paperlens/paperlens/doctext/pdftext"
	"github.com/paperlens/paperlens/internal/isolate"
)

// Isolation says how documents are handled out of process: extraction,
// cleaning, chunking and token counting of each document run in a worker
// process with a memory cap, killed at the document's time limit, so that a
// hostile file (a PDF that makes the parser allocate 100 GB, recurse until
// the stack overflows or trip a Go fatal error) costs only its own result.
type Isolation struct {
	// Off extracts in this process: faster to start, but one hostile file
	// can take down the whole run. Only for trusted files.
	Off bool
	// Command starts a worker: a program whose main calls ServeWorker.
	Command []string
	Env     []string // added to the worker's environment
	Memory  int64    // data-segment cap per worker; default 1 GiB
}

// DefaultIsolation applies when Options.Isolation is nil. It is nil (work
// in this process) unless the program can serve the worker mode and says
// so. paperlens leaves it nil and passes its Isolation (SelfIsolation and
// the --isolate flags) with every call: one process may run several
// commands at once (its tests do), each with its own.
var DefaultIsolation *Isolation

// ServeWorker is the main loop of a worker process; see Isolation.
func ServeWorker() error {
	// The sentence model and the tokenizer's tables take about 45 ms to
	// build: build them while the first document is read and parsed, not
	// after.
	go func() { _ = chunk.Load() }()
	// A worker's live heap between documents is small, so at the default
	// GOGC a PDF's parse runs many collections. Measured on the 14 shared
	// PDFs (isolated ingest command, median of 7): GOGC 50 1.40 s, 100
	// 1.21 s, 200 1.14 s, 400 1.23 s, 800 1.38 s (past 200, faulting in the
	// larger heap costs more than the collections saved). The memory cap's
	// soft limit still makes the collector work harder near the cap.
	debug.SetGCPercent(200)
	return isolate.Serve(handleWork)
}

// IsWorker reports whether this process was started as a worker.
func IsWorker() bool { return isolate.IsWorker() }

// workRequest is one document for a worker.
type workRequest struct {
	Kind string // pdf, html, text, dataset; "" when Raw is clean text to chunk again
	Raw  []byte
	// Path, when Raw is nil: the worker reads the file, a regular file of
	// at most MaxFileSize bytes.
	Path        string
	MaxFileSize int64
	URL         string // html: the page's address, for relative links
	MaxTokens   int    // chunk at this size; 0: extract only
	MinTokens   int    // merge passages under this size (chunk.Options.MinTokens)
	// Spans mark kinds of Raw when it is clean text to chunk again.
	Spans []kind.Span
	// Drop are the kinds left out of the text before chunking.
	Drop []kind.Kind
}

// workReply is a worker's answer. Passages are spans of Text, which the
// parent slices, so passage text does not cross the pipe twice.
type workReply struct {
	Title, Text string
	Pages       int
	Spans       []kind.Span // kinds of Text (what Drop left of the extractor's)
	Passages    []span
	Err         string
	Sentinel    string // a known error Err wraps, so errors.Is works across the pipe
}

type span struct {
	Start, End, Tokens int
	Section            string
	Kind               kind.Kind
}

// sentinels are the errors that callers tell apart with errors.Is.
var sentinels = map[string]error{
	"empty": ErrEmpty, "not text": ErrNotText,
	"pdf empty": pdftext.ErrEmpty, "pdf no text": pdftext.ErrNoText, "not pdf": pdftext.ErrNotPDF,
	"pdf truncated": pdftext.ErrTruncated, "pdf encrypted": pdftext.ErrEncrypted, "pdf malformed": pdftext.ErrMalformed,
	"html empty": htmltext.ErrEmpty, "html no text": htmltext.ErrNoText,
}

// remoteError is an error that happened in a worker.
type remoteError struct {
	msg      string
	sentinel error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.sentinel }

func handleWork(b []byte) []byte {
	var req workRequest
	var rep workReply
	if raw, err := decodeMsg(b, &req); err != nil {
		rep.Err = fmt.Sprintf("internal error: bad request to the extraction worker: %v", err)
	} else {
		req.Raw = raw
		rep = doWork(req)
	}
	text := rep.Text
	rep.Text = ""
	head, err := msgHead(&rep)
	if err != nil {
		// Only a bug can get here; the parent reports the empty reply.
		return nil
	}
	return append(head, text...)
}

// msgHead is the start of a message: its gob header, which a body of raw
// bytes follows. The body (a document's bytes, or its text) travels outside
// gob, which would copy it twice more on each side; the parent writes it to
// the pipe straight from the file's buffer, and the receiver's view of it
// is a slice of the frame it read. In a fresh worker every copy is also
// fresh pages to fault in, which on a virtual machine cost more than the
// copy. Callers clear the header's body field first; gob leaves empty
// fields out.
func msgHead(header any) ([]byte, error) {
	var h bytes.Buffer
	if err := gob.NewEncoder(&h).Encode(header); err != nil {
		return nil, err
	}
	return append(binary.AppendUvarint(nil, uint64(h.Len())), h.Bytes()...), nil
}

// decodeMsg reads a message that starts with msgHead into header and returns the body,
// which shares b's memory.
func decodeMsg(b []byte, header any) ([]byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, errors.New("malformed message frame")
	}
	if err := gob.NewDecoder(bytes.NewReader(b[k : k+int(n)])).Decode(header); err != nil {
		return nil, err
	}
	return b[k+int(n):], nil
}

// doWork is what a worker does for one document: the same extractors and
// chunker as in-process work.
func doWork(req workRequest) (rep workReply) {
	defer func() {
		if p := recover(); p != nil {
			rep = workReply{Err: fmt.Sprintf("internal error while reading this file (please report it): %v", p)}
		}
	}()
	if req.Path != "" {
		raw, err := readRegular(req.Path, req.MaxFileSize)
		if err != nil {
			rep.Err = err.Error()
			return rep
		}
		req.Raw = raw
	}
	var text string
	spans := req.Spans
	if req.Kind == "" {
		text = string(req.Raw)
	} else {
		var e extracted
		var err error
		if req.Kind == "html" && req.URL != "" {
			var d *htmltext.Document
			if d, err = htmltext.Extract(bytes.NewReader(req.Raw), req.URL); err == nil {
				e = extracted{title: d.Title, text: d.Text, spans: d.Spans}
			}
		} else {
			e, err = runExtractor(context.Background(), req.Kind, req.Raw)
		}
		if err != nil {
			rep.Err = err.Error()
			for name, s := range sentinels {
				if errors.Is(err, s) {
					rep.Sentinel = name
					break
				}
			}
			return rep
		}
		rep.Title, rep.Pages, text, spans = e.title, e.pages, e.text, e.spans
	}
	rep.Text, rep.Spans, rep.Passages = prepare(text, spans, req.Drop, req.MaxTokens, req.MinTokens)
	return rep
}

// prepare leaves the kinds drop out of text, whose kinds are spans, and
// chunks the rest at maxTokens (0: not at all), merging passages under
// minTokens (chunk.Options.MinTokens). It returns the text kept, its kinds
// and its passages, which are spans of that text.
func prepare(text string, spans []kind.Span, drop []kind.Kind, maxTokens, minTokens int) (string, []kind.Span, []span) {
	text, spans = kind.Drop(text, spans, kind.NewSet(drop))
	if maxTokens <= 0 {
		return text, spans, nil
	}
	var out []span
	for _, p := range chunk.Split(text, chunk.Options{MaxTokens: maxTokens, Spans: spans, MinTokens: minTokens}) {
		out = append(out, span{p.Start, p.End, p.Tokens, p.Section, p.Kind})
	}
	return text, spans, out
}

// runExtractor calls the extractor for kind, turning its panic into an error.
func runExtractor(ctx context.Context, kind string, raw []byte) (e extracted, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("unreadable file (the parser failed: %v)", p)
		}
	}()
	return extractors[kind](ctx, raw)
}

// workers are the worker processes of one ingest run.
type workers struct {
	pool *isolate.Pool
}

func newWorkers(iso *Isolation, size int) (*workers, error) {
	p, err := isolate.New(isolate.Config{Command: iso.Command, Env: iso.Env, Size: size, Memory: iso.Memory})
	if err != nil {
		return nil, err
	}
	// Workers start when the first document needs one, not here: a
	// re-ingest of unchanged files then starts none.
	return &workers{pool: p}, nil
}

func (w *workers) Close() error { return w.pool.Close() }

// WorkerPool is a set of worker processes that several runs share
// (Options.Pool): each run then skips the workers' start-up, about 0.1 s
// of CPU each (package initialisation, the tokenizer's tables and the
// sentence model).
type WorkerPool struct{ w *workers }

// NewWorkerPool makes a pool of size workers, started as documents need
// them or by Warm. With iso nil, DefaultIsolation applies.
func NewWorkerPool(iso *Isolation, size int) (*WorkerPool, error) {
	if iso == nil {
		iso = DefaultIsolation
	}
	if iso == nil || iso.Off {
		return nil, errors.New("isolation is off: there are no workers to pool")
	}
	w, err := newWorkers(iso, size)
	if err != nil {
		return nil, err
	}
	return &WorkerPool{w: w}, nil
}

// Warm starts every worker and waits until each can chunk.
func (p *WorkerPool) Warm(ctx context.Context) error {
	size := p.w.pool.Size()
	errs := make(chan error, size)
	for range size {
		// size calls at once hold size distinct workers.
		go func() {
			_, err := p.w.do(ctx, StartTimeout, workRequest{Raw: []byte("Warm up."), MaxTokens: 8})
			errs <- err
		}()
	}
	var first error
	for range size {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// StartTimeout bounds Warm's wait for each worker.
const StartTimeout = time.Minute

// Close stops the workers.
func (p *WorkerPool) Close() error { return p.w.Close() }

// smallText is the size under which plain text is cleaned and chunked in
// this process even when isolation is on: text cannot crash a parser, and
// chunking is linear, while starting a worker costs about 0.1 s of CPU.
// Most dataset papers are this small.
const smallText = 1 << 20

// forDoc returns the workers to use for a document of kind and size, or nil
// to work in this process.
func (w *workers) forDoc(kind string, size int) *workers {
	if w == nil || (kind != "pdf" && kind != "html" && size < smallText) {
		return nil
	}
	return w
}

// do runs one request in a worker within timeout.
func (w *workers) do(ctx context.Context, timeout time.Duration, req workRequest) (workReply, error) {
	raw := req.Raw
	req.Raw = nil
	head, err := msgHead(&req)
	if err != nil {
		return workReply{}, fmt.Errorf("internal error: encode the request for the extraction worker: %w", err)
	}
	b, err := w.pool.Call(ctx, timeout, head, raw)
	if err != nil {
		var f *isolate.Failure
		if errors.As(err, &f) {
			return workReply{}, describeFailure(req.Kind, f)
		}
		return workReply{}, err
	}
	var rep workReply
	text, err := decodeMsg(b, &rep)
	if err != nil {
		return workReply{}, fmt.Errorf("internal error: the extraction worker's reply cannot be read (please report it): %w", err)
	}
	rep.Text = string(text)
	if rep.Err != "" {
		return rep, &remoteError{msg: rep.Err, sentinel: sentinels[rep.Sentinel]}
	}
	return rep, nil
}

// kindNames name what a worker was parsing, for messages.
var kindNames = map[string]string{"pdf": "PDF", "html": "HTML page", "text": "text file", "dataset": "paper text", "": "text"}

// describeFailure puts a dead worker in the user's words; the Go runtime's
// own message stays out of them (Failure.Detail keeps it for debugging).
func describeFailure(kind string, f *isolate.Failure) error {
	what := kindNames[kind]
	var msg string
	switch f.Reason {
	case isolate.OutOfMemory:
		msg = fmt.Sprintf("the %s needs more than %s of memory to parse; it may be malicious or damaged (--doc-memory raises the cap)", what, isolate.FormatBytes(f.Memory))
	case isolate.StackOverflow:
		msg = fmt.Sprintf("the %s is nested too deeply to parse; it may be malicious or damaged", what)
	case isolate.Timeout:
		msg = fmt.Sprintf("parsing timed out after %s (--doc-timeout raises the limit)", f.Timeout)
	case isolate.Killed:
		msg = fmt.Sprintf("the %s's parser was killed by the system (most often for lack of memory on this machine)", what)
	case isolate.NotWorker:
		msg = fmt.Sprintf("the extraction worker did not start (%s); reinstall paperlens, or pass --isolate=false to extract in this process (unsafe for untrusted files)", f.Detail)
	default:
		msg = fmt.Sprintf("the %s crashed the parser; it may be malicious or damaged", what)
	}
	return &workerError{msg: msg, f: f}
}

// workerError is a Failure told in a document's terms.
type workerError struct {
	msg string
	f   *isolate.Failure
}

func (e *workerError) Error() string { return e.msg }
func (e *workerError) Unwrap() error { return e.f }

// PageExtractor extracts fetched web pages in worker processes, for the web
// modes of eval: a hostile page then costs only its own search result.
type PageExtractor struct {
	w       *workers
	timeout time.Duration
}

// NewPageExtractor starts a pool of size workers (lazily); each page gets
// timeout. With iso nil, DefaultIsolation applies; nil is returned, with no
// error, when isolation is off.
func NewPageExtractor(iso *Isolation, size int, timeout time.Duration) (*PageExtractor, error) {
	if iso == nil {
		iso = DefaultIsolation
	}
	if iso == nil || iso.Off {
		return nil, nil
	}
	p, err := isolate.New(isolate.Config{Command: iso.Command, Env: iso.Env, Size: size, Memory: iso.Memory})
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	return &PageExtractor{w: &workers{pool: p}, timeout: timeout}, nil
}

// Extract turns an HTML or PDF body into its title and main text. Errors
// wrap the extractors' sentinels (htmltext.ErrNoText, pdftext.ErrNoText...)
// and, on a time-out, context.DeadlineExceeded.
func (x *PageExtractor) Extract(ctx context.Context, kind string, body []byte, pageURL string) (title, text string, err error) {
	rep, err := x.w.do(ctx, x.timeout, workRequest{Kind: kind, Raw: body, URL: pageURL})
	if err != nil {
		return "", "", err
	}
	return rep.Title, rep.Text, nil
}

// Close stops the workers.
func (x *PageExtractor) Close() error { return x.w.Close() }

// selfCommand is how a program re-executes itself: /proc/self/exe still
// names this binary when its file was replaced by an upgrade mid-run.
func selfCommand() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// SelfIsolation is the Isolation of a program that serves the worker mode
// when run with args.
func SelfIsolation(args ...string) (*Isolation, error) {
	exe, err := selfCommand()
	if err != nil {
		return nil, fmt.Errorf("cannot find this program's executable to start extraction workers: %w; pass --isolate=false to extract in this process (unsafe for untrusted files)", err)
	}
	return &Isolation{Command: append([]string{exe}, args...)}, nil
}
