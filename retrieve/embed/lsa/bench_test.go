package lsa_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

// syntheticPassages makes n passages of about 300 words from a topic model:
// 40 topics, each a Zipf distribution over its own slice of a 30k-word
// vocabulary, mixed with a shared Zipf background. The sizes are those of a
// few hundred papers cut into 512-token passages: what Fit meets in use.
func syntheticPassages(n int) []string {
	rng := rand.New(rand.NewPCG(1, 2))
	const vocab, topics, words = 30000, 40, 300
	word := func(i int) string { return fmt.Sprintf("w%x", i) }
	zipf := func(r *rand.Rand, s float64, max int) int {
		// Inverse-CDF sampling of a truncated power law; plenty for a
		// benchmark corpus.
		u := r.Float64()
		return int(float64(max) * (1 - (1-u)*(1-u)) * pow(u, s))
	}
	out := make([]string, n)
	var b strings.Builder
	for i := range out {
		b.Reset()
		t1, t2 := rng.IntN(topics), rng.IntN(topics)
		for range words {
			var w int
			switch r := rng.Float64(); {
			case r < 0.45:
				w = t1*(vocab/topics) + zipf(rng, 3, vocab/topics)
			case r < 0.65:
				w = t2*(vocab/topics) + zipf(rng, 3, vocab/topics)
			default:
				w = zipf(rng, 6, vocab)
			}
			b.WriteString(word(w))
			b.WriteByte(' ')
		}
		out[i] = b.String()
	}
	return out
}

func pow(x, y float64) float64 {
	r := 1.0
	for range int(y) {
		r *= x
	}
	return r
}

func benchFit(b *testing.B, n int) {
	texts := syntheticPassages(n)
	b.ResetTimer()
	var m *lsa.Model
	for b.Loop() {
		var err error
		if m, err = lsa.Fit(texts, lsa.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.Vocab()), "terms")
	b.ReportMetric(float64(m.Dim()), "dims")
}

func BenchmarkFit5k(b *testing.B)  { benchFit(b, 5000) }
func BenchmarkFit10k(b *testing.B) { benchFit(b, 10000) }

// resampledSeeds makes n passages of about 512 tokens from the seed
// papers' sentences drawn at random: natural word statistics (Zipf, stop
// words, numbers, markup), though with the seeds' 8k-word vocabulary rather
// than a large corpus's 30k+.
func resampledSeeds(b *testing.B, n int) []string {
	var sents []string
	for _, p := range seedCorpus(b) {
		for _, s := range chunk.Sentences(p) {
			sents = append(sents, p[s.Start:s.End])
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	out := make([]string, n)
	var sb strings.Builder
	for i := range out {
		sb.Reset()
		for sb.Len() < 2000 { // ~512 tokens
			sb.WriteString(sents[rng.IntN(len(sents))])
		}
		out[i] = sb.String()
	}
	return out
}

func BenchmarkFitResampledSeeds10k(b *testing.B) {
	texts := resampledSeeds(b, 10000)
	b.ResetTimer()
	var m *lsa.Model
	for b.Loop() {
		var err error
		if m, err = lsa.Fit(texts, lsa.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(m.Vocab()), "terms")
}

func BenchmarkFitSeeds(b *testing.B) {
	texts := seedCorpus(b)
	for b.Loop() {
		if _, err := lsa.Fit(texts, lsa.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEmbed(b *testing.B) {
	texts := syntheticPassages(5000)
	m, err := lsa.Fit(texts, lsa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	batch := texts[:1000]
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Embed(context.Background(), batch, embed.Passage); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(batch)*b.N)/b.Elapsed().Seconds(), "texts/s")
}
