package vector_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/paperlens/paperlens/retrieve/vector"
)

func ExampleOpenEmbedded() {
	dir, err := os.MkdirTemp("", "paperlens-vectors")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()

	s, err := vector.OpenEmbedded(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	err = s.Upsert(ctx, []vector.Point{
		{ID: "trpo#0", PaperID: "trpo", Vector: []float32{1, 0, 0}},
		{ID: "trpo#1", PaperID: "trpo", Vector: []float32{0.6, 0.8, 0}},
		{ID: "trpo#2", PaperID: "trpo", Vector: []float32{0, 0, 5}},
		{ID: "ppo#0", PaperID: "ppo", Vector: []float32{2, 0, 0}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Within one paper; the query's length does not matter, only its
	// direction.
	matches, err := s.Search(ctx, []float32{10, 0, 0}, "trpo", 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range matches {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	s.Close()

	// Reopened, the store has its vectors and its dimension back.
	s, err = vector.OpenEmbedded(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	n, _ := s.Count(ctx)
	fmt.Println(n, "points of dimension", s.Dim())
	matches, _ = s.Search(ctx, []float32{1, 0, 0}, "", 2)
	fmt.Println(matches[0].ID, matches[1].ID) // equal scores: ordered by ID

	err = s.Upsert(ctx, []vector.Point{{ID: "sac#0", PaperID: "sac", Vector: []float32{1, 0, 0, 0}}})
	fmt.Println(errors.Is(err, vector.ErrDimension))
	// Output:
	// trpo#0 1.00
	// trpo#1 0.60
	// 4 points of dimension 3
	// ppo#0 trpo#0
	// true
}
