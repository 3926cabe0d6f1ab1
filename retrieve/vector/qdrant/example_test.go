package qdrant_test

import (
	"context"
	"fmt"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

func ExampleOpen() {
	// A real server would be e.g. "http://localhost:6334"; the fake keeps
	// the example self-contained.
	srv, err := qdranttest.NewServer()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx := context.Background()

	s, err := qdrant.Open(ctx, srv.URL, "paperlens", 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	err = s.Upsert(ctx, []vector.Point{
		{ID: "trpo#0", PaperID: "trpo", Vector: []float32{1, 0, 0}},
		{ID: "trpo#1", PaperID: "trpo", Vector: []float32{0.6, 0.8, 0}},
		{ID: "ppo#0", PaperID: "ppo", Vector: []float32{1, 0, 0}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	matches, err := s.Search(ctx, []float32{1, 0, 0}, "trpo", 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range matches {
		fmt.Printf("%s %.2f\n", m.ID, m.Score)
	}
	// Output:
	// trpo#0 1.00
	// trpo#1 0.60
}
