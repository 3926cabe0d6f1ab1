package judgecheck

import (
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/extract"
	"github.com/paperlens/paperlens/eval/run"
)

// LPFQAKind marks what LPFQA prints as JSON.
const LPFQAKind = "judge-check-lpfqa"

// LPFQAAgreement is how an LPFQA run's judge agrees with letter extraction
// on the multiple-choice rows it judged (eval --bench lpfqa with
// --judge-model, whose --lpfqa-mcq judge default has the judge grade every
// row, multiple-choice ones included, as LPFQA §4 does).
type LPFQAAgreement struct {
	Kind       string `json:"kind"`
	Dir        string `json:"dir"`
	JudgeModel string `json:"judge_model"`
	// Extractor is the version of the extraction rules (eval/extract)
	// that read the letters.
	Extractor string `json:"extractor"`
	// N counts the judged multiple-choice records compared (every mode
	// and run); Agree those where the judge's verdict (score ≥ 0.5 is
	// right) equals extraction's (exactly the key's letters is right).
	N     int     `json:"n"`
	Agree int     `json:"agree"`
	Rate  float64 `json:"rate"`
	// Kappa is Cohen's κ of the two right/wrong verdicts; nil when
	// undefined (one of them always says the same).
	Kappa *float64 `json:"kappa"`
	// Confusion[judge][extraction]: index 0 right, 1 wrong.
	Confusion [2][2]int `json:"confusion"`
	// ExtractionMisses counts the compared records whose reply held no
	// letters (wrong for extraction, and in N).
	ExtractionMisses int `json:"extraction_misses"`
	// Left out: records whose judge reply had no readable score, and
	// records that ended in an error.
	JudgeUnreadable int `json:"judge_unreadable"`
	Errors          int `json:"errors"`
}

// LPFQA compares, on the LPFQA run folder dir, the judge's verdict on each
// multiple-choice record with the letters eval/extract reads from the
// same reply. data is where the run's dataset is now ("" finds it where
// config.json records it); it must be the file the run was made with.
func LPFQA(dir, data string) (LPFQAAgreement, error) {
	f, err := run.ReadFolder(dir, run.Paths{Data: data})
	if err != nil {
		return LPFQAAgreement{}, err
	}
	cfg := f.Config
	if cfg.Bench != "lpfqa" {
		return LPFQAAgreement{}, fmt.Errorf("--lpfqa %s: a run of %s, not LPFQA: give an eval --bench lpfqa run folder", dir, cfg.Bench)
	}
	if cfg.JudgeModel == "" {
		return LPFQAAgreement{}, fmt.Errorf("--lpfqa %s: the run had no judge, so its multiple-choice rows were only read for letters: evaluate with --judge-model NAME, or give it a judge with paperlens rescore %s --judge-model NAME", dir, dir)
	}
	if w := f.DataChanged(); w != "" {
		return LPFQAAgreement{}, fmt.Errorf("%s: the agreement needs the dataset the run was made with: restore it, or pass --lpfqa-data FILE", w)
	}
	qs, _, err := f.Questions()
	if err != nil {
		return LPFQAAgreement{}, fmt.Errorf("--lpfqa %s: %w", dir, err)
	}
	recs, err := run.Dir(dir).Records()
	if err != nil {
		return LPFQAAgreement{}, err
	}
	byID := make(map[string]bench.Question, len(qs))
	for _, q := range qs {
		byID[q.ID] = q
	}
	x := extract.Current()
	a := LPFQAAgreement{Kind: LPFQAKind, Dir: dir, JudgeModel: cfg.JudgeModel, Extractor: x.Version}
	for _, r := range recs {
		q, ok := byID[r.QuestionID]
		if !ok || r.ScoreKind != "judge" || len(q.MCQ.Options) < 2 || q.Type == "short" {
			continue
		}
		switch {
		case r.Error != "":
			a.Errors++
			continue
		case r.JudgeUnreadable:
			a.JudgeUnreadable++
			continue
		}
		reply := r.Output
		if strings.TrimSpace(reply) == "" && cfg.ExtractFromReasoning {
			reply = r.Reasoning
		}
		res := x.Extract(reply, q.MCQ.Letters(), q.MCQ.Options, q.Type == "MA-MCQ")
		if res.Miss {
			a.ExtractionMisses++
		}
		a.add(r.Correct, !res.Miss && res.Letters == q.Answer)
	}
	if a.N+a.Errors+a.JudgeUnreadable == 0 {
		return a, fmt.Errorf("--lpfqa %s: no multiple-choice row was judged (made with --lpfqa-mcq extract?): evaluate with --lpfqa-mcq judge, the default", dir)
	}
	a.Rate = ratio(a.Agree, a.N)
	t := [][]int{a.Confusion[0][:], a.Confusion[1][:]}
	if k, ok := Kappa(t); ok {
		a.Kappa = &k
	}
	return a, nil
}

// add counts one record's two verdicts.
func (a *LPFQAAgreement) add(judge, extraction bool) {
	a.N++
	if judge == extraction {
		a.Agree++
	}
	a.Confusion[wrong(judge)][wrong(extraction)]++
}

func wrong(right bool) int {
	if right {
		return 0
	}
	return 1
}
