package session

import (
	"io"
	"net/http"
	"os"
	"time"

	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest"
)

// Request is one evaluation as a command asks for it: the run's config and
// the settings the user gave, and everything about the clients that is
// never written to config.json.
type Request struct {
	// Config is the run as given. Home, Modes and the protocol settings
	// are the caller's; Prepare fills the rest.
	Config run.Config
	// Overrides are the request fields the user gave; the rest come from
	// the protocol table (run.Config.Defaults).
	Overrides run.Overrides
	// Command is the command line as config.json records it, already
	// stripped of secrets.
	Command []string
	Clients Clients
	Index   Index
	Rerank  Rerank
	Web     Web
	// Isolation says how papers and fetched pages are parsed: in worker
	// processes, or (nil or Off) in this one.
	Isolation *ingest.Isolation
	// Env overrides variables of the process's environment (keys,
	// default URLs); nil: none. A test gives its own, so that parallel
	// sessions in one process do not share one environment.
	Env map[string]string
	// Log receives notes and per-question errors; the caller escapes what
	// reaches a terminal. nil: discarded.
	Log      io.Writer
	Progress Progress
	// DryRun plans the calls instead of making them (run.DryRun).
	DryRun bool
	// Retrieved are run files by name (--retrieved NAME=FILE): mode
	// run:NAME takes its passages from FILE, a TREC run file ("qid Q0
	// passage_id rank score tag"). Prepare records each in
	// Config.Retrieved with its absolute path and SHA-256.
	Retrieved map[string]string
	// Compose, when set (eval --compose), evaluates questions composed
	// from the benchmark in Encyclo-K's form instead of its own, drawn
	// afresh for each run from the run's --seed (eval/compose); Prepare
	// records it in Config.Compose.
	Compose *compose.Spec
}

// Clients are the model clients' settings that are never written: key
// variables, header values (often tokens) and limits.
type Clients struct {
	// JudgeKeyEnv names the judge's key variable; "": Config.APIKeyEnv.
	JudgeKeyEnv string
	// Header and JudgeHeader are extra HTTP headers of the model and the
	// judge.
	Header, JudgeHeader http.Header
	AttemptTimeout      time.Duration // one API call, before it is retried
	MaxAttempts         int           // tries per call
	MaxReplyBytes       int64         // a longer reply is cut while read
	// ReadIdleTimeout gives up on a reply body that stalls this long; 0
	// is off.
	ReadIdleTimeout time.Duration
}

// Progress says where an eval reports its progress.
type Progress struct {
	W        io.Writer // nil: no progress
	Terminal bool      // W is a terminal: a live bar instead of lines
	Every    time.Duration
}

// Getenv looks name up in the request's environment.
func (r *Request) Getenv(name string) string {
	return lookup(r.Env, name)
}

func (r *Request) log() io.Writer {
	if r.Log == nil {
		return io.Discard
	}
	return r.Log
}

// lookup is name in env, else in the process's environment.
func lookup(env map[string]string, name string) string {
	if v, ok := env[name]; ok {
		return v
	}
	return os.Getenv(name)
}

// envOf is a lookup in env, then in the process's environment.
func envOf(env map[string]string) func(string) string {
	return func(name string) string { return lookup(env, name) }
}

// logOf is w, or a writer that discards.
func logOf(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
