package judgecheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// The files of a judge-check folder (--out). The judge's response cache
// is JudgeCacheDir/cache.db, and the writer's lock is the run folder's
// (run.Dir.Lock).
const (
	ConfigFile    = "config.json"   // Config: what was judged, by which judge
	ResultsFile   = "results.jsonl" // Record: one line per judgment, appended as each ends
	SummaryFile   = "summary.json"  // Summary, rewritten at the end of each invocation
	JudgeCacheDir = "judge"         // the judge's response cache (model.Stack)
)

// Kind marks a judge-check folder's config.json, so that one is never
// taken for an eval run folder, or the reverse.
const Kind = "judge-check"

// SchemaVersion is the version of the folder's files.
const SchemaVersion = 1

// Config is a judge-check folder's config.json: the file judged and the
// judge. A folder holds one judge on one file; rerunning with the same
// folder resumes it, and anything else is refused.
type Config struct {
	Kind       string `json:"kind"`
	Schema     int    `json:"schema"`
	File       string `json:"file"` // absolute path
	FileSHA256 string `json:"file_sha256"`
	JudgeModel string `json:"judge_model"`
	// JudgeURL is the judge's API root without user info or query;
	// "" for the default ($OPENAI_BASE_URL, else OpenAI's).
	JudgeURL string       `json:"judge_base_url,omitempty"`
	Judge    run.Sampling `json:"judge"`
	// Prompt is where lfqae_judge came from ("builtin" or the override
	// file), PromptSHA256 its text's hash.
	Prompt       string `json:"prompt"`
	PromptSHA256 string `json:"prompt_sha256"`
}

// Orders of a judgment: the answers as the file has them, or swapped.
const (
	OrderAB = "ab" // response_a shown as Answer A
	OrderBA = "ba" // response_b shown as Answer A (--swap)
)

// Record is one judgment, a line of results.jsonl. A later line for the
// same comparison and order replaces an earlier one (a rerun retries the
// judgments that ended in an error).
type Record struct {
	Schema      int     `json:"schema"`
	ID          string  `json:"id"`
	Row         int     `json:"row"`
	Order       string  `json:"order"` // ab or ba
	Label       Verdict `json:"label"`
	CompareType string  `json:"compare_type,omitempty"`
	Type        string  `json:"type,omitempty"`
	// Said is the verdict as the judge wrote it, for the answers in the
	// order shown; Verdict is it for response_a and response_b (Said
	// un-swapped in order ba). Both are "" when Unparsed.
	Said     Verdict `json:"said,omitempty"`
	Verdict  Verdict `json:"verdict,omitempty"`
	Unparsed bool    `json:"unparsed,omitempty"`
	Reply    string  `json:"reply"`
	// Reasoning is the chain of thought a reasoning server returned
	// apart from the reply; the verdict is read from Reply only.
	Reasoning    string      `json:"reasoning,omitempty"`
	ReplyCut     bool        `json:"reply_cut,omitempty"`
	FinishReason string      `json:"finish_reason,omitempty"`
	Usage        model.Usage `json:"usage"`
	Cached       bool        `json:"cached,omitempty"`
	LatencyMS    int64       `json:"latency_ms"`
	Attempts     int         `json:"attempts,omitempty"`
	// Error is why the judgment failed; such a record counts nowhere and
	// is retried by the next run.
	Error string `json:"error,omitempty"`
}

// recordKey identifies a judgment.
type recordKey struct{ id, order string }

func (r Record) key() recordKey { return recordKey{r.ID, r.Order} }

// Folder is a judge-check output folder.
type Folder string

func (d Folder) path(name string) string { return filepath.Join(string(d), name) }

// ReadConfig reads config.json; a folder without one, or of another kind,
// is an error saying so.
func (d Folder) ReadConfig() (Config, error) {
	var c Config
	b, err := os.ReadFile(d.path(ConfigFile))
	if err != nil {
		return c, fmt.Errorf("%s is not a judge-check folder (no %s): %w", d, ConfigFile, err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", d.path(ConfigFile), err)
	}
	if c.Kind != Kind {
		return c, fmt.Errorf("%s is not a judge-check folder (its %s is not of kind %q): give a folder paperlens judge-check --out wrote", d, ConfigFile, Kind)
	}
	return c, nil
}

// Records reads results.jsonl: the latest record of each judgment, in
// the file's order. A partial last line (a kill mid-write) is ignored; a
// folder without the file has no records.
func (d Folder) Records() ([]Record, error) {
	b, err := os.ReadFile(d.path(ResultsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		b = b[:i+1]
	}
	latest := map[recordKey]int{}
	var out []Record
	for n, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s line %d: %w (the file is only appended to: restore it, or use another --out)", d.path(ResultsFile), n+1, err)
		}
		if r.Schema > SchemaVersion {
			return nil, fmt.Errorf("%s line %d: schema %d is newer than this paperlens reads (%d): update paperlens", d.path(ResultsFile), n+1, r.Schema, SchemaVersion)
		}
		if i, ok := latest[r.key()]; ok {
			out[i] = r
			continue
		}
		latest[r.key()] = len(out)
		out = append(out, r)
	}
	return out, nil
}

// ReadSummary reads summary.json.
func (d Folder) ReadSummary() (Summary, error) {
	var s Summary
	b, err := os.ReadFile(d.path(SummaryFile))
	if err != nil {
		return s, err
	}
	return s, json.Unmarshal(b, &s)
}

// writeJSON replaces a whole file atomically.
func (d Folder) writeJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := renameio.WriteFile(d.path(name), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", d.path(name), err)
	}
	return nil
}

// checkResume refuses a folder holding a check of another file, judge,
// judge setting or prompt, and writes config.json into a new one.
func (d Folder) checkResume(c Config) error {
	old, err := d.ReadConfig()
	if errors.Is(err, fs.ErrNotExist) {
		return d.writeJSON(ConfigFile, c)
	}
	if err != nil {
		return err
	}
	a, _ := json.Marshal(old.Judge)
	b, _ := json.Marshal(c.Judge)
	switch {
	case old.FileSHA256 != c.FileSHA256:
		return fmt.Errorf("%s holds a check of another file (%s, SHA-256 %.12s…; this one %.12s…): use another --out, or give the file it was made on", d, old.File, old.FileSHA256, c.FileSHA256)
	case old.JudgeModel != c.JudgeModel:
		return fmt.Errorf("%s holds a check of judge %s; use another --out for %s", d, old.JudgeModel, c.JudgeModel)
	case !bytes.Equal(a, b):
		return fmt.Errorf("%s holds a check of %s with other request settings (%s; now %s): use another --out, or give the same --judge-* flags", d, c.JudgeModel, a, b)
	case old.PromptSHA256 != c.PromptSHA256:
		return fmt.Errorf("%s holds a check made with another prompt (%s; now %s): use another --out, or the same --prompt-dir", d, old.Prompt, c.Prompt)
	}
	if old.JudgeURL != c.JudgeURL || old.File != c.File {
		return d.writeJSON(ConfigFile, c) // the same judge and file, reached or found elsewhere
	}
	return nil
}

// appender appends records to results.jsonl, one whole line each.
type appender struct {
	mu  sync.Mutex
	f   *os.File
	err error // the first failed write; nothing is written after it
}

// openAppender cuts a partial last line off results.jsonl (a kill
// mid-write leaves one, and a record appended to it would be lost with
// it), then opens it for appending.
func (d Folder) openAppender() (*appender, error) {
	p := d.path(ResultsFile)
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open results: %w", err)
	}
	b, err := os.ReadFile(p)
	if err == nil && len(b) > 0 && b[len(b)-1] != '\n' {
		err = f.Truncate(int64(bytes.LastIndexByte(b, '\n') + 1))
	}
	if err == nil {
		_, err = f.Seek(0, 2)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	return &appender{f: f}, nil
}

func (a *appender) write(r Record) error {
	r.Schema = SchemaVersion
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		return a.err
	}
	if _, err := a.f.Write(append(b, '\n')); err != nil {
		a.err = fmt.Errorf("write %s: %w", a.f.Name(), err)
	}
	return a.err
}

func (a *appender) close() error {
	serr := a.f.Sync()
	if err := a.f.Close(); err != nil {
		return err
	}
	return serr
}
