package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/google/renameio/v2"

	"github.com/paperlens/paperlens/model"
)

// The files of a run folder besides ResultsFile and PromptsFile. Only Dir
// opens them: eval, report, the inspector and the commands all read a
// folder through it.
const (
	configFile      = "config.json"  // Config, indented JSON
	summaryFile     = "summary.json" // Summary, indented JSON
	summaryMarkdown = "summary.md"   // Markdown(Summary)
	lockFile        = ".lock"        // the writer's flock
)

// Dir is a run folder (eval --out): config.json, the append-only
// results.jsonl, summary.json and summary.md, prompts.db with
// --log-prompts, and the writer's lock. Whole files are replaced
// atomically and synced, so a reader or a crash never sees half of one.
type Dir string

func (d Dir) path(name string) string { return filepath.Join(string(d), name) }

// HasConfig reports whether the folder has a config.json; the error is
// one other than its absence.
func (d Dir) HasConfig() (bool, error) {
	_, err := os.Stat(d.path(configFile))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("read %s: %w", configFile, err)
}

// ReadConfig reads config.json as written, paths unresolved (see
// ReadFolder for paths usable from here).
func (d Dir) ReadConfig() (Config, error) {
	var c Config
	b, err := os.ReadFile(d.path(configFile))
	if err != nil {
		return c, fmt.Errorf("%s is not a run folder (no %s): %w", d, configFile, err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", d.path(configFile), err)
	}
	return c, nil
}

// Started is when the run last started: eval writes config.json first.
func (d Dir) Started() (time.Time, error) {
	fi, err := os.Stat(d.path(configFile))
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}

// WriteConfig writes config.json. URLs lose user info and query (where
// keys hide), so the file can be shared.
func (d Dir) WriteConfig(c Config) error { return d.writeJSON(configFile, c.shareable()) }

// shareable is c as config.json holds it: URLs without user info and
// query.
func (c Config) shareable() Config {
	c.BaseURL, c.JudgeURL = model.NormalizeEndpoint(c.BaseURL), model.NormalizeEndpoint(c.JudgeURL)
	c.RerankBaseURL = model.NormalizeEndpoint(c.RerankBaseURL)
	return c
}

// updateConfig writes config.json when c differs from what it holds, so
// that its time (Started) moves only with a change.
func (d Dir) updateConfig(c Config) error {
	old, err := d.ReadConfig()
	if err == nil {
		a, aerr := json.Marshal(old)
		b, berr := json.Marshal(c.shareable())
		if aerr == nil && berr == nil && bytes.Equal(a, b) {
			return nil
		}
	}
	return d.WriteConfig(c)
}

// Records reads results.jsonl (see ReadResults); a folder without one has
// no records.
func (d Dir) Records() ([]Record, error) { return ReadResults(d.path(ResultsFile)) }

// RecordsStat describes results.jsonl, so that a reader can tell when a
// run still going has added records.
func (d Dir) RecordsStat() (fs.FileInfo, error) { return os.Stat(d.path(ResultsFile)) }

// repairRecords cuts a partial last line off results.jsonl (see repairTail).
func (d Dir) repairRecords() error { return repairTail(d.path(ResultsFile)) }

// appendRecords opens results.jsonl for appending records.
func (d Dir) appendRecords() (*writer, error) { return openWriter(d.path(ResultsFile)) }

// ReadSummary reads summary.json. Without one the error satisfies
// errors.Is(err, fs.ErrNotExist): the run is going, or was stopped
// before the end. Every schema version up to SchemaVersion is read, with
// Schema set (1 when the file has none); a later one is an error wrapping
// ErrNewerSchema.
func (d Dir) ReadSummary() (Summary, error) {
	var s Summary
	b, err := os.ReadFile(d.path(summaryFile))
	if err != nil {
		return s, fmt.Errorf("read %s: %w", summaryFile, err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		if nerr := newerSchema(b); nerr != nil {
			return Summary{}, fmt.Errorf("read %s: %w", d.path(summaryFile), nerr)
		}
		return s, fmt.Errorf("parse %s: %w (delete it to summarise the run from %s)", summaryFile, err, ResultsFile)
	}
	v, err := schemaOf(s.Schema)
	if errors.Is(err, ErrNewerSchema) {
		return Summary{}, fmt.Errorf("read %s: %w", d.path(summaryFile), err)
	}
	if err != nil {
		return s, fmt.Errorf("parse %s: %w (delete it to summarise the run from %s)", summaryFile, err, ResultsFile)
	}
	s.Schema = v
	return s, nil
}

// SummaryJSON is summary.json as written (eval --json prints it).
func (d Dir) SummaryJSON() ([]byte, error) { return os.ReadFile(d.path(summaryFile)) }

// SummaryMarkdown is summary.md as written (eval and study print it).
func (d Dir) SummaryMarkdown() ([]byte, error) { return os.ReadFile(d.path(summaryMarkdown)) }

// SummaryFresh reports whether summary.json was written after the last
// record, so that it covers every record.
func (d Dir) SummaryFresh() bool {
	a, err1 := os.Stat(d.path(summaryFile))
	b, err2 := d.RecordsStat()
	return err1 == nil && (err2 != nil || !a.ModTime().Before(b.ModTime()))
}

// WriteSummary writes summary.json and summary.md, as SchemaVersion.
func (d Dir) WriteSummary(s Summary) error {
	s.Schema = SchemaVersion // a summary written now is of this version
	if err := d.writeJSON(summaryFile, s); err != nil {
		return err
	}
	return d.writeFile(summaryMarkdown, []byte(Markdown(s)))
}

// Lock takes the folder's writer lock, creating the folder, so that two
// evaluations never append to one results file; it returns the release.
// Readers (inspect, serve, report) take no lock.
func (d Dir) Lock() (func(), error) {
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return nil, fmt.Errorf("create run folder: %w", err)
	}
	l := flock.New(d.path(lockFile))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock run folder %s: %w", d, err)
	}
	if !ok {
		return nil, fmt.Errorf("run folder %s is in use by another paperlens eval; wait for it, or give this one another --out", d)
	}
	return func() { l.Unlock() }, nil
}

// Prompt returns the messages a record's prompt_sha256 names, from a
// folder evaluated with --log-prompts.
func (d Dir) Prompt(hash string) ([]model.Message, error) {
	return readPrompt(d.path(PromptsFile), hash)
}

func (d Dir) openPromptLog() (*promptLog, error) { return openPromptLog(d.path(PromptsFile)) }

func (d Dir) writeJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return d.writeFile(name, append(b, '\n'))
}

// writeFile replaces a whole file atomically and syncs it: a kill or a
// full disk leaves the old file or the new one, never a torn one that
// report and the inspector would refuse.
func (d Dir) writeFile(name string, b []byte) error {
	if err := renameio.WriteFile(d.path(name), b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// LockFolder is Dir(dir).Lock.
func LockFolder(dir string) (func(), error) { return Dir(dir).Lock() }

// WriteSummary is Dir(dir).WriteSummary.
func WriteSummary(dir string, s Summary) error { return Dir(dir).WriteSummary(s) }

// ReadPrompt is Dir(dir).Prompt.
func ReadPrompt(dir, hash string) ([]model.Message, error) { return Dir(dir).Prompt(hash) }
