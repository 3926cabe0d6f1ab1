package rerank_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// firstStage stands in for BM25: it returns its passages in a fixed order.
type firstStage []retrieve.Hit

func (f firstStage) Name() string { return "bm25" }

func (f firstStage) Search(_ context.Context, q retrieve.Query) ([]retrieve.Hit, error) {
	return append([]retrieve.Hit(nil), f[:min(q.K, len(f))]...), nil
}

func ExampleWrap() {
	// A loopback server speaking TEI's /rerank protocol, standing in for
	// a cross-encoder: it scores a passage by the query words it holds.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query string   `json:"query"`
			Texts []string `json:"texts"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		type rank struct {
			Index int     `json:"index"`
			Score float64 `json:"score"`
		}
		var out []rank
		for i, t := range req.Texts {
			n := 0
			for _, word := range strings.Fields(req.Query) {
				n += strings.Count(t, word)
			}
			out = append(out, rank{i, float64(n) / 10})
		}
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()

	rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: srv.URL})
	if err != nil {
		fmt.Println(err)
		return
	}
	bm25 := firstStage{
		{PassageID: "p#0", Text: "Related work on pruning."},
		{PassageID: "p#1", Text: "Tokens are parked, then restored by the router."},
		{PassageID: "p#2", Text: "Pruned tokens are restored: restored tokens rejoin the sequence."},
	}
	r := rerank.Wrap(bm25, rr, 30)
	hits, err := r.Search(context.Background(), retrieve.Query{Text: "tokens restored", K: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Name(), rr.Protocol())
	for _, h := range hits {
		fmt.Println(h.Rank, h.PassageID, h.Score)
	}
	// Output:
	// bm25>api tei
	// 1 p#2 0.4
	// 2 p#1 0.1
}

func ExampleParseOrder() {
	// A reply that repeats 2, names 9 of a window of 4, and forgets 4.
	perm, named := rerank.ParseOrder("[2] > [3] > [2] > [9] > [1]", 4)
	fmt.Println(perm, named)
	// Output: [1 2 0 3] 3
}
