package lsa_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/internal/testkit/testcorpus"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

// paraphrases are questions written by hand from the seed papers. Each
// rewords a statement with synonyms and a different structure, so that word
// overlap with its passage is partial; anchor is a verbatim phrase of the
// source that marks the passage(s) that answer it. LPFQA appears twice in the
// seeds (000 and 001 are two renderings), so its anchors may mark a passage
// in each; any marked passage counts.
var paraphrases = []struct{ query, anchor string }{
	// ElaipBench (004)
	{"How much money did the labelers get for every item they wrote, and what extra rewards were paid during checking?", "base payment of 30 CNY"},
	{"Uploaded PDF files are converted to plain text and documents below a minimum length in tokens are refused.", "fewer than 4,096 tokens"},
	{"Articles are cut into chunks at sentence borders and the five closest chunks are fetched with a dense encoder and with BM25.", "non-overlapping passages of 512 tokens"},
	{"Search engine results were mostly other scientific articles, so the model had to reason over many documents at once.", "nearly all returned documents are other relevant academic papers"},
	{"Producing longer chains of thought does not make answers more correct; accuracy falls as outputs get longer.", "accuracy does not improve for any model"},
	{"Hiring the expert question authors took half a year and cost more than fifty thousand yuan.", "required six months"},
	{"The checker must answer each item within a time limit using only the article; items are graded easy, moderate or hard by the outcome.", "within 20 minutes using only the provided paper"},
	{"In the step-by-step prompting setup the model is told to reason gradually before picking an option.", "chain-of-thought (CoT) paradigm"},
	{"While double-checking, models often switch an initially right choice to a wrong one.", "Harmful Verification, where the model"},
	// Encyclo-K (002)
	{"Facts are captured from university textbooks as screenshots and a vision model transcribes them.", "screenshot capture"},
	{"A reasoning model rewrites true sentences into convincing false ones, e.g. by swapping concepts or reversing cause and effect.", "concept substitution, causal inversion"},
	{"Scores stay stable across test sets built with different random seeds, so fresh sets can be released without overfitting.", "five dynamically generated question sets"},
	{"The reply is parsed with layered regex patterns such as 'The answer is: A', tried on the final line first and then on the whole output.", "multi-tier regular expression matching"},
	{"Offering more candidate choices steadily lowers accuracy; the most robust reasoning model drops from about 64% with four choices to about 45% with ten.", "declining from 64.08% at 4 options"},
	{"Models show no preference for particular answer letters: correctness is similar in every slot from A to H.", "no significant position bias"},
	{"The mid-sized Qwen model without thinking skips the analysis and writes very short replies, scoring below its smaller siblings.", "lazy answering"},
	{"Models released with their training data and code trail far behind models that only publish weights.", "Gap Between Open-weight and Fully Open-source"},
	// LFQA-E (003)
	{"Automatic judges almost never say two answers are equally good; even GPT-4o is rarely right when the correct label is a draw.", "fear to judge a tie"},
	{"Setting the sampling temperature to zero makes reasoning models collapse when grading Chinese answers.", "Temperature Sensitivity"},
	// LPFQA (000, 001)
	{"Threads were crawled from more than fifty vetted websites and kept as images instead of text to preserve their layout.", "screenshots rather than plain text"},
	{"A grading model decides whether the final response is equivalent to the gold answer and scores it one or zero.", "binary scoring scheme"},
	{"Knowledge questions become multiple choice with several believable wrong options, while computational ones become short-answer.", "plausible distractors"},
	{"Even the strongest system stays below the usual pass mark of sixty percent on real forum questions.", "passing threshold of 60%"},
	{"Equipping models with a code interpreter or a web search tool lowered their scores instead of raising them.", "Impact of Tool Augmentation"},
	{"Low lexical overlap between model continuations and the questions suggests the items were not seen in pretraining.", "unlikely to have been extensively encountered"},
	{"Most wrong answers come from missing domain knowledge or misreading what the question asks.", "knowledge deficiencies and question misinterpretation"},
}

var (
	seedOnce     sync.Once
	seedPassages []string
)

// seedCorpus chunks the five seed papers as the index does (chunk.Split
// with default options: ≤512 cl100k tokens on sentence boundaries).
func seedCorpus(t testing.TB) []string {
	t.Helper()
	testcorpus.Root(t) // skips, or fails under CI, without the corpus
	seedOnce.Do(func() { seedPassages = seedChunks(t, 0) })
	if len(seedPassages) < 100 {
		t.Fatalf("seed corpus has %d passages, expected well over 100", len(seedPassages))
	}
	return seedPassages
}

func seedChunks(t testing.TB, maxTokens int) []string {
	t.Helper()
	var out []string
	for _, f := range testcorpus.Glob(t, "seeds", "*.txt") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range chunk.Split(string(b), chunk.Options{MaxTokens: maxTokens}) {
			out = append(out, p.Text)
		}
	}
	return out
}

type retrievalScore struct {
	hits   int     // queries with a marked passage in the top 3
	mrr    float64 // mean reciprocal rank of the first marked passage
	chance float64 // expected top-3 hit rate of a random ranking
}

// evaluate ranks all passages by cosine for every paraphrase.
func evaluate(t testing.TB, m embed.Embedder, passages []string) retrievalScore {
	t.Helper()
	ctx := context.Background()
	pv, err := m.Embed(ctx, passages, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]string, len(paraphrases))
	for i, p := range paraphrases {
		qs[i] = p.query
	}
	qv, err := m.Embed(ctx, qs, embed.Query)
	if err != nil {
		t.Fatal(err)
	}
	var s retrievalScore
	n := float64(len(passages))
	for i, p := range paraphrases {
		var marked []int
		for j, text := range passages {
			if strings.Contains(text, p.anchor) {
				marked = append(marked, j)
			}
		}
		if len(marked) == 0 {
			t.Fatalf("anchor %q is in no passage: the seeds changed or the anchor is wrong", p.anchor)
		}
		order := make([]int, len(passages))
		for j := range order {
			order[j] = j
		}
		score := make([]float64, len(passages))
		for j := range passages {
			score[j] = embed.Dot(qv[i], pv[j])
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case score[a] > score[b]:
				return -1
			case score[a] < score[b]:
				return 1
			}
			return 0
		})
		for rank, j := range order {
			if slices.Contains(marked, j) {
				if rank < 3 {
					s.hits++
				}
				s.mrr += 1 / float64(rank+1)
				break
			}
		}
		// P(at least one of the m marked passages among 3 random picks).
		m := float64(len(marked))
		miss := 1.0
		for k := 0.0; k < 3; k++ {
			miss *= (n - m - k) / (n - k)
		}
		s.chance += 1 - miss
	}
	s.mrr /= float64(len(paraphrases))
	s.chance /= float64(len(paraphrases))
	return s
}

func TestParaphraseRetrieval(t *testing.T) {
	passages := seedCorpus(t)
	m, err := lsa.Fit(passages, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := evaluate(t, m, passages)
	rate := float64(s.hits) / float64(len(paraphrases))
	t.Logf("%s on %d seed passages: top-3 hit rate %d/%d = %.2f (chance %.3f), MRR %.3f",
		m.Name(), len(passages), s.hits, len(paraphrases), rate, s.chance, s.mrr)
	// "More often than chance" with margin: chance is about 2%; half the
	// paraphrases is a bar a broken tokenizer, a wrong projection or a
	// scrambled vocabulary all fall far below.
	if rate < 0.5 || rate < 10*s.chance {
		t.Errorf("top-3 hit rate %.2f (chance %.3f): LSA no longer finds paraphrased passages", rate, s.chance)
	}
}

// TestVariants backs the documented defaults (ScaleNone, StemLight) with the
// evidence: every scaling × stemming variant is fitted on the seed papers
// cut two ways, 512-token passages (the index setting; 162 passages, so 256
// dimensions is nearly full rank) and 128-token passages (about 600, where
// 64 and 256 dimensions are real reductions), and scored by mean
// reciprocal rank on the paraphrases. The default must be the best variant
// on the summed MRR, up to 0.05: with 26 queries, differences below that
// are one query moving a rank or two, which is noise.
func TestVariants(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 24 models")
	}
	type variant struct {
		sc lsa.Scaling
		st lsa.Stemming
	}
	variants := []variant{
		{lsa.ScaleNone, lsa.StemNone}, {lsa.ScaleNone, lsa.StemPlural}, {lsa.ScaleNone, lsa.StemLight},
		{lsa.ScaleInvSigma, lsa.StemNone}, {lsa.ScaleInvSigma, lsa.StemPlural}, {lsa.ScaleInvSigma, lsa.StemLight},
	}
	total := map[variant]float64{}
	for _, maxTokens := range []int{512, 128} {
		passages := seedCorpus(t)
		if maxTokens != 512 {
			passages = seedChunks(t, maxTokens)
		}
		for _, v := range variants {
			for _, d := range []int{64, 256} {
				m, err := lsa.Fit(passages, lsa.Options{Dim: d, Scaling: v.sc, Stemming: v.st})
				if err != nil {
					t.Fatal(err)
				}
				s := evaluate(t, m, passages)
				total[v] += s.mrr
				t.Logf("%3d-token passages (%3d), scaling=%-9s stem=%-6s dim=%3d (kept %3d): top-3 %2d/%d  MRR %.3f",
					maxTokens, len(passages), v.sc, v.st, d, m.Dim(), s.hits, len(paraphrases), s.mrr)
			}
		}
	}
	def := variant{lsa.DefaultScaling, lsa.DefaultStemming}
	for _, v := range variants {
		t.Logf("summed MRR scaling=%-9s stem=%-6s %.3f", v.sc, v.st, total[v])
		if total[v] > total[def]+0.05 {
			t.Errorf("variant %v/%v (summed MRR %.3f) beats the default %v/%v (%.3f): revisit the defaults and the package doc",
				v.sc, v.st, total[v], def.sc, def.st, total[def])
		}
	}
}

func TestSeedFitProperties(t *testing.T) {
	passages := seedCorpus(t)
	ctx := context.Background()
	m, err := lsa.Fit(passages, lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() <= 0 || m.Dim() > min(lsa.DefaultDim, len(passages)) {
		t.Fatalf("Dim %d for %d passages", m.Dim(), len(passages))
	}
	if !strings.HasPrefix(m.Name(), "lsa-") {
		t.Errorf("Name %q does not say lsa", m.Name())
	}

	t.Run("descending singular values", func(t *testing.T) { checkDescendingSingularValues(t, m) })

	vecs, err := m.Embed(ctx, passages, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("unit length", func(t *testing.T) { checkUnitLength(t, m, vecs) })
	t.Run("deterministic", func(t *testing.T) { checkRefitDeterministic(t, m, passages, vecs) })
	t.Run("different fit different name", func(t *testing.T) { checkDifferentFitDifferentName(t, m, passages) })
	t.Run("save load round trip", func(t *testing.T) { checkSaveLoadRoundTrip(t, m, passages, vecs) })
	t.Run("kind ignored", func(t *testing.T) {
		q, err := m.Embed(ctx, passages[:5], embed.Query)
		if err != nil {
			t.Fatal(err)
		}
		if !equalVecs(q, vecs[:5]) {
			t.Fatal("Query and Passage embeddings differ for a symmetric model")
		}
	})
}

// checkDescendingSingularValues checks m keeps its singular values in
// descending order, all positive.
func checkDescendingSingularValues(t *testing.T, m *lsa.Model) {
	sv := m.SingularValues()
	for i := 1; i < len(sv); i++ {
		if sv[i] > sv[i-1] {
			t.Fatalf("σ[%d]=%g > σ[%d]=%g", i, sv[i], i-1, sv[i-1])
		}
	}
	if sv[len(sv)-1] <= 0 {
		t.Fatalf("non-positive singular value kept: %g", sv[len(sv)-1])
	}
}

// checkUnitLength checks m's vectors vecs are of its dimension and unit
// length.
func checkUnitLength(t *testing.T, m *lsa.Model, vecs [][]float32) {
	for i, v := range vecs {
		if len(v) != m.Dim() {
			t.Fatalf("vector %d has length %d, Dim %d", i, len(v), m.Dim())
		}
		if n := math.Sqrt(embed.Dot(v, v)); math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d has norm %g", i, n)
		}
	}
}

// checkRefitDeterministic checks a refit of passages with one worker is
// m, by name and hash, and embeds them as m did (vecs).
func checkRefitDeterministic(t *testing.T, m *lsa.Model, passages []string, vecs [][]float32) {
	m2, err := lsa.Fit(passages, lsa.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Name() != m.Name() || m2.Hash() != m.Hash() {
		t.Fatalf("refit with 1 worker: %s, first fit %s", m2.Name(), m.Name())
	}
	v2, err := m2.Embed(context.Background(), passages, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	if !equalVecs(vecs, v2) {
		t.Fatal("refit embeds differently")
	}
}

// checkDifferentFitDifferentName checks fits of m's passages less one,
// or with another seed, are named apart from m.
func checkDifferentFitDifferentName(t *testing.T, m *lsa.Model, passages []string) {
	m2, err := lsa.Fit(passages[:len(passages)-1], lsa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Name() == m.Name() {
		t.Fatalf("fits on different corpora share the name %s", m.Name())
	}
	m3, err := lsa.Fit(passages, lsa.Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if m3.Name() == m.Name() {
		t.Fatalf("fits with different seeds share the name %s", m.Name())
	}
}

// checkSaveLoadRoundTrip checks m saved and loaded back is m, by name and
// sizes, and embeds passages as m did (vecs).
func checkSaveLoadRoundTrip(t *testing.T, m *lsa.Model, passages []string, vecs [][]float32) {
	path := filepath.Join(t.TempDir(), "lsa.model")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	l, err := lsa.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Name() != m.Name() || l.Dim() != m.Dim() || l.Vocab() != m.Vocab() || l.Docs() != m.Docs() {
		t.Fatalf("loaded %s dim %d vocab %d, saved %s dim %d vocab %d", l.Name(), l.Dim(), l.Vocab(), m.Name(), m.Dim(), m.Vocab())
	}
	lv, err := l.Embed(context.Background(), passages, embed.Passage)
	if err != nil {
		t.Fatal(err)
	}
	if !equalVecs(vecs, lv) {
		t.Fatal("loaded model embeds differently")
	}
}

func equalVecs(a, b [][]float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
