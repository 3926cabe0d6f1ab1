package inspector

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/assemble"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// BenchmarkPages checks the acceptance item "pages for a run of 1,000
// questions × 8 modes load in under 300 ms each". It builds one synthetic
// but realistic run (100 papers × 40 passages of ~350 words in a real
// corpus, 1,000 JSONL questions whose evidence is copied from their paper,
// 8 modes × 1 run = 8,000 records, summary.json written) and times full
// round trips through Site.Handler for each kind of page, and Load itself.
//
// Each sub-benchmark reports
//
//	ms/page       mean time of one round trip (ms/load for Load)
//	budget-share  ms/page / 300 ms: under 1 meets the acceptance item (not
//	              reported for Load, which runs once at start, not per page)
//	x-json-ref    ms/page / the time encoding/json takes to encode the same
//	              page's underlying data (for Load: to read and decode
//	              results.jsonl), measured in the same process just before
//	              the timed loop; it tells whether a slow page is slow for
//	              its data or for its code
//	ref-ms        that reference time
//
// Run it with
//
//	go test -bench Pages -run '^$' -benchtime 20x ./eval/inspector/
//
// The run is built once per invocation of BenchmarkPages (each -count), in
// the parent benchmark, outside every timer.
func BenchmarkPages(b *testing.B) {
	t0 := time.Now()
	br := buildBenchRun(b, b.TempDir())
	site, err := Load([]string{br.dir}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if r := site.Run("1"); r == nil || len(r.Questions) != benchQuestions || len(r.Modes) != len(benchModes) || len(r.Problems) > 0 {
		b.Fatalf("synthetic run did not load as built: %+v", r)
	}
	h := site.Handler()
	b.Logf("synthetic run: %d papers × %d passages, %d questions × %d modes = %d records (%.1f MB results.jsonl), %d flipped lost; built in %v",
		benchPapers, benchPassages, benchQuestions, len(benchModes), len(br.recs), float64(br.resultsSize)/1e6, br.lost, time.Since(t0).Round(time.Millisecond))

	listRef := benchListRef(br)
	b.Run("index", func(b *testing.B) { benchIndexPage(b, h, br) })
	b.Run("list", func(b *testing.B) { benchListPage(b, h, listRef) })
	b.Run("list-filtered", func(b *testing.B) { benchFilteredListPage(b, h, br, listRef) })
	b.Run("question", func(b *testing.B) { benchQuestionPage(b, h, br) })
	b.Run("paper", func(b *testing.B) { benchPaperPage(b, h, br) })
	b.Run("load", func(b *testing.B) { benchLoad(b, br) })
}

// benchListRef encodes the list pages' underlying data: every record's
// identity and verdict.
func benchListRef(br *benchRun) func(int) int {
	type slim struct {
		QuestionID string `json:"question_id"`
		Mode       string `json:"mode"`
		Run        int    `json:"run"`
		Correct    bool   `json:"correct"`
		Miss       bool   `json:"miss"`
		Error      string `json:"error"`
	}
	slims := make([]slim, len(br.recs))
	for i, r := range br.recs {
		slims[i] = slim{r.QuestionID, r.Mode, r.Run, r.Correct, r.Miss, r.Error}
	}
	return func(int) int { return jsonLen(slims) }
}

// benchIndexPage times the index page: the record count, and a summary
// row per mode.
func benchIndexPage(b *testing.B, h http.Handler, br *benchRun) {
	benchPage(b, h, func(int) string { return "/" },
		func(int) int { return jsonLen(br.summary) + jsonLen(br.cfg) },
		func(_ int, body string) error {
			if !strings.Contains(body, fmt.Sprintf("(%d records)", len(br.recs))) {
				return fmt.Errorf("no record count")
			}
			// One summary row per mode (counting cells broke whenever a
			// column was added).
			text := strings.ReplaceAll(body, "&#43;", "+") // html/template escapes +
			for _, m := range benchModes {
				if !strings.Contains(text, "<td>"+m+"</td>") && !strings.Contains(text, "<td>"+m+" <span") {
					return fmt.Errorf("the summary has no row for mode %s", m)
				}
			}
			return nil
		})
}

// benchListPage times the first page of the question list: a full page
// of rows, a cell per mode, and a next page.
func benchListPage(b *testing.B, h http.Handler, listRef func(int) int) {
	benchPage(b, h, func(int) string { return "/r/1/" }, listRef,
		func(_ int, body string) error {
			if n := strings.Count(body, "\n<td><a href=\"/r/1/q/"); n != pageSize {
				return fmt.Errorf("list has %d rows, want %d", n, pageSize)
			}
			if n := strings.Count(body, `<td class="cell `); n != pageSize*len(benchModes) {
				return fmt.Errorf("list has %d mode cells, want %d", n, pageSize*len(benchModes))
			}
			if !strings.Contains(body, fmt.Sprintf("%d of %d questions", benchQuestions, benchQuestions)) || !strings.Contains(body, "next page") {
				return fmt.Errorf("list is not the first of two pages")
			}
			return nil
		})
}

// benchFilteredListPage times the list filtered to the questions lost
// against full and sorted by bm25, descending.
func benchFilteredListPage(b *testing.B, h http.Handler, br *benchRun, listRef func(int) int) {
	want := min(br.lost, pageSize)
	benchPage(b, h, func(int) string { return "/r/1/?flipped=lost&sort=mode:bm25&desc=1" }, listRef,
		func(_ int, body string) error {
			if n := strings.Count(body, "\n<td><a href=\"/r/1/q/"); n != want {
				return fmt.Errorf("filtered list has %d rows, want %d", n, want)
			}
			if !strings.Contains(body, fmt.Sprintf("%d of %d questions", br.lost, benchQuestions)) {
				return fmt.Errorf("filtered list does not say %d of %d", br.lost, benchQuestions)
			}
			if !strings.Contains(body, "bm25 ▼") {
				return fmt.Errorf("filtered list is not sorted by bm25, descending")
			}
			return nil
		})
}

// benchQuestionPage times the question pages, a column per mode and the
// gold evidence shown.
func benchQuestionPage(b *testing.B, h http.Handler, br *benchRun) {
	// A fixed permutation of every question: consecutive requests hit
	// different questions and papers.
	order := rand.New(rand.NewPCG(7, 7)).Perm(benchQuestions)
	qid := func(i int) string { return br.qids[order[i%len(order)]] }
	benchPage(b, h, func(i int) string { return "/r/1/q/" + qid(i) },
		func(i int) int { return jsonLen(br.byQ[qid(i)]) },
		func(i int, body string) error {
			if n := strings.Count(body, "data-mode="); n != len(benchModes) {
				return fmt.Errorf("question page has %d mode columns, want %d", n, len(benchModes))
			}
			if !strings.Contains(body, "<h1>"+qid(i)+" ") {
				return fmt.Errorf("not the page of %s", qid(i))
			}
			if !strings.Contains(body, `<mark class="gold"`) || !strings.Contains(body, "Gold evidence, and where it is in the paper") {
				return fmt.Errorf("no gold evidence shown")
			}
			return nil
		})
}

// benchPaperPage times the paper pages: every passage, the paper's
// questions, the gold evidence marked.
func benchPaperPage(b *testing.B, h http.Handler, br *benchRun) {
	order := rand.New(rand.NewPCG(8, 8)).Perm(benchPapers)
	pi := func(i int) int { return order[i%len(order)] }
	benchPage(b, h, func(i int) string { return "/r/1/paper/" + br.pids[pi(i)] },
		func(i int) int { return jsonLen(br.passages[pi(i)]) },
		func(i int, body string) error {
			if n := strings.Count(body, `<div class="boundary">`); n != benchPassages {
				return fmt.Errorf("paper page has %d passages, want %d", n, benchPassages)
			}
			if n := strings.Count(body, `<li><a href="/r/1/q/`); n != benchQuestions/benchPapers {
				return fmt.Errorf("paper page lists %d questions, want %d", n, benchQuestions/benchPapers)
			}
			if !strings.Contains(body, `<mark class="gold"`) {
				return fmt.Errorf("no gold evidence marked")
			}
			return nil
		})
}

// benchLoad times Load of the run against reading and decoding
// results.jsonl.
func benchLoad(b *testing.B, br *benchRun) {
	results := filepath.Join(br.dir, run.ResultsFile)
	ref := refPerOp(func(int) int {
		data, err := os.ReadFile(results)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for line := range bytes.Lines(data) {
			var r run.Record
			if err := json.Unmarshal(line, &r); err != nil {
				b.Fatal(err)
			}
			n++
		}
		return n
	})
	for b.Loop() {
		s, err := Load([]string{br.dir}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		r := s.Run("1")
		if len(r.Questions) != benchQuestions || r.Summary.Questions != benchQuestions || len(r.Problems) > 0 {
			b.Fatalf("Load: %d questions, summary of %d, problems %q", len(r.Questions), r.Summary.Questions, r.Problems)
		}
		b.StartTimer()
	}
	// Load is not a page: its time is reported apart, with no budget.
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(per)/float64(time.Millisecond), "ms/load")
	b.ReportMetric(float64(per)/float64(ref), "x-json-ref")
	b.ReportMetric(float64(ref)/float64(time.Millisecond), "ref-ms")
}

// benchPage times GET path(i) round trips through h. ref(i) encodes the
// page's underlying data (it is timed before the loop as the reference);
// check(i, body) says what the page must hold.
func benchPage(b *testing.B, h http.Handler, path func(int) string, ref func(int) int, check func(int, string) error) {
	refOp := refPerOp(ref)
	i := 0
	for b.Loop() {
		req := httptest.NewRequest("GET", path(i), nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		b.StopTimer()
		if w.Code != http.StatusOK {
			b.Fatalf("GET %s = %d: %.200s", path(i), w.Code, w.Body.String())
		}
		if err := check(i, w.Body.String()); err != nil {
			b.Fatalf("GET %s: %v", path(i), err)
		}
		i++
		b.StartTimer()
	}
	report(b, refOp)
}

const pageBudget = 300 * time.Millisecond

func report(b *testing.B, ref time.Duration) {
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(per)/float64(time.Millisecond), "ms/page")
	b.ReportMetric(float64(per)/float64(pageBudget), "budget-share")
	b.ReportMetric(float64(per)/float64(ref), "x-json-ref")
	b.ReportMetric(float64(ref)/float64(time.Millisecond), "ref-ms")
}

// refPerOp is the mean time of f over refCalls calls, with distinct
// arguments 0, 1, 2, ... as the timed loop uses. (testing.Benchmark cannot
// be called here: the running benchmark holds its lock.)
func refPerOp(f func(int) int) time.Duration {
	const refCalls = 50
	sink := 0
	start := time.Now()
	for i := range refCalls {
		sink += f(i)
	}
	if sink < 0 {
		panic("unreachable")
	}
	return time.Since(start) / refCalls
}

func jsonLen(v any) int {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return len(data)
}

// ---- the synthetic run ----

const (
	benchPapers    = 100
	benchPassages  = 40 // per paper
	benchWords     = 350
	benchQuestions = 1000
)

var benchModes = []string{run.ClosedBook, run.Full, run.ModeBM25, run.ModeDense, run.ModeHybrid, run.FullBM25, run.FullHybrid, run.Oracle}

// Accuracy each mode aims at; a question's latent difficulty correlates
// the modes, as real runs are correlated.
var benchAcc = map[string]float64{run.ClosedBook: 0.35, run.Full: 0.70, run.ModeBM25: 0.58, run.ModeDense: 0.60,
	run.ModeHybrid: 0.64, run.FullBM25: 0.72, run.FullHybrid: 0.74, run.Oracle: 0.82}

type benchRun struct {
	dir         string
	cfg         run.Config
	pids        []string
	passages    [][]corpus.Passage // as stored, by paper
	qids        []string
	recs        []run.Record
	byQ         map[string][]run.Record
	summary     run.Summary
	lost        int // questions right in full, wrong in some retrieval mode
	resultsSize int
}

var benchVocab = strings.Fields(`model models retrieval retriever passage passages evidence question questions answer
answers dataset datasets training trained train evaluation evaluate benchmark benchmarks accuracy precision recall
score scores baseline baselines method methods approach results result table figure section appendix layer layers
attention transformer encoder decoder embedding embeddings vector vectors dense sparse lexical semantic query queries
document documents corpus token tokens context window length long short sequence sequences loss objective gradient
optimizer learning rate batch size epoch epochs step steps parameter parameters billion million small large scale
scaling performance improvement improves improved gain gains drop drops error errors analysis ablation study studies
experiment experiments setting settings configuration hyperparameter hyperparameters validation test held out split
human annotators annotation label labels labelled supervised unsupervised contrastive negative negatives positive
hard easy medium difficulty reasoning chain thought prompt prompts prompting instruction instructions fine tuned
tuning pretrained pretraining language languages english multilingual scientific paper papers author authors
citation citations claim claims support supports refute fact factual hallucination faithful faithfulness grounded
the of and to in a is that for on with as by we our this are be it from at an which these was not or have has
can more than also each both while however thus therefore moreover because when where over under between across
first second third final table shows reports observe find found propose proposed introduce present describe
significant significantly consistent consistently robust robustness efficient efficiency latency memory compute
hybrid fusion reciprocal rank reranker reranking candidate candidates top k retrieved retrieves index indexing
chunk chunks chunking overlap boundary boundaries section sections heading headings abstract introduction
conclusion limitation limitations future work related prior previous recent state art strong weak simple complex`)

var benchSections = []string{"Abstract", "1 Introduction", "2 Related Work", "3 Method", "3.1 Model", "3.2 Method",
	"3.3 Training", "4 Experiments", "4.1 Setup", "4.2 Results", "4.3 Ablations", "5 Analysis", "6 Discussion",
	"7 Conclusion", "A Appendix"}

// words draws n words, skewed towards the start of the vocabulary (a
// rough Zipf), so n-grams repeat across passages as real text does.
func benchWordsN(r *rand.Rand, n int) []string {
	out := make([]string, n)
	for i := range out {
		x := r.Float64()
		out[i] = benchVocab[int(x*x*float64(len(benchVocab)))]
	}
	return out
}

func benchSentence(r *rand.Rand) string {
	w := benchWordsN(r, 8+r.IntN(18))
	if r.IntN(6) == 0 {
		w[r.IntN(len(w))] = fmt.Sprint(r.IntN(2000))
	}
	if r.IntN(5) == 0 {
		w[2+r.IntN(len(w)-3)] += ","
	}
	if r.IntN(8) == 0 {
		w = append(w, fmt.Sprintf("(Table %d)", 1+r.IntN(9)))
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

func benchText(r *rand.Rand, minLen int) string {
	var sb strings.Builder
	for sb.Len() < minLen {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(benchSentence(r))
	}
	return sb.String()
}

// buildBenchRun writes the corpus, the dataset, results.jsonl and
// summary.json under root.
func buildBenchRun(b *testing.B, root string) *benchRun {
	b.Helper()
	rng := rand.New(rand.NewPCG(2024, 11))
	home, dir := filepath.Join(root, "home"), filepath.Join(root, "runs", "synthetic")
	br := &benchRun{dir: dir, byQ: map[string][]run.Record{}}
	sentences, docTokens := writeBenchPapers(b, rng, home, br)
	qs := writeBenchQuestions(b, rng, root, br, sentences)

	br.cfg = run.Config{Bench: "jsonl", Data: filepath.Join(root, "questions.jsonl"), Home: home, Model: "acme-70b-instruct", BaseURL: "http://127.0.0.1:8000/v1",
		APIKeyEnv: "ACME_API_KEY", Modes: benchModes, Paradigm: run.Reasoning, Runs: 1, Concurrency: 8, K: 10, Budget: 16000,
		Sampling: run.Sampling{MaxTokens: 4096, Temperature: ptrTo(0.6), TopP: ptrTo(0.95)}, Order: "score", QueryForm: "stem", Out: dir, Seed: 1, IRThreshold: 0.5,
		MaxPassageTokens: 512}
	loaded, problems, err := run.LoadQuestions(br.cfg)
	if err != nil || len(problems) > 0 || len(loaded) != benchQuestions {
		b.Fatalf("synthetic dataset: %d questions, problems %v, err %v", len(loaded), problems, err)
	}
	breakdown := map[string]map[string]string{}
	for _, q := range loaded {
		breakdown[q.ID] = q.Breakdown
	}

	// Records: 8 modes × 1 run.
	var results bytes.Buffer
	enc := json.NewEncoder(&results)
	enc.SetEscapeHTML(false)
	for _, q := range qs {
		for _, mode := range benchModes {
			r := benchRecord(rng, br, q, mode, breakdown[q.id], docTokens[q.pi])
			if err := enc.Encode(r); err != nil {
				b.Fatal(err)
			}
			br.recs = append(br.recs, r)
			br.byQ[q.id] = append(br.byQ[q.id], r)
		}
	}
	br.lost = countBenchLost(br, qs)
	writeBenchRunFiles(b, br, loaded, results.Bytes())
	return br
}

// writeBenchPapers stores benchPapers papers in a corpus at home, each of
// benchPassages passages of ~benchWords words, in sections, with exact
// offsets; it records their ids and passages in br and returns each
// passage's sentences (by paper, passage) and each paper's tokens.
func writeBenchPapers(b *testing.B, rng *rand.Rand, home string, br *benchRun) (sentences [][][]string, docTokens []int) {
	st, err := corpus.Open(home, false)
	if err != nil {
		b.Fatal(err)
	}
	sentences = make([][][]string, benchPapers) // paper, passage, sentence
	docTokens = make([]int, benchPapers)
	ingested := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	for p := range benchPapers {
		pid := fmt.Sprintf("paper-%03d", p)
		var text strings.Builder
		var ps []corpus.Passage
		sentences[p] = make([][]string, benchPassages)
		for k := range benchPassages {
			ss, words := benchPassageSentences(rng)
			sentences[p][k] = ss
			pt := strings.Join(ss, " ")
			if text.Len() > 0 {
				text.WriteString("\n\n")
			}
			start := text.Len()
			text.WriteString(pt)
			tok := words * 13 / 10
			docTokens[p] += tok
			ps = append(ps, corpus.Passage{PaperID: pid, PassageID: corpus.PassageID(pid, k), Ordinal: k, Tokens: tok,
				Start: start, End: start + len(pt), Section: benchSections[k*len(benchSections)/benchPassages], Text: pt})
		}
		title := benchSentence(rng)
		doc := corpus.Document{PaperID: pid, Title: strings.TrimSuffix(title, "."), Source: "/data/papers/" + pid + ".pdf", Kind: "pdf",
			SourceHash: fmt.Sprintf("%064x", rng.Uint64()), Extractor: "pdf/3", Pages: 9 + rng.IntN(8), Chars: text.Len(),
			Tokens: docTokens[p], MaxTokens: 512, IngestedAt: ingested}
		if err := st.Put(doc, text.String(), ps); err != nil {
			b.Fatal(err)
		}
		br.pids = append(br.pids, pid)
		br.passages = append(br.passages, ps)
	}
	if err := st.Close(); err != nil {
		b.Fatal(err)
	}
	return sentences, docTokens
}

// benchPassageSentences draws the sentences of one passage, about
// benchWords words, and their word count.
func benchPassageSentences(rng *rand.Rand) ([]string, int) {
	target := benchWords - 30 + rng.IntN(61)
	var ss []string
	words := 0
	for words < target {
		s := benchSentence(rng)
		ss = append(ss, s)
		words += strings.Count(s, " ") + 1
	}
	return ss, words
}

// benchQ is a synthetic question as the records are drawn from it.
type benchQ struct {
	id, paper, answer, evidence, typ string
	pi                               int   // paper index
	passages                         []int // passages holding the evidence
	latent                           float64
}

const benchLetters = "ABCD"

// writeBenchQuestions writes benchQuestions JSONL questions to
// root/questions.jsonl, 10 per paper, evidence copied verbatim from the
// paper; it records their ids in br.
func writeBenchQuestions(b *testing.B, rng *rand.Rand, root string, br *benchRun, sentences [][][]string) []benchQ {
	var qs []benchQ
	var data bytes.Buffer
	for i := range benchQuestions {
		q, row := benchQuestion(rng, i, br.pids, sentences)
		line, err := json.Marshal(row)
		if err != nil {
			b.Fatal(err)
		}
		data.Write(line)
		data.WriteByte('\n')
		qs = append(qs, q)
		br.qids = append(br.qids, q.id)
	}
	if err := os.WriteFile(filepath.Join(root, "questions.jsonl"), data.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return qs
}

// benchQuestion draws the i-th question, and its dataset row: evidence of
// two or three sentences of one passage, a fifth of the time with a
// sentence from another; a seventh of the questions have two answers.
func benchQuestion(rng *rand.Rand, i int, pids []string, sentences [][][]string) (benchQ, map[string]any) {
	p := i % benchPapers
	q := benchQ{id: fmt.Sprintf("q%04d", i), paper: pids[p], pi: p, latent: rng.Float64(), typ: "SA-MCQ"}
	k := rng.IntN(benchPassages)
	ss := sentences[p][k]
	j := rng.IntN(len(ss) - 2)
	n := 2 + rng.IntN(2)
	q.evidence, q.passages = strings.Join(ss[j:j+n], " "), []int{k}
	if rng.IntN(5) == 0 { // a second excerpt from elsewhere in the paper
		k2 := (k + 1 + rng.IntN(benchPassages-1)) % benchPassages
		q.evidence += "\n" + sentences[p][k2][rng.IntN(len(sentences[p][k2]))]
		q.passages = append(q.passages, k2)
	}
	q.answer = string(benchLetters[rng.IntN(4)])
	if rng.IntN(7) == 0 {
		q.typ = "MA-MCQ"
		a := rng.IntN(3)
		c := a + 1 + rng.IntN(3-a)
		q.answer = string(benchLetters[a]) + string(benchLetters[c])
	}
	opts := make([]string, 4)
	for o := range opts {
		opts[o] = strings.TrimSuffix(benchSentence(rng), ".")
	}
	row := map[string]any{
		"id": q.id, "paper_id": q.paper, "options": opts, "answer": q.answer, "evidence": q.evidence,
		"question":   "According to the paper, which of the following is true of the " + strings.Join(benchWordsN(rng, 3+rng.IntN(5)), " ") + "?",
		"difficulty": []string{"easy", "medium", "hard"}[rng.IntN(3)],
	}
	return q, row
}

// benchRecord draws the record of question q under mode: its context and
// prompt tokens (the paper's docTokens in the full modes), cut to the
// budget, and its answer.
func benchRecord(rng *rand.Rand, br *benchRun, q benchQ, mode string, breakdown map[string]string, docTokens int) run.Record {
	r := run.Record{QuestionID: q.id, PaperID: q.paper, Mode: mode, Run: 1, Model: br.cfg.Model, Paradigm: br.cfg.Paradigm,
		Gold: q.answer, QuestionType: q.typ, Breakdown: breakdown, Context: []run.ContextItem{}, ScoreKind: "exact",
		LatencyMS: int64(400 + rng.IntN(9000)), Attempts: 1}
	spec := strings.TrimPrefix(mode, "full+")
	paper := mode == run.Full || strings.HasPrefix(mode, "full+")
	r.PromptTokens = 180 + rng.IntN(60)
	if paper {
		r.PromptTokens += docTokens
	}
	benchContext(rng, br, q, spec, &r)
	if avail := br.cfg.Budget - br.cfg.MaxTokens; r.PromptTokens > avail {
		r.TruncatedTokens = r.PromptTokens - avail
		r.Cuts = []assemble.Cut{{Where: "paper", Tokens: r.TruncatedTokens}}
		r.PromptTokens = avail
	}
	benchAnswer(rng, q, mode, &r)
	return r
}

// benchContext draws r's retrieved context for retrieval spec (bm25,
// dense, hybrid: ten passages of the paper, the evidence among them
// often; oracle: the gold), with its recall and prompt tokens.
func benchContext(rng *rand.Rand, br *benchRun, q benchQ, spec string, r *run.Record) {
	switch spec {
	case run.ModeBM25, run.ModeDense, run.ModeHybrid:
		// Ten passages of the paper, the evidence among them often.
		seen := map[int]bool{}
		var ids []int
		found := 0
		for _, k := range q.passages {
			if rng.Float64() < 0.7 {
				ids = append(ids, k)
				seen[k] = true
				found++
			}
		}
		for len(ids) < 10 {
			if k := rng.IntN(benchPassages); !seen[k] {
				ids = append(ids, k)
				seen[k] = true
			}
		}
		rng.Shuffle(len(ids), func(a, c int) { ids[a], ids[c] = ids[c], ids[a] })
		top := map[string]float64{run.ModeBM25: 24, run.ModeDense: 0.86, run.ModeHybrid: 0.033}[spec]
		for rank, k := range ids {
			score := top * (1 - 0.04*float64(rank) - 0.02*rng.Float64())
			r.Context = append(r.Context, run.ContextItem{PassageID: corpus.PassageID(q.paper, k), Rank: rank + 1, Score: score, Retriever: spec})
			r.PromptTokens += br.passages[q.pi][k].Tokens
		}
		recall := float64(found) / float64(len(q.passages))
		r.Recall = &recall
	case run.Oracle:
		r.Context = []run.ContextItem{{PassageID: "gold", Rank: 1}}
		one := 1.0
		r.Recall = &one
		r.PromptTokens += len(q.evidence) / 4
	}
}

// benchAnswer draws r's outcome under mode: a rare error, a few misses,
// else an answer right about as often as the mode's benchAcc; a quarter
// with reasoning; usage for all but errors.
func benchAnswer(rng *rand.Rand, q benchQ, mode string, r *run.Record) {
	prose := func(n int) string { return benchText(rng, n) }
	x := rng.Float64()
	switch {
	case x < 0.005:
		r.Error = "model: 429 Too Many Requests (after 5 attempts): rate limit reached for requests"
		r.Attempts = 5
	case x < 0.035:
		r.Miss = true
		r.Output = prose(560) + "\n\nThe passages do not settle which option is meant, so I cannot choose one."
	default:
		r.Correct = 0.6*q.latent+0.4*rng.Float64() < benchAcc[mode]
		r.Extracted = q.answer
		if !r.Correct {
			r.Extracted = string(benchLetters[(strings.IndexByte(benchLetters, q.answer[0])+1+rng.IntN(3))%4])
		}
		r.Method = "answer-colon"
		r.Output = prose(560) + "\n\nAnswer: " + r.Extracted
	}
	if r.Error == "" && rng.IntN(4) == 0 {
		r.Reasoning = prose(1950)
	}
	if r.Error == "" {
		r.Usage = model.Usage{PromptTokens: r.PromptTokens, CompletionTokens: (len(r.Output) + len(r.Reasoning)) / 4,
			ReasoningTokens: len(r.Reasoning) / 4}
		r.Usage.TotalTokens = r.Usage.PromptTokens + r.Usage.CompletionTokens
	}
}

// countBenchLost counts the questions right in full and wrong (not in
// error) in some retrieval mode, as the list's flipped=lost filter does.
func countBenchLost(br *benchRun, qs []benchQ) int {
	lost := 0
	for _, q := range qs {
		share := func(r run.Record) float64 {
			switch {
			case r.Error != "":
				return -1
			case r.Correct:
				return 1
			}
			return 0
		}
		var full run.Record
		for _, r := range br.byQ[q.id] {
			if r.Mode == run.Full {
				full = r
			}
		}
		if share(full) != 1 {
			continue
		}
		for _, r := range br.byQ[q.id] {
			if ragMode(r.Mode) && r.Mode != run.Full && share(r) == 0 {
				lost++
				break
			}
		}
	}
	return lost
}

// writeBenchRunFiles writes the run's config.json, results.jsonl and
// summary.json, the summary not older than the results.
func writeBenchRunFiles(b *testing.B, br *benchRun, loaded []bench.Question, results []byte) {
	dir := br.dir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	cfgJSON, err := json.MarshalIndent(br.cfg, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), cfgJSON, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, run.ResultsFile), results, 0o644); err != nil {
		b.Fatal(err)
	}
	br.resultsSize = len(results)
	br.summary = run.Summarize(br.cfg, loaded, br.recs)
	if err := run.WriteSummary(dir, br.summary); err != nil {
		b.Fatal(err)
	}
	// Load trusts summary.json only when it is not older than the results.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(dir, run.ResultsFile), now.Add(-time.Second), now.Add(-time.Second)); err != nil {
		b.Fatal(err)
	}
}

func ptrTo[T any](v T) *T { return &v }
