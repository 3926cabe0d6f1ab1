package session

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// RescoreRequest is `paperlens rescore RUN` (fixed name): a run folder's
// saved replies scored again by the current rules (run.Rescore), the
// answering model never asked.
type RescoreRequest struct {
	// Dir is the run folder (RUN).
	Dir string
	// Data and Home say where the run's dataset and corpus home are now
	// (--data, --home); "" finds them where config.json records them, as
	// report and the inspector do (a moved folder included). The dataset
	// must be the one the run was made with (config.json's data_sha256).
	Data, Home string
	// Judge, when Judge.Model is set (--judge-model and the --judge-*
	// flags), judges the short answers again through the eval's judge
	// stack (cache in RUN/judge, retries, limits, preflight), and
	// config.json records it; without, the saved judge scores stay.
	Judge run.Judge
	// Clients are the judge client's settings: JudgeKeyEnv (""
	// config.json's api_key_env), JudgeHeader (every header the judge's
	// header_names name must have its value here), AttemptTimeout,
	// MaxAttempts, MaxReplyBytes, ReadIdleTimeout. Header is unused.
	Clients Clients
	// Env overrides the process's environment (the judge's key); nil:
	// none.
	Env map[string]string
	// Log receives notes and the records whose judge call failed; nil:
	// discarded.
	Log io.Writer
	// Extractor is the extraction rules; zero: extract.Current. Tests give
	// other rules.
	Extractor extract.Extractor
}

// Rescore scores the run folder req.Dir again (see run.Rescore): it takes
// the folder's lock, reads the dataset the run was made with, builds the
// judge when one is asked for, and writes the records (when any changed),
// summary.json and summary.md, and config.json when the judge changed.
func Rescore(ctx context.Context, req RescoreRequest) (run.RescoreResult, error) {
	logw := logOf(req.Log)
	folder, err := run.ReadFolder(req.Dir, run.Paths{Data: req.Data, Home: req.Home})
	if err != nil {
		return run.RescoreResult{}, err
	}
	for _, n := range folder.Notes {
		fmt.Fprintln(logw, "note: "+n)
	}
	if w := folder.DataChanged(); w != "" {
		return run.RescoreResult{}, fmt.Errorf("%s: rescoring needs the dataset the run was made with: restore it, or pass --data FILE", w)
	}
	all, _, err := folder.Questions()
	if err != nil {
		return run.RescoreResult{}, fmt.Errorf("rescore %s: %w", req.Dir, err)
	}
	cfg, err := run.Dir(req.Dir).ReadConfig()
	if err != nil {
		return run.RescoreResult{}, err
	}
	if req.Judge.Model != "" {
		if cfg, err = cfg.WithJudge(req.Judge); err != nil {
			return run.RescoreResult{}, err
		}
		if err := missingHeaders(cfg.Judge.HeaderNames, req.Clients.JudgeHeader, "judge-"); err != nil {
			return run.RescoreResult{}, fmt.Errorf("rescore %s: %w", req.Dir, err)
		}
	}
	// The session works in the folder as given (it may have moved); the
	// config written back keeps its recorded paths.
	local := cfg
	local.Out, local.Home = req.Dir, folder.Config.Home
	s := &Session{req: Request{Config: local, Clients: req.Clients, Env: req.Env, Log: req.Log}, cfg: local, flights: &model.Flights{}}
	defer s.Close()
	if err := s.lock(); err != nil {
		return run.RescoreResult{}, err
	}
	recs, err := run.Dir(req.Dir).Records()
	if err != nil {
		return run.RescoreResult{}, err
	}
	qs := runQuestions(local, all, recs, logw)
	if req.Judge.Model != "" {
		check, err := s.openJudge()
		if err != nil {
			return run.RescoreResult{}, err
		}
		if err := check(ctx, run.Sampling{}); err != nil {
			return run.RescoreResult{}, err
		}
	}
	return run.Rescore(ctx, run.RescoreOptions{Dir: req.Dir, Config: cfg, Questions: qs, Judge: s.opt.Judge,
		JudgeHeader: req.Clients.JudgeHeader, Extractor: req.Extractor, Log: logw, FolderLocked: true})
}

// runQuestions are the questions the eval had: the dataset's, less those
// whose paper was missing when the modes needed papers (EnsurePapers
// leaves them out). A question with records was evaluated; one without is
// kept when its paper is in the corpus, or when the modes need no paper.
// Without a corpus to ask, only the questions with records are kept.
func runQuestions(c run.Config, all []bench.Question, recs []run.Record, logw io.Writer) []bench.Question {
	n := mode.NeedsOf(c.Modes)
	if !n.Corpus && !n.Index && c.Model != "ir" && !(n.Web && c.WebProvider == "corpus") {
		return all
	}
	has := map[string]bool{}
	for _, r := range recs {
		has[r.QuestionID] = true
	}
	var st *corpus.Store
	if o, err := corpus.Open(c.Home, true); err != nil {
		fmt.Fprintf(logw, "note: the corpus home %s cannot be read (%v): the summary counts only the questions with records\n", c.Home, err)
	} else {
		st = o
		defer st.Close()
	}
	var out []bench.Question
	for _, q := range all {
		if has[q.ID] {
			out = append(out, q)
			continue
		}
		if st != nil {
			if _, err := st.Doc(q.PaperID); err == nil {
				out = append(out, q)
			}
		}
	}
	return out
}

// missingHeaders names the headers a config says are sent whose values
// were not given.
func missingHeaders(names []string, given http.Header, prefix string) error {
	for _, n := range names {
		if given.Get(n) == "" {
			return fmt.Errorf("the run sent the header %s, whose value is never written: give it again with --%sheader '%s: …'", n, prefix, n)
		}
	}
	return nil
}
