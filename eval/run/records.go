package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/assemble"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/model"
)

// ContextItem is one passage (or web page, or gold excerpt) a question got.
type ContextItem struct {
	PassageID string  `json:"passage_id"`
	Rank      int     `json:"rank"`
	Score     float64 `json:"score"`
	Retriever string  `json:"retriever,omitempty"`
	// Expanded marks a passage --expand added beside a retrieved one
	// (Rank and Score are then its hit's rank and 0).
	Expanded bool `json:"expanded,omitempty"`
}

// Record is one question under one mode and run (fixed JSON: scripts read it).
//
// Schema versions ("schema", one numbering for records and summary.json,
// which is computed from them; SchemaVersion is the one written):
//
//   - 1: every record and summary written before the field existed; it is
//     absent from the file and read as 1. Fields were added over that
//     time, so a version-1 record may lack reply_cut, judge_reply_cut and
//     judge_unreadable (read as false: unknown, not "no"), and one that
//     ended in an error may lack score_kind (read as scored, as it was
//     counted then). A version-1 summary may lack by_mode's
//     accuracy_answered and records (read as 0) and no_accuracy.
//   - 2: adds schema. Every record has score_kind ("exact", "judge",
//     "rouge_l"), set before the question is asked, so an error record
//     says how it would have been scored; reply_cut, judge_reply_cut and
//     judge_unreadable are written whenever true, so their absence means
//     false. Every summary has accuracy_answered and records for each mode,
//     and no_accuracy when it reports no overall accuracy.
//
// extractor was added to version 2 without a new version: its absence
// reads right as "unknown rules" in a record of any version. So were
// reasoning_answers and harmful_verification (computed when a record is
// scored; rescore fills them in an older record), and summary.json's
// harmful_verification: absent reads as "none found", or "not computed"
// in a folder never rescored since.
//
// A field whose absence reads right as its zero value (omitempty, added
// for a new feature) needs no new version; a field readers must be able
// to trust, or a changed meaning, does. Names never change: fields are
// added, never renamed. ReadResults and Dir.ReadSummary read every version
// up to SchemaVersion and refuse a later one (ErrNewerSchema).
type Record struct {
	// Schema is the version the record was written in: 1 when the file
	// has none. 0 in a record not read from a file; the writer writes
	// SchemaVersion.
	Schema          int           `json:"schema"`
	QuestionID      string        `json:"question_id"`
	PaperID         string        `json:"paper_id"`
	Mode            string        `json:"mode"`
	Run             int           `json:"run"`
	Model           string        `json:"model"`
	Paradigm        string        `json:"paradigm"`
	Context         []ContextItem `json:"context"`
	PromptTokens    int           `json:"prompt_tokens"`
	TruncatedTokens int           `json:"truncated_tokens"`
	Output          string        `json:"output"`
	Reasoning       string        `json:"reasoning"`
	Extracted       string        `json:"extracted"`
	Gold            string        `json:"gold"`
	Correct         bool          `json:"correct"`
	Error           string        `json:"error"`
	LatencyMS       int64         `json:"latency_ms"`
	Usage           model.Usage   `json:"usage"`
	// Beyond the fixed fields: what the inspector and reports use.
	QuestionType string            `json:"question_type"`
	Breakdown    map[string]string `json:"breakdown,omitempty"`
	Method       string            `json:"extraction,omitempty"` // which extraction rule matched
	// Extractor is the version of the extraction rules (extract.Version)
	// that read Extracted from the reply, on a record scored by extraction
	// (score_kind "exact"). "" (left out) where no extractor read the reply
	// (judged, ROUGE-L, or an error before scoring), and on records made
	// before it was recorded, whose rules are unknown. Rescore sets it.
	Extractor string         `json:"extractor,omitempty"`
	Miss      bool           `json:"miss"`                 // no answer could be extracted
	Score     *float64       `json:"score,omitempty"`      // judge score or ROUGE-L for short answers
	ScoreKind string         `json:"score_kind,omitempty"` // "exact", "judge", "rouge_l"
	Cuts      []assemble.Cut `json:"cuts,omitempty"`
	Recall    *float64       `json:"evidence_recall,omitempty"` // share of gold evidence in the context
	Web       []WebItem      `json:"web,omitempty"`             // web modes: what was found and fetched
	// WebResults is how many usable web results a web mode's prompt got
	// (0: answered without any, closed-book or full-paper alone).
	WebResults *int `json:"web_results,omitempty"`
	Cached     bool `json:"cached"`
	Attempts   int  `json:"attempts,omitempty"`
	// ReplyCut marks a reply over --max-reply-bytes, cut while it was
	// read: Output and Reasoning are what came before the cut, and the
	// record is scored on them. In a tool mode or self-route, any of the
	// calls. (Left out when false.)
	ReplyCut bool `json:"reply_cut,omitempty"`
	// JudgeReplyCut marks a judge reply cut the same way; the score was
	// read from what came before the cut.
	JudgeReplyCut bool `json:"judge_reply_cut,omitempty"`
	// FinishReason is the server's finish_reason: "stop", "length" (cut
	// by the token limit), "content_filter", …
	FinishReason string `json:"finish_reason"`
	// Truncated marks a reply cut by the token limit with no extractable
	// answer: wrong, and counted apart, so that a too-small
	// --max-completion-tokens shows at a glance.
	Truncated bool `json:"truncated"`
	// PromptSHA256 names the exact messages sent, kept in prompts.db when
	// the run was made with --log-prompts (ReadPrompt reads them).
	PromptSHA256 string `json:"prompt_sha256,omitempty"`
	// Transcript is a tool mode's whole exchange: each model turn, each
	// tool call with its arguments and result, the cap if it cut in.
	// PromptTokens and Usage are then the sum over its turns (each turn's
	// prompt as sent, see agent.Step.PromptTokens), the run's cost.
	Transcript *agent.Transcript `json:"transcript,omitempty"`
	// Route is the way a self-route question went: "rag" (the passages
	// sufficed) or "full" (the model replied unanswerable and was asked
	// again with the whole paper). PromptTokens and Usage are then the sum
	// of both calls, the run's cost; RouteCalls keeps each call.
	Route      string      `json:"route,omitempty"`
	RouteCalls []RouteCall `json:"route_calls,omitempty"`
	// Cited are the passage ids the answer cites ([p3] for passage
	// paper#3), only those that were in its context, in citing order.
	Cited []string `json:"cited,omitempty"`
	// RerankUsage is what the LLM reranker (--rerank llm) used to order
	// this question's passages for this mode. A question is reranked once
	// for all its runs, so only the first run's record carries it; Usage
	// does not include it (the reranker may be another model).
	RerankUsage *model.Usage `json:"rerank_usage,omitempty"`
	// JudgeUnreadable marks a judge reply without a readable
	// answer_score: scored 0 and kept in the denominator, as LPFQA
	// averages over every task.
	JudgeUnreadable bool `json:"judge_unreadable,omitempty"`
	// ReasoningAnswers are the answers the reply committed to along the
	// way, in order, on a record scored by extraction: those of the
	// reasoning field, then those of the output (its <think> blocks and,
	// for cot, its steps; the whole output is read, so the last one is
	// usually the final answer). extract.Along says what a commitment is.
	// Left out when there is none, and on records scored before it was
	// kept (rescore fills it).
	ReasoningAnswers []string `json:"reasoning_answers,omitempty"`
	// HarmfulVerification marks a wrong answer whose reasoning had
	// committed to the gold answer before it settled on another
	// (ElaipBench §4.3): scored by extraction, no error, an answer
	// extracted (not a miss) and wrong, and the gold among
	// ReasoningAnswers. Left out when false.
	HarmfulVerification bool `json:"harmful_verification,omitempty"`
}

// RouteCall is one of self-route's calls (fixed JSON).
type RouteCall struct {
	Route        string      `json:"route"` // "rag" or "full": what the prompt held
	PromptTokens int         `json:"prompt_tokens"`
	Usage        model.Usage `json:"usage"`
	Output       string      `json:"output"`
	Reasoning    string      `json:"reasoning,omitempty"`
	// Unanswerable says the reply was read as "unanswerable", which sends
	// the question on to the paper.
	Unanswerable bool   `json:"unanswerable"`
	LatencyMS    int64  `json:"latency_ms"`
	Cached       bool   `json:"cached"`
	Attempts     int    `json:"attempts,omitempty"`
	FinishReason string `json:"finish_reason,omitempty"`
	ReplyCut     bool   `json:"reply_cut,omitempty"`
	Error        string `json:"error,omitempty"`
}

// WebItem is one web result a question got (fixed JSON).
type WebItem struct {
	URL    string `json:"url"`
	Title  string `json:"title"`
	Rank   int    `json:"rank"`
	Tokens int    `json:"tokens"`
	Status string `json:"status"` // "ok" or a short error word: "timeout", "blocked", "http 404", ...
}

// SchemaVersion is the version of the records and summary this paperlens
// writes; Record's doc says what each version holds.
const SchemaVersion = 2

// ErrNewerSchema is a record or summary of a version later than
// SchemaVersion: reading it as this version could misread fields whose
// meaning changed, so it is refused.
var ErrNewerSchema = errors.New("written by a newer paperlens")

// schemaOf returns the version a file's "schema" value says: 1 when absent
// (0), an error wrapping ErrNewerSchema when later than SchemaVersion, and
// an error when not a version at all.
func schemaOf(v int) (int, error) {
	switch {
	case v == 0:
		return 1, nil
	case v < 0:
		return 0, fmt.Errorf("schema %d is not a version", v)
	case v > SchemaVersion:
		return 0, fmt.Errorf("%w (schema %d; this one reads up to %d): upgrade paperlens to read it", ErrNewerSchema, v, SchemaVersion)
	}
	return v, nil
}

// newerSchema reports the ErrNewerSchema error of a JSON object that did
// not decode: a later version may have changed a field's type, and its
// "schema" still says so. nil when it is no newer object (a damaged line).
func newerSchema(b []byte) error {
	var probe struct {
		Schema int `json:"schema"`
	}
	if json.Unmarshal(b, &probe) != nil {
		return nil
	}
	if _, err := schemaOf(probe.Schema); errors.Is(err, ErrNewerSchema) {
		return err
	}
	return nil
}

// decodeRecord reads one line of results.jsonl. ok is false for a line
// that holds no record (cut by a kill, or damaged), which readers skip; a
// record of a later version is an error.
func decodeRecord(line []byte) (r Record, ok bool, err error) {
	if json.Unmarshal(line, &r) != nil {
		return r, false, newerSchema(line)
	}
	v, err := schemaOf(r.Schema)
	if errors.Is(err, ErrNewerSchema) {
		return r, false, err
	}
	if err != nil || r.QuestionID == "" {
		return r, false, nil
	}
	r.Schema = v
	return r, true, nil
}

// key identifies a unit of work.
type key struct {
	q    string
	mode string
	run  int
}

func (r Record) key() key { return key{r.QuestionID, r.Mode, r.Run} }

// writer appends records to results.jsonl, one write per record, so a run
// killed at any moment keeps every record it finished.
//
// A write that fails (a full disk) may leave part of its line behind. The
// writer cuts the file back to the end of the last whole record and
// refuses every later write: a record appended after a partial line would
// be glued to it, and one that landed after a freed page would sit beside
// the half of another, so that a resume could count, redo or double it.
type writer struct {
	mu   sync.Mutex
	f    recordFile
	size int64 // bytes of whole records in the file
	err  error // the first failed write; no write follows it
}

// recordFile is what the writer needs of results.jsonl; tests give it a
// file that fills up.
type recordFile interface {
	io.Writer
	Truncate(size int64) error
	Sync() error
	Close() error
}

// openRecordFile opens results.jsonl for appending; tests replace it.
var openRecordFile = func(path string) (recordFile, int64, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

func openWriter(path string) (*writer, error) {
	f, size, err := openRecordFile(path)
	if err != nil {
		return nil, fmt.Errorf("open results: %w", err)
	}
	return &writer{f: f, size: size}, nil
}

func (w *writer) write(r Record) error {
	r.Schema = SchemaVersion // a record made now is of this version
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	n, err := w.f.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = err
		if n > 0 {
			// Cutting frees what the partial line took, so it works on a
			// full disk; if it fails, the next run's repairTail cuts it.
			if terr := w.f.Truncate(w.size); terr == nil {
				_ = w.f.Sync()
			}
		}
		return err
	}
	w.size += int64(len(b))
	return nil
}

func (w *writer) Close() error { return w.f.Close() }

// repairTail cuts a partial last line off the results file: a disk that
// filled up, or a kill mid-write, leaves one, and appending after it would
// glue the next record onto it and lose both. The cut record is redone.
func repairTail(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open results: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return err
	}
	// Walk back in blocks to the last newline.
	end := fi.Size()
	buf := make([]byte, 64<<10)
	for off := end; off > 0; {
		n := int64(len(buf))
		if off < n {
			n = off
		}
		off -= n
		if _, err := f.ReadAt(buf[:n], off); err != nil {
			return fmt.Errorf("read results: %w", err)
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			if keep := off + int64(i) + 1; keep != end {
				return truncate(f, path, keep)
			}
			return nil
		}
	}
	return truncate(f, path, 0)
}

func truncate(f *os.File, path string, size int64) error {
	if err := f.Truncate(size); err != nil {
		return fmt.Errorf("cut the partial last line of %s: %w", path, err)
	}
	return f.Sync()
}

// ReadResults reads a results file; later records for the same question,
// mode and run replace earlier ones (a rerun retries errors). A line cut off
// by a kill is ignored. Records of every schema version up to
// SchemaVersion are read, each with its Schema set (1 when the line has
// none); a record of a later version is an error wrapping ErrNewerSchema.
// Every reader of results.jsonl (report, the inspector, study, the
// commands) reads it through here, by Dir.Records.
func ReadResults(path string) ([]Record, error) {
	recs, _, err := readResults(path)
	return recs, err
}

// readResults is ReadResults that also counts the file's lines, so that a
// caller can tell whether some were superseded or unreadable.
func readResults(path string) ([]Record, int, error) {
	var out []Record
	lines, err := EachResult(path, func(r Record) error {
		out = append(out, r)
		return nil
	})
	return out, lines, err
}

// EachResult calls fn with each record of a results file, in the order
// ReadResults returns them (a question, mode and run where its first
// line was, with its last record), holding one record at a time: a
// reader that needs only counts or sums reads a run of any size in
// constant memory. It reads the file twice: once for where each record
// is, once for the records. It returns the file's lines; fn's error
// stops the reading and is returned.
func EachResult(path string, fn func(Record) error) (lines int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	ix, err := indexResults(f, path)
	if err != nil {
		return ix.lines(), err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return ix.lines(), fmt.Errorf("read %s: %w", path, err)
	}
	br := bufio.NewReaderSize(f, 1<<20)
	for i := 0; i < ix.lines(); i++ {
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return ix.lines(), fmt.Errorf("read %s: %w", path, err)
		}
		last := ix.pick[i]
		if last < 0 {
			continue
		}
		if last != i {
			// Superseded later in the file: its last record, read where it is.
			line = make([]byte, ix.off[last+1]-ix.off[last])
			if _, err := f.ReadAt(line, ix.off[last]); err != nil {
				return ix.lines(), fmt.Errorf("read %s: %w", path, err)
			}
		}
		r, _, err := decodeRecord(line)
		if err != nil {
			return ix.lines(), fmt.Errorf("read %s line %d: %w", path, last+1, err)
		}
		if err := fn(r); err != nil {
			return ix.lines(), err
		}
	}
	return ix.lines(), nil
}

// eachLine calls fn with the record of each line of a results file, in
// the file's order, superseded ones included, skipping lines that hold
// none; one pass, one record at a time. On a compacted file (one line per
// record) that is what EachResult gives.
func eachLine(path string, fn func(Record) error) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			r, ok, derr := decodeRecord(line)
			if derr != nil {
				return fmt.Errorf("read %s line %d: %w", path, n, derr)
			}
			if ok {
				if err := fn(r); err != nil {
					return err
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
}

// summarizeResults summarises a results file and counts its errors as it
// reads it (Summarizer), holding no record longer than it takes to add
// it. compact says the file has one line per record, as compactResults
// leaves it: then one pass in the file's order reads it as ReadResults
// would; else EachResult finds the last record of each.
func summarizeResults(path string, compact bool, cfg Config, qs []bench.Question) (Summary, []ErrorCount, error) {
	s := NewSummarizer(cfg, qs)
	var errs errorTally
	add := func(r Record) error {
		s.Add(r)
		errs.add(r)
		return nil
	}
	var err error
	if compact {
		err = eachLine(path, add)
	} else {
		_, err = EachResult(path, add)
	}
	if err != nil {
		return Summary{}, nil, err
	}
	return s.Summary(), errs.counts(), nil
}

// resultsIndex says where the records of a results file are: off[i] is
// where line i starts (off[lines] the end of the last), and pick[i] the
// line whose record is read at line i's place: the last line of the
// question, mode and run whose first line i is, or -1 (a superseded
// record, or no record at all).
type resultsIndex struct {
	off     []int64
	pick    []int
	records int
}

func (x resultsIndex) lines() int { return len(x.pick) }

// indexResults reads a results file from its start for its resultsIndex.
// A record of a later schema is an error wrapping ErrNewerSchema.
func indexResults(f io.Reader, path string) (resultsIndex, error) {
	x := resultsIndex{off: []int64{0}}
	first := map[key]int{}
	br := bufio.NewReaderSize(f, 1<<20)
	var at int64
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			at += int64(len(line))
			x.off = append(x.off, at)
			x.pick = append(x.pick, -1)
			r, ok, derr := decodeRecord(line)
			if derr != nil {
				return x, fmt.Errorf("read %s line %d: %w", path, x.lines(), derr)
			}
			if ok {
				i := x.lines() - 1
				if j, seen := first[r.key()]; seen {
					x.pick[j] = i
				} else {
					first[r.key()] = i
					x.pick[i] = i
					x.records++
				}
			}
		}
		if err == io.EOF {
			return x, nil
		}
		if err != nil {
			return x, fmt.Errorf("read %s: %w", path, err)
		}
	}
}

// compactResults rewrites a results file that holds superseded records (an
// error a rerun redid) or unreadable lines, so that every question, mode
// and run has exactly one line: what ReadResults returns, in the same
// order, one record at a time (EachResult). Each record keeps its schema
// version (a version-1 record is written with "schema": 1, not relabelled
// as current); a file with a record of a later version is left alone
// (EachResult refuses it). The new file replaces the old in one rename
// (renameio), so a kill or a full disk leaves one or the other, never a
// mix. It reports whether it rewrote the file.
func compactResults(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	ix, err := indexResults(f, path)
	f.Close()
	if err != nil || ix.lines() == ix.records {
		return false, err
	}
	if err := rewriteResultsFrom(path, func(put func(Record) error) error {
		_, err := EachResult(path, put)
		return err
	}); err != nil {
		return false, fmt.Errorf("compact %s: %w", path, err)
	}
	return true, nil
}

// rewriteResults replaces a results file with recs, one line each, in
// one rename (renameio): a kill or a full disk leaves the old file or the
// new one, never a mix. Each record is written with its own Schema, as
// compaction and rescoring keep it.
func rewriteResults(path string, recs []Record) error {
	return rewriteResultsFrom(path, func(put func(Record) error) error {
		for _, r := range recs {
			if err := put(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// rewriteResultsFrom is rewriteResults of the records each hands to put,
// in order, one at a time.
func rewriteResultsFrom(path string, each func(put func(Record) error) error) error {
	pf, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o644), renameio.WithTempDir(filepath.Dir(path)))
	if err != nil {
		return err
	}
	defer pf.Cleanup()
	bw := bufio.NewWriterSize(pf, 1<<20)
	enc := json.NewEncoder(bw) // escapes as json.Marshal does, like the writer
	if err := each(func(r Record) error { return enc.Encode(r) }); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return pf.CloseAtomicallyReplace()
}
