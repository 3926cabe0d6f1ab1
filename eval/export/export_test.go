package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/export"
	"github.com/paperlens/paperlens/eval/retrieval"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/evidence"
)

const sample = "../../testdata/elaipbench/sample.jsonl"

// The fixture: a home with the sample's papers in 128-token passages,
// and two run folders on it: a model that reads its passages in four
// modes, twice, at a price (priced), and the random baseline
// closed-book once, without one (random).
var fixture struct {
	once           sync.Once
	err            error
	root, home     string
	priced, random string
	qs             []bench.Question
}

const k = 5

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.root != "" {
		os.RemoveAll(fixture.root)
	}
	os.Exit(code)
}

func setup(t *testing.T) {
	t.Helper()
	fixture.once.Do(func() { fixture.err = build() })
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
}

func build() error {
	qs, _, err := bench.LoadElaipBench(sample)
	if err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "paperlens-export-test-")
	if err != nil {
		return err
	}
	fixture.root, fixture.qs = root, qs
	fixture.home = filepath.Join(root, "home")
	srv := modeltest.Start(modeltest.Config{Answer: func(r modeltest.Request) (string, string) {
		p := r.Messages[len(r.Messages)-1].Content
		for _, q := range qs {
			if strings.Contains(p, q.MCQ.Stem) {
				first := strings.SplitN(q.Evidence, "\n", 2)[0]
				if strings.Contains(p, first[:min(40, len(first))]) {
					return "Answer: " + strings.Join(strings.Split(q.Answer, ""), ", "), "The passages say so."
				}
				return "Answer: A", ""
			}
		}
		return "", ""
	}})
	defer srv.Close()
	req := session.Request{
		Config: run.Config{Bench: "elaipbench", Data: sample, Home: fixture.home, Model: "reader", BaseURL: srv.BaseURL(), APIKeyEnv: "OPENAI_API_KEY",
			Modes: []string{"closed-book", "bm25", "dense", "oracle"}, Runs: 2, K: k, MaxPassageTokens: 128, Concurrency: 2,
			Out: filepath.Join(root, "priced"), Price: &run.Price{In: 2, Out: 8}},
		Clients: session.Clients{MaxAttempts: 2, AttemptTimeout: time.Minute},
		Env:     map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""},
	}
	res, _, err := session.Eval(context.Background(), req)
	if err != nil {
		return err
	}
	fixture.priced = res.Dir
	req.Config.Model, req.Config.Modes, req.Config.Runs, req.Config.Price, req.Config.Seed = "random", []string{"closed-book"}, 1, nil, 3
	req.Config.Out = filepath.Join(root, "random")
	if res, _, err = session.Eval(context.Background(), req); err != nil {
		return err
	}
	fixture.random = res.Dir
	return nil
}

func records(t *testing.T, dirs ...string) []run.Record {
	t.Helper()
	var out []run.Record
	for _, d := range dirs {
		recs, err := run.Dir(d).Records()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, recs...)
	}
	return out
}

func python(t *testing.T, script string, args ...string) []byte {
	t.Helper()
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skipf("no %s to read the export with: %v", py, err)
	}
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	return out
}

func writeExport(t *testing.T, name string, f export.Format, dirs []string, opt export.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	files, err := export.WriteFiles(path, f, dirs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != path {
		t.Fatalf("wrote %v, want %s alone", files, path)
	}
	return path
}

// trecScorer scores a TREC run file against qrels as trec_eval -c does
// (its m_recall.c, m_success.c, m_recip_rank.c and form_res_rels.c),
// written afresh in Python so that it shares no code with paperlens:
// each question of the qrels counts, a question missing from the run
// retrieved nothing; a question's lines are ranked by score, ties by
// passage id descending; rel ≥ 1 is relevant; recall_k is the relevant
// passages in the top k over the question's relevant ones (0 without
// any), success_k whether the top k hold one, recip_rank 1 / the rank
// of the first. It prints the means and the number of questions.
const trecScorer = `
import collections, json, sys
qrels, runfile, ks = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(",")]
rel = collections.OrderedDict()
for line in open(qrels):
    f = line.split()
    if f:
        q, _, d, r = f
        rel.setdefault(q, {})[d] = int(r)
ranked = collections.defaultdict(list)
for line in open(runfile):
    f = line.split()
    if f:
        q, _, d, rank, score, tag = f
        ranked[q].append((float(score), d))
sums = collections.Counter()
for q, judged in rel.items():
    docs = [d for s, d in sorted(ranked.get(q, []), reverse=True)]
    good = [judged.get(d, 0) >= 1 for d in docs]
    nrel = sum(1 for r in judged.values() if r >= 1)
    for k in ks:
        found = sum(good[:k])
        sums["recall_%d" % k] += found / nrel if nrel else 0.0
        sums["success_%d" % k] += 1.0 if found else 0.0
    sums["recip_rank"] += next((1.0 / (i + 1) for i, g in enumerate(good) if g), 0.0)
out = {m: v / len(rel) for m, v in sums.items()}
out["num_q"] = len(rel)
print(json.dumps(out))
`

// (a) A trec export of a run folder's retrieval and a qrels export of its
// questions, scored by a scorer that is not paperlens's (the Python
// above, and trec_eval itself when installed), give exactly what eval
// retrieval reports for the same retriever and k: passage_recall@k,
// hit@k and mrr over the same questions. recall@k, the gold words
// covered, is a different measure, reported for the record.
func TestTRECExportScoresAsEvalRetrieval(t *testing.T) {
	setup(t)
	qrels := writeExport(t, "gold.qrels", export.Qrels, []string{fixture.priced}, export.Options{})
	sum, err := session.ScoreRetrieval(context.Background(), session.Retrieval{Home: fixture.home}, fixture.qs,
		retrieval.Config{Retrievers: []string{"bm25", "dense"}, Forms: []retrieve.QueryForm{retrieve.FormFull}, Ks: []int{1, 3, k}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"bm25", "dense"} {
		runFile := writeExport(t, m+".trec", export.TREC, []string{fixture.priced}, export.Options{Modes: []string{m}})
		var got map[string]float64
		if err := json.Unmarshal(python(t, trecScorer, qrels, runFile, "1,3,5"), &got); err != nil {
			t.Fatal(err)
		}
		want := sum.Retrievers[m+"+full"]
		t.Logf("%s: scorer %v; eval retrieval %v", m, got, want)
		if int(got["num_q"]) != sum.N || sum.N == 0 {
			t.Errorf("%s: the scorer averaged over %v questions, eval retrieval over %d", m, got["num_q"], sum.N)
		}
		for _, kk := range []int{1, 3, k} {
			pairs := [][2]string{{fmt.Sprintf("recall_%d", kk), fmt.Sprintf("passage_recall@%d", kk)}, {fmt.Sprintf("success_%d", kk), fmt.Sprintf("hit@%d", kk)}}
			for _, p := range pairs {
				if math.Abs(got[p[0]]-want[p[1]]) > 1e-12 {
					t.Errorf("%s: %s = %.6f, eval retrieval's %s = %.6f", m, p[0], got[p[0]], p[1], want[p[1]])
				}
			}
		}
		if math.Abs(got["recip_rank"]-want["mrr"]) > 1e-12 {
			t.Errorf("%s: recip_rank = %.6f, eval retrieval's mrr = %.6f", m, got["recip_rank"], want["mrr"])
		}
		if r := got["recall_5"]; r <= got["recall_1"] || r >= 1 {
			t.Errorf("%s: recall_1 %.3f, recall_5 %.3f: the sample no longer separates them", m, got["recall_1"], r)
		}
		trecEval(t, qrels, runFile, want)
	}
}

// trecEval checks trec_eval's own figures (4 decimals), when installed.
func trecEval(t *testing.T, qrels, runFile string, want map[string]float64) {
	bin, err := exec.LookPath("trec_eval")
	if err != nil {
		t.Log("trec_eval is not installed: checked against the Python scorer alone")
		return
	}
	out, err := exec.Command(bin, "-c", "-m", "recall.1,3,5", "-m", "success.1,3,5", "-m", "recip_rank", qrels, runFile).Output()
	if err != nil {
		t.Fatalf("trec_eval: %v", err)
	}
	names := map[string]string{"recall_1": "passage_recall@1", "recall_3": "passage_recall@3", "recall_5": "passage_recall@5",
		"success_1": "hit@1", "success_3": "hit@3", "success_5": "hit@5", "recip_rank": "mrr"}
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || names[f[0]] == "" {
			continue
		}
		seen++
		var v float64
		fmt.Sscan(f[2], &v)
		if math.Abs(v-want[names[f[0]]]) > 5e-5 {
			t.Errorf("trec_eval %s = %s, eval retrieval %s = %.5f", f[0], f[2], names[f[0]], want[names[f[0]]])
		}
	}
	if seen != len(names) {
		t.Errorf("trec_eval printed %d of the %d measures:\n%s", seen, len(names), out)
	}
}

// (b) The CSV export of two folders reads with Python's csv module: one
// row per record, the folders told apart, cost where the run had a price
// (summing to summary.json's cost_usd) and none where it had not.
func TestCSVReadsInPython(t *testing.T) {
	setup(t)
	path := writeExport(t, "runs.csv", export.CSV, []string{fixture.priced, fixture.random}, export.Options{})
	out := python(t, `
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
folders = {}
for r in rows:
    f = folders.setdefault(r["run_folder"], {"rows": 0, "cost": 0.0, "no_cost": 0, "correct": 0, "tokens": 0})
    f["rows"] += 1
    f["correct"] += r["correct"] == "true"
    f["tokens"] += int(r["prompt_tokens"]) + int(r["completion_tokens"])
    if r["cost_usd"] == "":
        f["no_cost"] += 1
    else:
        f["cost"] += float(r["cost_usd"])
print(json.dumps({"columns": list(rows[0].keys()), "folders": folders}))
`, path)
	var got struct {
		Columns []string
		Folders map[string]struct {
			Rows    int     `json:"rows"`
			NoCost  int     `json:"no_cost"`
			Correct int     `json:"correct"`
			Tokens  int     `json:"tokens"`
			Cost    float64 `json:"cost"`
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if want := "run_folder question_id question_type paper_id mode run model paradigm extracted gold correct score score_kind error prompt_tokens completion_tokens reasoning_tokens cached_tokens cost_usd latency_ms"; strings.Join(got.Columns, " ") != want {
		t.Errorf("columns %v", got.Columns)
	}
	for _, d := range []string{fixture.priced, fixture.random} {
		recs := records(t, d)
		f := got.Folders[d]
		correct, tokens := 0, 0
		for _, r := range recs {
			if r.Correct {
				correct++
			}
			tokens += r.Usage.PromptTokens + r.Usage.CompletionTokens
		}
		if f.Rows != len(recs) || f.Correct != correct || f.Tokens != tokens {
			t.Errorf("%s: %d rows, %d correct, %d tokens; the folder has %d records, %d correct, %d tokens", d, f.Rows, f.Correct, f.Tokens, len(recs), correct, tokens)
		}
		s, err := run.Dir(d).ReadSummary()
		if err != nil {
			t.Fatal(err)
		}
		cost := 0.0
		for _, m := range s.ByMode {
			if m.CostUSD != nil {
				cost += *m.CostUSD
			}
		}
		if d == fixture.priced && (f.NoCost != 0 || cost == 0 || math.Abs(f.Cost-cost) > 1e-9) {
			t.Errorf("%s: cost %.6f over the rows (%d without), summary.json %.6f", d, f.Cost, f.NoCost, cost)
		}
		if d == fixture.random && (f.NoCost != len(recs) || f.Cost != 0) {
			t.Errorf("%s, which had no price: %d rows without cost of %d, cost %v", d, f.NoCost, len(recs), f.Cost)
		}
	}
	if len(got.Folders) != 2 {
		t.Errorf("run folders in the rows: %v", got.Folders)
	}
}

// (c) The Parquet export reads back with parquet-go: one row per record,
// each the record's, an absent cost or score read back as null.
func TestParquetRoundTrips(t *testing.T) {
	setup(t)
	var b bytes.Buffer
	if err := export.Write(&b, export.Parquet, []string{fixture.priced, fixture.random}, export.Options{}); err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[export.Row](bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		dir, q, mode string
		run          int
	}
	byKey := map[key]run.Record{}
	for _, d := range []string{fixture.priced, fixture.random} {
		for _, r := range records(t, d) {
			byKey[key{d, r.QuestionID, r.Mode, r.Run}] = r
		}
	}
	if len(rows) != len(byKey) {
		t.Fatalf("%d rows, %d records", len(rows), len(byKey))
	}
	for _, row := range rows {
		r, ok := byKey[key{row.RunFolder, row.QuestionID, row.Mode, row.Run}]
		if !ok {
			t.Fatalf("row of no record: %+v", row)
		}
		delete(byKey, key{row.RunFolder, row.QuestionID, row.Mode, row.Run})
		if row.Correct != r.Correct || row.Extracted != r.Extracted || row.Gold != r.Gold || row.PromptTokens != r.Usage.PromptTokens ||
			row.CompletionTokens != r.Usage.CompletionTokens || row.LatencyMS != r.LatencyMS || row.QuestionType != r.QuestionType ||
			row.Model != r.Model || row.Score != nil || (row.CostUSD == nil) != (row.RunFolder == fixture.random) {
			t.Errorf("row %+v of record %+v", row, r)
		}
	}
}

// The JSONL export carries, for each record, the question and the texts
// of its passages under paperlens's names and RAGAS's: the texts are the
// ones the run used (their gold coverage is the record's evidence
// recall), an oracle prompt's context is the gold evidence.
func TestJSONLHoldsTheContexts(t *testing.T) {
	setup(t)
	var b bytes.Buffer
	if err := export.Write(&b, export.JSONL, []string{fixture.priced}, export.Options{}); err != nil {
		t.Fatal(err)
	}
	byID := map[string]bench.Question{}
	for _, q := range fixture.qs {
		byID[q.ID] = q
	}
	recs := map[string]run.Record{}
	for _, r := range records(t, fixture.priced) {
		recs[fmt.Sprint(r.QuestionID, r.Mode, r.Run)] = r
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != len(recs) {
		t.Fatalf("%d lines, %d records", len(lines), len(recs))
	}
	for _, line := range lines {
		var l export.Line
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		q, r := byID[l.QuestionID], recs[fmt.Sprint(l.QuestionID, l.Mode, l.Run)]
		if l.UserInput != q.Text || l.Question != q.Text || l.Reference != q.Answer || l.Response != r.Output || l.Output != r.Output ||
			l.Evidence != q.Evidence || len(l.Options) != len(q.MCQ.Options) || len(l.ReferenceContexts) == 0 {
			t.Fatalf("line %s [%s]: %+v", l.QuestionID, l.Mode, l)
		}
		switch l.Mode {
		case "bm25", "dense":
			if len(l.Context) != k || len(l.RetrievedContexts) != k {
				t.Fatalf("%s [%s]: %d passages, %d texts", l.QuestionID, l.Mode, len(l.Context), len(l.RetrievedContexts))
			}
			for i, c := range l.Context {
				if c.Text == "" || c.Text != l.RetrievedContexts[i] || c.PassageID != r.Context[i].PassageID || c.Score != r.Context[i].Score {
					t.Fatalf("%s [%s] passage %d: %+v, record %+v", l.QuestionID, l.Mode, i, c, r.Context[i])
				}
			}
			g := evidence.ParseGold(q.Evidence, evidence.Options{})
			if rec := g.Score(l.RetrievedContexts).RecallAt(k); r.Recall == nil || rec != *r.Recall {
				t.Errorf("%s [%s]: the texts cover %.3f of the gold, the record says %v", l.QuestionID, l.Mode, rec, r.Recall)
			}
		case "oracle":
			if len(l.RetrievedContexts) != 1 || l.RetrievedContexts[0] != q.Evidence {
				t.Errorf("%s [oracle]: contexts %q", l.QuestionID, l.RetrievedContexts)
			}
		case "closed-book":
			if len(l.RetrievedContexts) != 0 {
				t.Errorf("%s [closed-book]: contexts %q", l.QuestionID, l.RetrievedContexts)
			}
		}
	}
}

// A trec file holds one run: several are refused by Write, naming them,
// and written one file each by WriteFiles; a mode the folders lack is
// refused, naming those they hold; qrels of two folders on the same
// questions judge each question once.
func TestTRECRunsAndErrors(t *testing.T) {
	setup(t)
	dirs := []string{fixture.priced, fixture.random}
	runs, err := export.TRECRuns(dirs, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(runs); got != fmt.Sprintf("[{%s bm25 priced/bm25} {%s dense priced/dense}]", fixture.priced, fixture.priced) {
		t.Errorf("runs %s", got)
	}
	var b bytes.Buffer
	if err := export.Write(&b, export.TREC, dirs, export.Options{}); err == nil ||
		!strings.Contains(err.Error(), "2 retrieval runs (priced/bm25, priced/dense), and trec_eval scores one run per file: keep one with --mode, or give --out FILE") {
		t.Errorf("two runs to one writer: %v", err)
	}
	if err := export.Write(&b, export.TREC, []string{fixture.random}, export.Options{}); err == nil || !strings.Contains(err.Error(), "no retrieval to export as a TREC run") {
		t.Errorf("no retrieval: %v", err)
	}
	out := filepath.Join(t.TempDir(), "runs.trec")
	files, err := export.WriteFiles(out, export.TREC, []string{fixture.priced}, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(out)
	if fmt.Sprint(files) != fmt.Sprintf("[%s %s]", filepath.Join(dir, "runs.bm25.trec"), filepath.Join(dir, "runs.dense.trec")) {
		t.Errorf("files %v", files)
	}
	for _, f := range files {
		text, _ := os.ReadFile(f)
		lines := strings.Split(strings.TrimSpace(string(text)), "\n")
		mode := strings.Split(filepath.Base(f), ".")[1]
		if len(lines) != k*len(fixture.qs) || !strings.HasSuffix(lines[0], " "+mode) {
			t.Errorf("%s: %d lines (want %d), first %q", f, len(lines), k*len(fixture.qs), lines[0])
		}
	}
	if _, err := export.TRECRuns(dirs, export.Options{Modes: []string{"hybrid"}}); err == nil ||
		!strings.Contains(err.Error(), "--mode hybrid: no record of that mode in") || !strings.Contains(err.Error(), "the folders hold closed-book, bm25, dense, oracle") {
		t.Errorf("a mode the folders lack: %v", err)
	}
	var one, two bytes.Buffer
	if err := export.Write(&one, export.Qrels, dirs[:1], export.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := export.Write(&two, export.Qrels, dirs, export.Options{}); err != nil {
		t.Fatal(err)
	}
	if one.String() != two.String() || one.Len() == 0 {
		t.Errorf("qrels of one folder (%d bytes) and of two on the same questions (%d bytes) differ", one.Len(), two.Len())
	}
	// The sample's evidence is verbatim, so a passage holds a gold
	// sentence whole or hardly at all: a lax threshold counts more gold
	// passages.
	var lax bytes.Buffer
	if err := export.Write(&lax, export.Qrels, dirs[:1], export.Options{Evidence: evidence.Options{Threshold: 0.1}}); err != nil {
		t.Fatal(err)
	}
	if n, m := strings.Count(one.String(), " 1\n"), strings.Count(lax.String(), " 1\n"); m <= n || n == 0 {
		t.Errorf("gold passages: %d at threshold 0.6, %d at 0.1", n, m)
	}
	if _, err := export.ParseFormat("xlsx"); err == nil || !strings.Contains(err.Error(), "use csv, parquet, jsonl, trec or qrels") {
		t.Errorf("ParseFormat(xlsx): %v", err)
	}
}

// What jsonl and qrels take from outside the run folder must still be
// there: a dataset without the folder's questions is refused, naming the
// question and the file.
func TestExportNamesWhatIsMissing(t *testing.T) {
	setup(t)
	dir := filepath.Join(t.TempDir(), "copy")
	os.MkdirAll(dir, 0o755)
	for _, name := range []string{"config.json", run.ResultsFile} {
		b, err := os.ReadFile(filepath.Join(fixture.random, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	cfg, _ := run.Dir(dir).ReadConfig()
	// A dataset of the first row alone.
	first, _ := os.ReadFile(sample)
	short := filepath.Join(t.TempDir(), "short.jsonl")
	os.WriteFile(short, []byte(strings.SplitN(string(first), "\n", 2)[0]+"\n"), 0o644)
	cfg.Data = short
	b, _ := json.Marshal(cfg)
	os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644)
	var log bytes.Buffer
	err := export.Write(&bytes.Buffer{}, export.JSONL, []string{dir}, export.Options{Log: &log})
	if err == nil || !strings.Contains(err.Error(), "is not in its dataset "+short+": restore the dataset the run was made on") {
		t.Errorf("a question the dataset lacks: %v", err)
	}
	if !strings.Contains(log.String(), "changed since the run") {
		t.Errorf("no note of the changed dataset: %q", log.String())
	}
}
