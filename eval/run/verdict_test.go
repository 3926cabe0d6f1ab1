package run

import (
	"context"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/model"
)

// refJudgeScore is the regular expression parseVerdict replaces.
var refJudgeScore = regexp.MustCompile(`"?answer_score"?\s*[:：]\s*"?(-?[0-9]+(?:\.[0-9]+)?)`)

func refLastScore(s string) (string, bool) {
	m := refJudgeScore.FindAllStringSubmatch(s, -1)
	if len(m) == 0 {
		return "", false
	}
	return m[len(m)-1][1], true
}

// verdictCases are judge replies: the prompt's format, the forms around
// it, an example restated before the verdict, near misses.
var verdictCases = []struct {
	reply string
	want  float64
	ok    bool
}{
	{`{"answer_score": 1}`, 1, true},
	{"Grading Basis: the path differs.\nScore: 0\nJSON:\n{\"answer_score\": 0}", 0, true},
	{`Reasoning... {"answer_score": 1}`, 1, true},
	{`The example gave {"answer_score": 0}; here all points are met. {"answer_score": 1}`, 1, true},
	{`{"answer_score": 1} wait, point 2 fails: {"answer_score": 0}`, 0, true},
	{`answer_score：1`, 1, true},
	{`"answer_score" : "0.5"`, 0.5, true},
	{"answer_score:\n\t 1", 1, true},
	{`answer_score: -1`, -1, true},
	{`answer_score: 1.`, 1, true},
	{`answer_score: .5`, 0, false},
	{`answer_score = 1`, 0, false},
	{`{"answer_score": "one"}`, 0, false},
	{`{"answer_score": 1} then answer_score: x`, 1, true},
	{`ANSWER_SCORE: 1`, 0, false},
	{``, 0, false},
	{`{"answer_score": ` + strings.Repeat("9", 400) + `}`, 0, false},
	{`{"answer_score": 1}{"answer_score": ` + strings.Repeat("9", 400) + `}`, 0, false},
}

func TestParseVerdict(t *testing.T) {
	for _, c := range verdictCases {
		got, ok := parseVerdict(c.reply)
		if ok != c.ok || got != c.want {
			t.Errorf("parseVerdict(%.80q) = %v, %v; want %v, %v", c.reply, got, ok, c.want, c.ok)
		}
		checkVerdict(t, c.reply)
	}
}

// TestRunSurvivesHugeScore runs LPFQA with a judge whose verdict is a run
// of 400 nines. Read as a float that is +Inf, which encoding/json refuses:
// the record could not be written and the whole run stopped. It is now an
// unreadable verdict, like one without a score.
func TestRunSurvivesHugeScore(t *testing.T) {
	qs, _, err := bench.LoadLPFQA(filepath.Join("..", "bench", "testdata", "lpfqa-sample.json"), bench.DefaultFieldMap())
	if err != nil {
		t.Fatal(err)
	}
	chat := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		return model.Response{Content: "The answer is A."}, nil
	})
	judge := model.ChatFunc(func(context.Context, model.Request) (model.Response, error) {
		return model.Response{Content: `{"answer_score": ` + strings.Repeat("9", 400) + `}`}, nil
	})
	cfg := Config{Bench: "lpfqa", Data: "lpfqa-sample.json", Model: "m", JudgeModel: "j", Runs: 1, Concurrency: 1, Out: t.TempDir()}
	cfg.Defaults(nil)
	res, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Judge: judge, Questions: qs})
	if err != nil {
		t.Fatalf("run stopped: %v", err)
	}
	cb := res.Summary.ByMode[ClosedBook]
	if cb.N != len(qs) || cb.JudgeUnreadable != len(qs) || cb.Accuracy != 0 {
		t.Fatalf("got %d rows, %d unreadable, accuracy %v; want %d, %d, 0", cb.N, cb.JudgeUnreadable, cb.Accuracy, len(qs), len(qs))
	}
}

// checkVerdict compares lastScore with the regular expression, and checks
// that an accepted score is a finite number.
func checkVerdict(t *testing.T, reply string) {
	t.Helper()
	got, gotOK := lastScore(reply)
	want, wantOK := refLastScore(reply)
	if got != want || gotOK != wantOK {
		t.Fatalf("lastScore(%.200q) = %q, %v; the regexp gives %q, %v", reply, got, gotOK, want, wantOK)
	}
	if v, ok := parseVerdict(reply); ok && (math.IsInf(v, 0) || math.IsNaN(v)) {
		t.Fatalf("parseVerdict(%.200q) = %v", reply, v)
	}
}

// FuzzParseVerdict checks parseVerdict on any judge reply: the number the
// regular expression it replaces finds, and a finite score.
//
//	go test -run '^$' -fuzz '^FuzzParseVerdict$' -fuzztime 30s ./eval/run/
func FuzzParseVerdict(f *testing.F) {
	for _, c := range verdictCases {
		f.Add(c.reply)
	}
	f.Add(strings.Repeat(`"answer_score" :`, 50) + "1")
	f.Add(strings.Repeat("answer_score", 100))
	f.Fuzz(func(t *testing.T, reply string) {
		checkVerdict(t, reply)
	})
}

// BenchmarkParseVerdict reads the verdict at the end of a 4 MiB judge
// reply that restates the prompt's example and key many times:
//
//	go test -run '^$' -bench 'ParseVerdict' ./eval/run/
//
// and of one that never gives a verdict, where every key is looked at
// (the regexp this replaced took 130 ms on either).
func BenchmarkParseVerdict(b *testing.B) {
	for _, tail := range []struct {
		name, text string
		ok         bool
	}{{"verdict", `{"answer_score": 1}`, true}, {"none", "no verdict", false}} {
		for _, n := range []struct {
			name string
			n    int
		}{{"4KiB", 4 << 10}, {"4MiB", 4 << 20}} {
			var sb strings.Builder
			for sb.Len() < n.n {
				sb.WriteString(`Checking point 2 against the example {"answer_score" 0}: answer_score is not yet decided; 答案得分：未定。` + "\n")
			}
			sb.WriteString(tail.text)
			reply := sb.String()
			b.Run(tail.name+"/"+n.name, func(b *testing.B) {
				b.SetBytes(int64(len(reply)))
				for b.Loop() {
					if _, ok := parseVerdict(reply); ok != tail.ok {
						b.Fatalf("ok %v", ok)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
			})
		}
	}
}
