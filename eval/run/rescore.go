package run

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/prompts"
	"github.com/paperlens/paperlens/model"
)

// RescoreOptions are a rescore of a run folder: its saved replies read
// and scored again by the current rules, without asking the model.
type RescoreOptions struct {
	// Dir is the run folder.
	Dir string
	// Config is the run's config.json as recorded, with the judge's
	// fields replaced (WithJudge) when Judge is set; it is written back
	// to config.json then, so that the folder names the judge that scored
	// it.
	Config Config
	// Questions are the run's questions as the eval had them: its dataset
	// (the first Limit rows), less those whose paper was missing. The
	// summary counts them; every record's question must be among them.
	Questions []bench.Question
	// Judge, when set, judges every short answer again, and every row
	// that Config's judge settings judge (LPFQA's multiple-choice rows
	// unless --lpfqa-mcq extract): a run made without a judge then gets
	// one. nil keeps the judge scores saved, and scores the rest again.
	Judge       model.Chat
	JudgeHeader http.Header // the judge's extra headers (values never written)
	// Extractor is the extraction rules; zero: extract.Current.
	Extractor extract.Extractor
	// Log gets a line per record whose judge call failed; nil: discard.
	Log io.Writer
	// FolderLocked says the caller holds the folder's lock already.
	FolderLocked bool
}

// RescoreResult is what a rescore did (rescore --json prints it: fixed
// names).
type RescoreResult struct {
	Dir string `json:"dir"`
	// Records is how many records the folder holds; Rescored how many
	// were scored again (Rejudged of them by the judge); Kept how many
	// kept their judge score (no judge given); Skipped how many ended in
	// an error, which stay as they are (eval retries them); Failed how
	// many judge calls failed, whose records keep their earlier score.
	Records  int `json:"records"`
	Rescored int `json:"rescored"`
	Rejudged int `json:"rejudged"`
	Kept     int `json:"kept"`
	Skipped  int `json:"skipped"`
	Failed   int `json:"failed"`
	// Changes are the records whose verdict changed, in file order.
	Changes []Change `json:"changes"`
	// Rewrote says results.jsonl was rewritten: some record changed, if
	// only in the extractor version that scored it.
	Rewrote bool    `json:"rewrote"`
	Summary Summary `json:"summary"`
}

// Change is one record whose verdict a rescore changed.
type Change struct {
	QuestionID string  `json:"question_id"`
	Mode       string  `json:"mode"`
	Run        int     `json:"run"`
	Was        Verdict `json:"was"`
	Now        Verdict `json:"now"`
}

// Verdict is what scoring sets on a record.
type Verdict struct {
	ScoreKind       string   `json:"score_kind"`
	Extracted       string   `json:"extracted"`
	Method          string   `json:"extraction,omitempty"`
	Miss            bool     `json:"miss"`
	Correct         bool     `json:"correct"`
	Score           *float64 `json:"score,omitempty"`
	Truncated       bool     `json:"truncated"`
	JudgeUnreadable bool     `json:"judge_unreadable,omitempty"`
	JudgeReplyCut   bool     `json:"judge_reply_cut,omitempty"`
}

// VerdictOf is r's verdict.
func VerdictOf(r Record) Verdict {
	return Verdict{ScoreKind: r.ScoreKind, Extracted: r.Extracted, Method: r.Method, Miss: r.Miss, Correct: r.Correct,
		Score: r.Score, Truncated: r.Truncated, JudgeUnreadable: r.JudgeUnreadable, JudgeReplyCut: r.JudgeReplyCut}
}

// Equal reports whether two verdicts are the same (scores by value).
func (v Verdict) Equal(w Verdict) bool {
	a, b := v, w
	a.Score, b.Score = nil, nil
	if a != b || (v.Score == nil) != (w.Score == nil) {
		return false
	}
	return v.Score == nil || *v.Score == *w.Score
}

// Rescore scores a run folder's saved replies again with the current
// rules, through the scoring path of the evaluation (scorer.verdict), and
// writes the records back and a new summary. The model under test is
// never asked: a record that ended in an error keeps it (eval retries
// those), a tool mode's or self-route's record is scored on its final
// answer, as the evaluation scored it. Multiple-choice replies are read
// again by the extraction rules (and stamped with their version),
// ROUGE-L computed again; judged replies are judged again only when
// opt.Judge is set. Each record keeps its schema version.
//
// results.jsonl is rewritten in one rename when any record changed, and
// left alone otherwise; summary.json and summary.md are always written.
// A rescore of an unchanged folder by unchanged rules writes the summary
// the evaluation wrote. Nothing is written when a record names a question
// not in opt.Questions, when the context ends, or when the judge refuses
// its request as such (a *RequestError).
func Rescore(ctx context.Context, opt RescoreOptions) (RescoreResult, error) {
	res := RescoreResult{Dir: opt.Dir}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	dir := Dir(opt.Dir)
	if !opt.FolderLocked {
		unlock, err := dir.Lock()
		if err != nil {
			return res, err
		}
		defer unlock()
	}
	cfg := opt.Config
	ps, err := prompts.Load(cfg.PromptDir)
	if err != nil {
		return res, err
	}
	recs, err := dir.Records()
	if err != nil {
		return res, err
	}
	if len(recs) == 0 {
		return res, fmt.Errorf("%s holds no records: nothing to rescore (run eval --out %s first)", dir.path(ResultsFile), opt.Dir)
	}
	res.Records = len(recs)
	byID := make(map[string]bench.Question, len(opt.Questions))
	for _, q := range opt.Questions {
		byID[q.ID] = q
	}
	for _, r := range recs {
		if _, ok := byID[r.QuestionID]; !ok {
			return res, fmt.Errorf("%s names question %q (%s, run %d), which the run's dataset %s lacks: rescore needs the dataset the run was made with (pass --data FILE)",
				dir.path(ResultsFile), r.QuestionID, r.Mode, r.Run, cfg.Data)
		}
	}
	sc := scorer{cfg: cfg, judge: opt.Judge, prompts: ps, header: opt.JudgeHeader, extract: opt.Extractor}
	out, err := rescoreAll(ctx, sc, byID, recs, &res, opt.Log)
	if err != nil {
		return res, err
	}
	if !reflect.DeepEqual(out, recs) {
		if err := rewriteResults(dir.path(ResultsFile), out); err != nil {
			return res, fmt.Errorf("rewrite %s: %w (the records are as they were; free space and run rescore again)", dir.path(ResultsFile), err)
		}
		res.Rewrote = true
	}
	for i := range out {
		if was, now := VerdictOf(recs[i]), VerdictOf(out[i]); !was.Equal(now) {
			res.Changes = append(res.Changes, Change{QuestionID: out[i].QuestionID, Mode: out[i].Mode, Run: out[i].Run, Was: was, Now: now})
		}
	}
	// config.json names the new judge only once it scored every record:
	// while some keep the earlier judge's scores, the folder keeps naming
	// the earlier judge (the error below says to run rescore again).
	if opt.Judge != nil && res.Failed == 0 {
		if err := dir.updateConfig(cfg); err != nil {
			return res, err
		}
	}
	res.Summary = Summarize(cfg, opt.Questions, out)
	if err := dir.WriteSummary(res.Summary); err != nil {
		return res, err
	}
	if res.Failed > 0 {
		return res, fmt.Errorf("%d of %d judge calls failed (their records keep their earlier scores, and config.json names the earlier judge until every record is judged again; see the log): run rescore again to retry them", res.Failed, res.Rejudged+res.Failed)
	}
	return res, nil
}

// rescoreAll scores every record again, judge calls Concurrency at a
// time, and counts what it did in res. A judge refusing its request stops
// it with the *RequestError.
func rescoreAll(ctx context.Context, sc scorer, byID map[string]bench.Question, recs []Record, res *RescoreResult, logw io.Writer) ([]Record, error) {
	out := make([]Record, len(recs))
	copy(out, recs)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		fatal error
		g     errgroup.Group
	)
	g.SetLimit(max(sc.cfg.Concurrency, 1))
	for i, r := range recs {
		kind := rescoreKind(sc, byID[r.QuestionID], r)
		switch {
		case r.Error != "":
			res.Skipped++
			continue
		case kind == "judge" && sc.judge == nil:
			res.Kept++
			continue
		}
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			n := r
			n.ScoreKind = kind
			stop, callErr := sc.verdict(ctx, byID[r.QuestionID], &n)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case stop != nil:
				if fatal == nil {
					fatal = stop
				}
				cancel()
			case callErr != nil || n.Error != "":
				// The judge failed (or its prompt): the record keeps the
				// score it had rather than become an error.
				res.Failed++
				fmt.Fprintf(logw, "%s [%s run %d]: %s; its earlier score is kept\n", r.QuestionID, r.Mode, r.Run, n.Error)
			default:
				out[i] = n
				res.Rescored++
				if kind == "judge" {
					res.Rejudged++
				}
			}
			return nil
		})
	}
	_ = g.Wait() // the tasks report through fatal and res
	if fatal != nil {
		return nil, fmt.Errorf("rescore stopped, nothing written: %w", fatal)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("rescore interrupted, nothing written (run it again): %w", err)
	}
	return out, nil
}

// rescoreKind is how a record is scored again: as it was, unless a judge
// is given, which scores what the evaluation would have scored with it
// (a record from before score_kind was kept is scored as the config
// says).
func rescoreKind(sc scorer, q bench.Question, r Record) string {
	if sc.judge != nil || r.ScoreKind == "" {
		return sc.kind(q)
	}
	return r.ScoreKind
}
