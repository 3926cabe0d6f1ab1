package qdrant_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

// These benchmarks measure what this machine can: the client's and the
// wire's share of a request (against the loopback fake, whose own work per
// request is a few hundred dot products at most), and the cost per point of
// an exact scan (the embedded store, the same arithmetic Qdrant's plain
// search does). docs/scale.md extrapolates cluster figures from them:
//
//	go test -run '^$' -bench . -benchtime 2s ./retrieve/vector/qdrant/

const benchDim = 384

func randPoints(r *rand.Rand, paper string, n, dim int) []vector.Point {
	pts := make([]vector.Point, n)
	for i := range pts {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		pts[i] = vector.Point{ID: fmt.Sprintf("%s#%d", paper, i), PaperID: paper, Vector: v}
	}
	return pts
}

// BenchmarkPaperSearchRoundTrip is one exact top-10 search within a paper
// of 200 passages over gRPC: nearly all of it is the round trip.
func BenchmarkPaperSearchRoundTrip(b *testing.B) {
	srv := qdranttest.Start(b)
	s, err := qdrant.OpenWith(context.Background(), srv.URL, "bench", benchDim, qdrant.Options{Shards: 3, EF: qdrant.DefaultEF})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	if err := s.Upsert(context.Background(), randPoints(r, "p", 200, benchDim)); err != nil {
		b.Fatal(err)
	}
	q := randPoints(r, "q", 1, benchDim)[0].Vector
	for b.Loop() {
		if _, err := s.Search(context.Background(), q, "p", 10); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpsertBatch writes BatchSize points of 384 dimensions per op to
// a sharded collection; points/s is the client's and the wire's ceiling.
func BenchmarkUpsertBatch(b *testing.B) {
	srv := qdranttest.Start(b)
	s, err := qdrant.OpenWith(context.Background(), srv.URL, "bench", benchDim, qdrant.Options{Shards: 3})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	pts := randPoints(rand.New(rand.NewPCG(3, 4)), "p", qdrant.BatchSize, benchDim)
	for b.Loop() {
		if err := s.Upsert(context.Background(), pts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(pts))/b.Elapsed().Seconds(), "points/s")
}

// BenchmarkSparseUpsertBatch writes BatchSize BM25 vectors of 120 terms
// (a 512-token passage's distinct terms after analysis) per op.
func BenchmarkSparseUpsertBatch(b *testing.B) {
	srv := qdranttest.Start(b)
	s, err := qdrant.OpenSparse(context.Background(), srv.URL, "bench", qdrant.Options{Shards: 3})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(5, 6))
	docs := make([]vector.SparseDoc, qdrant.BatchSize)
	for i := range docs {
		d := vector.SparseDoc{ID: fmt.Sprintf("p#%d", i), PaperID: "p"}
		for j := range 120 {
			d.Indices = append(d.Indices, uint32(j)*104729+uint32(r.IntN(100)))
			d.Values = append(d.Values, float32(r.Float64()*2))
		}
		docs[i] = d
	}
	for b.Loop() {
		if err := s.UpsertSparse(context.Background(), docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(docs))/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkExactScan is a corpus-wide exact top-10 in the embedded store of
// 50,000 points of 384 dimensions: ns-per-point is the cost of one distance
// in a scan, which is what Qdrant's exact search and each HNSW hop pay.
func BenchmarkExactScan(b *testing.B) {
	const n = 50_000
	e, err := vector.OpenEmbedded(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	r := rand.New(rand.NewPCG(7, 8))
	for start := 0; start < n; start += 5000 {
		if err := e.Upsert(context.Background(), randPoints(r, fmt.Sprintf("p%d", start), 5000, benchDim)); err != nil {
			b.Fatal(err)
		}
	}
	q := randPoints(r, "q", 1, benchDim)[0].Vector
	for b.Loop() {
		if _, err := e.Search(context.Background(), q, "", 10); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns-per-point")
}
