package qdranttest_test

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	qc "github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
)

func client(t *testing.T, srv *qdranttest.Server) *qc.Client {
	t.Helper()
	hostPort := strings.TrimPrefix(srv.URL, "http://")
	i := strings.LastIndex(hostPort, ":")
	port, _ := strconv.Atoi(hostPort[i+1:])
	c, err := qc.NewClient(&qc.Config{Host: hostPort[:i], Port: port, SkipCompatibilityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func sparsePoint(id uint64, idx []uint32, vals []float32) *qc.PointStruct {
	return &qc.PointStruct{Id: qc.NewIDNum(id), Vectors: qc.NewVectorsMap(map[string]*qc.Vector{"text": qc.NewVectorSparse(idx, vals)})}
}

func keys(k ...uint64) *qc.ShardKeySelector {
	sel := &qc.ShardKeySelector{}
	for _, x := range k {
		sel.ShardKeys = append(sel.ShardKeys, qc.NewShardKeyNum(x))
	}
	return sel
}

// Sparse scores are the dot product with each query value multiplied by
// Qdrant's idf, ln((N − n + 0.5)/(n + 0.5) + 1), counted over the shard of
// the point: worked here by hand for two shards.
func TestSparseIDFPerShard(t *testing.T) {
	srv := qdranttest.Start(t)
	c := client(t, srv)
	ctx := context.Background()
	err := c.CreateCollection(ctx, &qc.CreateCollection{
		CollectionName:      "s",
		ShardingMethod:      qc.ShardingMethod_Custom.Enum(),
		SparseVectorsConfig: qc.NewSparseVectorsConfig(map[string]*qc.SparseVectorParams{"text": {Modifier: qc.Modifier_Idf.Enum()}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []uint64{0, 1} {
		if err := c.CreateShardKey(ctx, "s", &qc.CreateShardKey{ShardKey: qc.NewShardKeyNum(k)}); err != nil {
			t.Fatal(err)
		}
	}
	// Shard 0: three points, term 7 in two of them. Shard 1: one point
	// holding term 7.
	up := func(sel *qc.ShardKeySelector, pts ...*qc.PointStruct) {
		t.Helper()
		if _, err := c.Upsert(ctx, &qc.UpsertPoints{CollectionName: "s", Points: pts, ShardKeySelector: sel}); err != nil {
			t.Fatal(err)
		}
	}
	up(keys(0), sparsePoint(1, []uint32{7, 8}, []float32{2, 1}), sparsePoint(2, []uint32{7}, []float32{1}), sparsePoint(3, []uint32{9}, []float32{1}))
	up(keys(1), sparsePoint(4, []uint32{7}, []float32{1}))
	res, err := c.Query(ctx, &qc.QueryPoints{CollectionName: "s", Query: qc.NewQuerySparse([]uint32{7}, []float32{3}), Using: qc.PtrOf("text")})
	if err != nil {
		t.Fatal(err)
	}
	idf0 := math.Log((3-2+0.5)/(2+0.5) + 1) // shard 0: N 3, n 2
	idf1 := math.Log(0.5/1.5 + 1)           // shard 1: N 1, n 1: (1 − 1 + 0.5)/(1 + 0.5)
	want := map[uint64]float64{1: 3 * idf0 * 2, 2: 3 * idf0 * 1, 4: 3 * idf1 * 1}
	if len(res) != len(want) {
		t.Fatalf("%d results, want %d (point 3 shares no term): %v", len(res), len(want), res)
	}
	for _, p := range res {
		if w := want[p.GetId().GetNum()]; math.Abs(float64(p.GetScore())-w) > 1e-5 {
			t.Errorf("point %d score %v, want %v", p.GetId().GetNum(), p.GetScore(), w)
		}
	}
	// Restricted to shard 1 by its key.
	res, err = c.Query(ctx, &qc.QueryPoints{CollectionName: "s", Query: qc.NewQuerySparse([]uint32{7}, []float32{1}), Using: qc.PtrOf("text"), ShardKeySelector: keys(1)})
	if err != nil || len(res) != 1 || res[0].GetId().GetNum() != 4 {
		t.Errorf("query on shard key 1: %v, %v", res, err)
	}
}

// What Qdrant refuses, the fake refuses: a write to a custom collection
// without a shard key, an unknown key, a selector on a collection without
// keys, a sparse query without the vector's name, repeated indices, and an
// hnsw_ef of 0.
func TestRefusesWhatQdrantRefuses(t *testing.T) {
	srv := qdranttest.Start(t)
	c := client(t, srv)
	ctx := context.Background()
	if err := c.CreateCollection(ctx, &qc.CreateCollection{
		CollectionName:      "custom",
		ShardingMethod:      qc.ShardingMethod_Custom.Enum(),
		SparseVectorsConfig: qc.NewSparseVectorsConfig(map[string]*qc.SparseVectorParams{"text": {Modifier: qc.Modifier_Idf.Enum()}}),
	}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateShardKey(ctx, "custom", &qc.CreateShardKey{ShardKey: qc.NewShardKeyNum(0)}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateCollection(ctx, &qc.CreateCollection{CollectionName: "auto", VectorsConfig: qc.NewVectorsConfig(&qc.VectorParams{Size: 2, Distance: qc.Distance_Cosine})}); err != nil {
		t.Fatal(err)
	}
	pt := sparsePoint(1, []uint32{1}, []float32{1})
	for name, call := range map[string]func() error{
		"upsert without shard key": func() error {
			_, err := c.Upsert(ctx, &qc.UpsertPoints{CollectionName: "custom", Points: []*qc.PointStruct{pt}})
			return err
		},
		"unknown shard key": func() error {
			_, err := c.Upsert(ctx, &qc.UpsertPoints{CollectionName: "custom", Points: []*qc.PointStruct{pt}, ShardKeySelector: keys(5)})
			return err
		},
		"selector without custom sharding": func() error {
			_, err := c.Query(ctx, &qc.QueryPoints{CollectionName: "auto", Query: qc.NewQueryDense([]float32{1, 0}), ShardKeySelector: keys(0)})
			return err
		},
		"shard key on auto collection": func() error {
			return c.CreateShardKey(ctx, "auto", &qc.CreateShardKey{ShardKey: qc.NewShardKeyNum(0)})
		},
		"sparse query without using": func() error {
			_, err := c.Query(ctx, &qc.QueryPoints{CollectionName: "custom", Query: qc.NewQuerySparse([]uint32{1}, []float32{1})})
			return err
		},
		"repeated sparse index": func() error {
			_, err := c.Upsert(ctx, &qc.UpsertPoints{CollectionName: "custom", Points: []*qc.PointStruct{sparsePoint(2, []uint32{1, 1}, []float32{1, 1})}, ShardKeySelector: keys(0)})
			return err
		},
		"hnsw_ef 0": func() error {
			_, err := c.Query(ctx, &qc.QueryPoints{CollectionName: "auto", Query: qc.NewQueryDense([]float32{1, 0}), Params: &qc.SearchParams{HnswEf: qc.PtrOf(uint64(0))}})
			return err
		},
	} {
		err := call()
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if c := status.Code(err); c == codes.Unimplemented || c == codes.OK {
			t.Errorf("%s: %v, want a refusal as Qdrant gives", name, err)
		}
	}
}
