package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/mcq"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

var sampleData = filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")

// composeFile runs paperlens compose on the sample with args and returns
// the file's rows and bytes.
func composeFile(t *testing.T, args ...string) ([]compose.Row, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "composed.jsonl")
	_, stderr, code := paperlens(t, append([]string{"compose", "--data", sampleData, "--out", out}, args...)...)
	if code != 0 || !strings.Contains(stderr, "wrote "+out) {
		t.Fatalf("compose %v: exit %d\n%s", args, code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rows []compose.Row
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var r compose.Row
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows, b
}

// The same seed gives the same file, byte for byte, and another seed
// another; every question has exactly one option whose statements all
// have the truth it asks for (the statements' truths read from the file,
// and checked against the sample's answer keys), and it is the answer.
func TestComposeCommand(t *testing.T) {
	t.Parallel()
	rows, a := composeFile(t, "--seed", "7")
	_, b := composeFile(t, "--seed", "7")
	if !bytes.Equal(a, b) {
		t.Fatal("--seed 7 twice wrote two different files")
	}
	if _, c := composeFile(t, "--seed", "8"); bytes.Equal(a, c) {
		t.Fatal("--seed 7 and --seed 8 wrote the same file")
	}
	src, _, err := bench.LoadElaipBench(sampleData)
	if err != nil {
		t.Fatal(err)
	}
	key := map[string]string{}
	for _, q := range src {
		key[q.ID] = q.Answer
	}
	if len(rows) != len(src) {
		t.Errorf("%d questions composed, want one per sample question (%d)", len(rows), len(src))
	}
	for _, r := range rows {
		truth := map[string]bool{}
		for _, u := range r.Compose.Statements {
			truth[u.Numeral] = u.True
			if strings.Contains(key[u.Source], u.Letter) != u.True {
				t.Errorf("%s: statement %s (option %s of %s) recorded %v against the key %q", r.ID, u.Numeral, u.Letter, u.Source, u.True, key[u.Source])
			}
		}
		var right []string
		for i, opt := range r.Compose.Options {
			all := true
			for _, n := range opt {
				all = all && truth[n] == (r.Compose.Accuracy == compose.Correct)
			}
			if all {
				right = append(right, string(rune('A'+i)))
			}
		}
		if len(right) != 1 || right[0] != r.Answer {
			t.Errorf("%s asks for the %s ones: options %v qualify, answer %s", r.ID, r.Compose.Accuracy, right, r.Answer)
		}
	}
}

// A shape no paper can give writes nothing and exits 2, naming each
// paper and what it lacks.
func TestComposeNothingExits2(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "never.jsonl")
	_, stderr, code := paperlens(t, "compose", "--data", sampleData, "--statements", "40", "--out", out)
	if code != 2 || !strings.Contains(stderr, "paperlens: compose "+sampleData+": no question could be composed") ||
		!strings.Contains(stderr, "paper tidal-token-pruning skipped: it has 32 statements (the options of its 8 multiple-choice question(s)) and a question needs at least 40 (--statements 40)") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a file was written")
	}
	stdout, _, code := paperlens(t, "compose", "--help")
	for _, want := range []string{"Encyclo-K", "A.3", "I. In answer to", "paperlens compose --data testdata/elaipbench/sample.jsonl", "--per-option MIN-MAX", "(default 2-4)"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("compose --help lacks %q", want)
		}
	}
}

// passageMark opens a passage in the RAG prompt templates.
var passageMark = regexp.MustCompile(`\n\[[0-9]+\] \(passage [^)\n]*\)\n`)

// known says whether a statement's evidence (its lines of the question's
// evidence) is complete in the context parts, by the evidence package's
// rule: each gold sentence within one part. A statement without usable
// evidence is never known.
func known(row compose.Row, u compose.Used, parts []string) bool {
	lines := strings.Split(row.Evidence, "\n")
	var ev []string
	for _, i := range u.Evidence {
		ev = append(ev, lines[i])
	}
	g := evidence.ParseGold(strings.Join(ev, "\n"), evidence.Options{})
	return !g.Empty() && g.Score(parts).CompleteAt(len(parts)) == 1
}

// keyKnown says whether the gold evidence of every statement of the
// row's answer is complete in the context parts: the evidence of the
// source question the statement came from (sources, by id), read from
// the source file, not from the composed row.
func keyKnown(row compose.Row, sources map[string]string, parts []string) bool {
	byNumeral := map[string]compose.Used{}
	for _, u := range row.Compose.Statements {
		byNumeral[u.Numeral] = u
	}
	for _, n := range row.Compose.Options[row.Answer[0]-'A'] {
		g := evidence.ParseGold(sources[byNumeral[n].Source], evidence.Options{})
		if g.Empty() || g.Score(parts).CompleteAt(len(parts)) != 1 {
			return false
		}
	}
	return true
}

// composedReader stands in for a model that reads a composed question as
// the evidence lets it: it judges a statement only when the statement's
// evidence is in its context, and answers the option whose statements it
// judged all of the truth the question asks for; with no such option, a
// letter that is surely wrong. So it is right exactly when the answer's
// statements' evidence is all in the prompt.
func composedReader(rows []compose.Row) func(modeltest.Request) (string, string) {
	return func(r modeltest.Request) (string, string) {
		p := r.Messages[len(r.Messages)-1].Content
		for _, row := range rows {
			stem := mcq.Parse(row.Question).Stem
			if !strings.Contains(p, stem) {
				continue
			}
			// Only the context counts: the statements quote the options.
			parts := passageMark.Split(strings.Replace(p, stem, "", 1), -1)
			byNumeral := map[string]compose.Used{}
			for _, u := range row.Compose.Statements {
				byNumeral[u.Numeral] = u
			}
			for i, opt := range row.Compose.Options {
				all := true
				for _, n := range opt {
					u := byNumeral[n]
					all = all && known(row, u, parts) && u.True == (row.Compose.Accuracy == compose.Correct)
				}
				if all {
					return "Answer: " + string(rune('A'+i)), ""
				}
			}
			if row.Answer == "A" {
				return "Answer: B", ""
			}
			return "Answer: A", ""
		}
		return "OK", "" // the preflight
	}
}

// The acceptance of issue 26 on the sample: eval runs the composed file
// in every mode, and under the evidence-reading stand-in its accuracy is
// the share of questions whose answer's statements have their evidence
// all in the context, computed here from each record's context (the
// passages it names, the paper, the gold evidence) and the evidence of
// the sample questions the statements came from, apart from the prompts
// and composed rows the reader saw.
func TestComposedEvalUnderEvidenceReader(t *testing.T) {
	t.Parallel()
	rows, file := composeFile(t, "--seed", "5")
	byID := map[string]compose.Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	data := filepath.Join(t.TempDir(), "composed.jsonl")
	if err := os.WriteFile(data, file, 0o644); err != nil {
		t.Fatal(err)
	}
	src, _, err := bench.LoadElaipBench(sampleData)
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, q := range src {
		sources[q.ID] = q.Evidence
	}
	srv := modeltest.NewServer(t, modeltest.Config{Answer: composedReader(rows)})
	home, out := t.TempDir(), filepath.Join(t.TempDir(), "run")
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "reader", "--base-url", srv.BaseURL(),
		"--mode", "closed-book,full,bm25,oracle", "--runs", "1", "--concurrency", "2", "--home", home, "--out", out)
	if code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	passages := map[string]string{}
	for _, r := range rows {
		ps, err := st.Passages(r.PaperID)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			passages[p.PassageID] = p.Text
		}
	}
	right, n := map[string]int{}, map[string]int{}
	for _, rec := range readRecords(t, out) {
		row := byID[rec.QuestionID]
		want := keyKnown(row, sources, recordContext(t, st, passages, row, rec))
		if rec.Correct != want || rec.Error != "" {
			t.Errorf("%s %s: correct %v (%s), but the answer's evidence in its context: %v", rec.Mode, rec.QuestionID, rec.Correct, rec.Error, want)
		}
		n[rec.Mode]++
		if want {
			right[rec.Mode]++
		}
	}
	sum, err := run.Dir(out).ReadSummary()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"closed-book", "full", "bm25", "oracle"} {
		share := float64(right[m]) / float64(n[m])
		acc := sum.ByMode[m].Accuracy
		t.Logf("%s: accuracy %.3f, answer's evidence in context %d of %d", m, acc, right[m], n[m])
		if n[m] != len(rows) || acc != share {
			t.Errorf("%s: accuracy %.3f over %d records, the share with the answer's evidence in context %.3f", m, acc, n[m], share)
		}
	}
	// The comparison discriminates: retrieval finds the evidence of some
	// answers and not of others; the paper and the gold evidence hold
	// every answer's, the question alone none.
	if b := sum.ByMode["bm25"].Accuracy; b == 0 || b == 1 || right["closed-book"] != 0 || right["full"] != len(rows) || right["oracle"] != len(rows) {
		t.Errorf("bm25 %.3f, closed-book %d, full %d, oracle %d of %d", b, right["closed-book"], right["full"], right["oracle"], len(rows))
	}
	if r := sum.ByMode["bm25"].EvidenceRecall; r == nil || *r <= 0 || *r >= 1 {
		t.Errorf("bm25 evidence recall %v: the union of the statements' evidence is scored", r)
	}
}

// recordContext is the context a record says its question got, as texts:
// none (closed-book), the paper (full), the passages it names (bm25), the
// gold evidence (oracle).
func recordContext(t *testing.T, st *corpus.Store, passages map[string]string, row compose.Row, rec run.Record) []string {
	t.Helper()
	var parts []string
	switch rec.Mode {
	case "full":
		text, err := st.Text(rec.PaperID)
		if err != nil || rec.TruncatedTokens > 0 {
			t.Fatalf("%s: paper %v, cut by %d tokens", rec.QuestionID, err, rec.TruncatedTokens)
		}
		parts = []string{text}
	case "bm25":
		for _, c := range rec.Context {
			parts = append(parts, passages[c.PassageID])
		}
	case "oracle":
		parts = []string{row.Evidence}
	}
	return parts
}

// eval --compose draws each run's questions afresh from --seed + r,
// records the composition in config.json, and the summary gives accuracy
// by statements and options.
func TestEvalCompose(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "run")
	stdout, stderr, code := paperlens(t, "eval", "--data", sampleData, "--model", "random", "--mode", "closed-book", "--runs", "2",
		"--seed", "4", "--compose", "questions=6,options=4-5", "--home", t.TempDir(), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"# random on elaipbench (base paradigm, 2 run(s), 6 questions)", "## Accuracy (%) by statements", "## Accuracy (%) by options\n\n| mode | 4 | 5 |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	cfg, err := run.Dir(out).ReadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Compose; c == nil || c.Seed != 4 || len(c.RunSeeds) != 2 || c.RunSeeds[0] != 5 || c.RunSeeds[1] != 6 || c.Questions != 6 || c.Options.String() != "4-5" {
		t.Fatalf("config.json compose %+v", cfg.Compose)
	}
	ids := map[int]map[string]bool{1: {}, 2: {}}
	for _, r := range readRecords(t, out) {
		ids[r.Run][r.QuestionID] = true
	}
	for r, want := range map[int]string{1: "c5-", 2: "c6-"} {
		for id := range ids[r] {
			if !strings.HasPrefix(id, want) {
				t.Errorf("run %d asked %s, a question of another run's seed", r, id)
			}
		}
		if len(ids[r]) != 6 {
			t.Errorf("run %d asked %d questions, want 6", r, len(ids[r]))
		}
	}
	if _, stderr, code := paperlens(t, "eval", "--data", sampleData, "--model", "random", "--compose", "options=4-5,limit=3", "--out", t.TempDir()); code != 2 ||
		!strings.Contains(stderr, `unknown key "limit"`) {
		t.Errorf("bad --compose: exit %d %s", code, stderr)
	}
}
