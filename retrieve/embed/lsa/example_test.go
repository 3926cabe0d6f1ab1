package lsa_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/lsa"
)

func ExampleFit() {
	passages := []string{
		"Dense passage retrieval embeds the question and every passage with an encoder and ranks by cosine.",
		"BM25 ranks passages by term frequency, saturated, and inverse document frequency.",
		"Annotators wrote multiple-choice questions, and verifiers checked the evidence for each answer.",
		"Longer reasoning chains did not improve accuracy on the benchmark.",
	}
	ctx := context.Background()
	m, err := lsa.Fit(passages, lsa.Options{})
	if err != nil {
		panic(err)
	}
	pv, _ := m.Embed(ctx, passages, embed.Passage)
	qv, _ := m.Embed(ctx, []string{"Which method ranks by the frequency of terms?"}, embed.Query)
	best := 0
	for i := range pv {
		if embed.Dot(qv[0], pv[i]) > embed.Dot(qv[0], pv[best]) {
			best = i
		}
	}
	fmt.Println(strings.HasPrefix(m.Name(), "lsa-4@"), m.Dim())
	fmt.Println(passages[best])
	// Output:
	// true 4
	// BM25 ranks passages by term frequency, saturated, and inverse document frequency.
}
