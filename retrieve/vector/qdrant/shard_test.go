package qdrant_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	qc "github.com/qdrant/go-client/qdrant"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
	"github.com/paperlens/paperlens/internal/testkit/vectortest"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

// shardedOpener opens dense stores with shard keys and HNSW search.
func shardedOpener(url string, opt qdrant.Options) vectortest.Opener {
	return func(t *testing.T, dim int) vector.Store {
		t.Helper()
		name := fmt.Sprintf("paperlens_test_%d_%d", time.Now().UnixNano(), seq.Add(1))
		s, err := qdrant.OpenWith(context.Background(), url, name, dim, opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { drop(t, url, name) })
		return s
	}
}

// sparseOpener opens BM25 stores on fresh collections.
func sparseOpener(url string, opt qdrant.Options) vectortest.SparseOpener {
	return func(t *testing.T) vector.SparseStore {
		t.Helper()
		name := fmt.Sprintf("paperlens_bm25_test_%d_%d", time.Now().UnixNano(), seq.Add(1))
		s, err := qdrant.OpenSparse(context.Background(), url, name, opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			d, err := qdrant.OpenSparse(context.Background(), url, name, qdrant.Options{})
			if err == nil {
				d.Drop(context.Background())
				d.Close()
			}
		})
		return s
	}
}

// shardScope is the IDF scope of a paper in a collection of n shard keys:
// Qdrant counts IDF over the shard searched.
func shardScope(n int) vectortest.Scope {
	return func(paper string) string { return strconv.FormatUint(qdrant.ShardKeyOf(paper, n), 10) }
}

func TestContractFakeSharded(t *testing.T) {
	vectortest.Run(t, shardedOpener(qdranttest.Start(t).URL, qdrant.Options{Shards: 3, EF: qdrant.DefaultEF}))
}

func TestSparseContractFake(t *testing.T) {
	vectortest.RunSparse(t, sparseOpener(qdranttest.Start(t).URL, qdrant.Options{}), nil)
}

func TestSparseContractFakeSharded(t *testing.T) {
	vectortest.RunSparse(t, sparseOpener(qdranttest.Start(t).URL, qdrant.Options{Shards: 4}), shardScope(4))
}

// Against a real server: QDRANT_URL as for the dense suites; the sharded
// suites also need QDRANT_SHARDS (a server in distributed mode, such as
// deploy/qdrant-cluster, since Qdrant creates shard keys only there).
func TestSparseContractReal(t *testing.T) {
	vectortest.RunSparse(t, sparseOpener(realURL(t), qdrant.Options{}), nil)
}

func TestContractRealSharded(t *testing.T) {
	url, n := realShards(t)
	vectortest.Run(t, shardedOpener(url, qdrant.Options{Shards: n, EF: qdrant.DefaultEF}))
}

func TestSparseContractRealSharded(t *testing.T) {
	url, n := realShards(t)
	vectortest.RunSparse(t, sparseOpener(url, qdrant.Options{Shards: n}), shardScope(n))
}

func realShards(t *testing.T) (string, int) {
	url := realURL(t)
	n, err := strconv.Atoi(os.Getenv("QDRANT_SHARDS"))
	if err != nil || n < 1 {
		t.Skip("QDRANT_SHARDS not set: the sharded suites need a Qdrant in distributed mode, e.g. deploy/qdrant-cluster and QDRANT_SHARDS=3")
	}
	return url, n
}

const testShards = 3

var shardedPapers = []string{"trpo", "ppo", "dqn", "a3c", "sac", "td3"}

// shardedStore opens a collection with 3 shard keys and ef 64 on a fresh
// fake and writes one passage of each of shardedPapers.
func shardedStore(t *testing.T) (*qdranttest.Server, *qdrant.Store) {
	t.Helper()
	srv := qdranttest.Start(t)
	s, err := qdrant.OpenWith(context.Background(), srv.URL, "sharded", 2, qdrant.Options{Shards: testShards, EF: 64})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var pts []vector.Point
	for i, p := range shardedPapers {
		pts = append(pts, vector.Point{ID: p + "#0", PaperID: p, Vector: []float32{1, float32(i)}})
	}
	if err := s.Upsert(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
	return srv, s
}

// What the store sends to create a sharded collection and write to it is
// what Qdrant's API expects: sharding_method custom with one shard per key,
// keys 0…N-1, a keyword index on paper_id, and every upsert routed to the
// key of its paper.
func TestShardedCreateAndUpsert(t *testing.T) {
	srv, _ := shardedStore(t)
	create := srv.Requests("/qdrant.Collections/Create")[0].(*qc.CreateCollection)
	if create.GetShardingMethod() != qc.ShardingMethod_Custom || create.ShardNumber == nil || create.GetShardNumber() != 1 {
		t.Errorf("create: sharding_method %v, shard_number %v; want Custom and 1 shard per key", create.GetShardingMethod(), create.ShardNumber)
	}
	var keys []uint64
	for _, r := range srv.Requests("/qdrant.Collections/CreateShardKey") {
		keys = append(keys, r.(*qc.CreateShardKeyRequest).GetRequest().GetShardKey().GetNumber())
	}
	if fmt.Sprint(keys) != "[0 1 2]" {
		t.Errorf("shard keys created: %v, want [0 1 2]", keys)
	}
	idx := srv.Requests("/qdrant.Points/CreateFieldIndex")
	if len(idx) != 1 || idx[0].(*qc.CreateFieldIndexCollection).GetFieldName() != "paper_id" || idx[0].(*qc.CreateFieldIndexCollection).GetFieldType() != qc.FieldType_FieldTypeKeyword {
		t.Errorf("payload index requests %v, want one keyword index on paper_id", idx)
	}
	for _, r := range srv.Requests("/qdrant.Points/Upsert") {
		u := r.(*qc.UpsertPoints)
		ks := u.GetShardKeySelector().GetShardKeys()
		if len(ks) != 1 {
			t.Fatalf("upsert with shard keys %v, want exactly one", ks)
		}
		for _, p := range u.GetPoints() {
			paper := p.GetPayload()["paper_id"].GetStringValue()
			if want := qdrant.ShardKeyOf(paper, testShards); ks[0].GetNumber() != want {
				t.Errorf("point of paper %s sent to shard key %d, want %d", paper, ks[0].GetNumber(), want)
			}
		}
	}
	info, _ := srv.Collection("sharded")
	for _, p := range shardedPapers {
		if info.Shards[strconv.FormatUint(qdrant.ShardKeyOf(p, testShards), 10)] == 0 {
			t.Errorf("shard of paper %s holds nothing: %v", p, info.Shards)
		}
	}
}

// Corpus-wide searches walk HNSW with the asked-for ef on every shard;
// within a paper they are exact, filtered on the indexed paper_id, on its
// shard only, and a paper's deletion goes to its shard only.
func TestShardedSearchAndDelete(t *testing.T) {
	srv, s := shardedStore(t)
	ctx := context.Background()
	if _, err := s.Search(ctx, []float32{1, 1}, "", 3); err != nil {
		t.Fatal(err)
	}
	q := lastQuery(t, srv)
	if q.GetParams().HnswEf == nil || q.GetParams().GetHnswEf() != 64 || q.GetParams().GetExact() || q.GetFilter() != nil || q.GetShardKeySelector() != nil {
		t.Errorf("corpus-wide query params %v filter %v shards %v; want hnsw_ef 64, not exact, no filter, every shard", q.GetParams(), q.GetFilter(), q.GetShardKeySelector())
	}
	if _, err := s.Search(ctx, []float32{1, 1}, "ppo", 3); err != nil {
		t.Fatal(err)
	}
	q = lastQuery(t, srv)
	must := q.GetFilter().GetMust()
	if !q.GetParams().GetExact() || q.GetParams().HnswEf != nil || len(must) != 1 || must[0].GetField().GetKey() != "paper_id" || must[0].GetField().GetMatch().GetKeyword() != "ppo" {
		t.Errorf("paper query params %v filter %v; want exact and paper_id = ppo", q.GetParams(), q.GetFilter())
	}
	want := qdrant.ShardKeyOf("ppo", testShards)
	if ks := q.GetShardKeySelector().GetShardKeys(); len(ks) != 1 || ks[0].GetNumber() != want {
		t.Errorf("paper query shard keys %v, want only ppo's %d", ks, want)
	}
	if err := s.DeletePaper(ctx, "ppo"); err != nil {
		t.Fatal(err)
	}
	dels := srv.Requests("/qdrant.Points/Delete")
	d := dels[len(dels)-1].(*qc.DeletePoints)
	if ks := d.GetShardKeySelector().GetShardKeys(); len(ks) != 1 || ks[0].GetNumber() != want {
		t.Errorf("delete of paper ppo sent to shard keys %v", ks)
	}
}

func lastQuery(t *testing.T, srv *qdranttest.Server) *qc.QueryPoints {
	t.Helper()
	qs := srv.Requests("/qdrant.Points/Query")
	if len(qs) == 0 {
		t.Fatal("no query sent")
	}
	return qs[len(qs)-1].(*qc.QueryPoints)
}

// EF 0 (the Options zero value, and --qdrant-ef 0) makes corpus-wide
// search exact.
func TestEFZeroIsExact(t *testing.T) {
	srv := qdranttest.Start(t)
	s := open(t, srv.URL, "exact", 2)
	defer s.Close()
	ctx := context.Background()
	if err := s.Upsert(ctx, []vector.Point{{ID: "p#0", PaperID: "p", Vector: []float32{1, 0}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(ctx, []float32{1, 0}, "", 1); err != nil {
		t.Fatal(err)
	}
	if q := lastQuery(t, srv); !q.GetParams().GetExact() || q.GetParams().HnswEf != nil {
		t.Errorf("params %v, want exact", q.GetParams())
	}
}

// A reopened collection keeps its shard keys: no flag adopts them, another
// number is refused, and shard keys are refused on a collection made
// without them.
func TestShardsAtReopen(t *testing.T) {
	srv := qdranttest.Start(t)
	ctx := context.Background()
	s, err := qdrant.OpenWith(ctx, srv.URL, "keys", 2, qdrant.Options{Shards: 3})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	again, err := qdrant.OpenWith(ctx, srv.URL, "keys", 2, qdrant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Shards() != 3 {
		t.Errorf("reopened without --qdrant-shards: %d shard keys, want the collection's 3", again.Shards())
	}
	again.Close()
	if _, err := qdrant.OpenWith(ctx, srv.URL, "keys", 2, qdrant.Options{Shards: 2}); err == nil || !strings.Contains(err.Error(), "--qdrant-shards 3") {
		t.Errorf("reopened with --qdrant-shards 2: err = %v, want one saying the collection has 3", err)
	}
	plain := open(t, srv.URL, "plain", 2)
	plain.Close()
	if _, err := qdrant.OpenWith(ctx, srv.URL, "plain", 2, qdrant.Options{Shards: 2}); err == nil || !strings.Contains(err.Error(), "without shard keys") {
		t.Errorf("shard keys on a collection made without: err = %v", err)
	}
	if _, err := qdrant.OpenWith(ctx, srv.URL, "bad", 2, qdrant.Options{Shards: -1}); err == nil || !strings.Contains(err.Error(), "--qdrant-shards") {
		t.Errorf("negative shards: err = %v", err)
	}
}

// The BM25 collection has the bm25 sparse vector with Qdrant's IDF
// modifier and no dense vector, a keyword index on paper_id, and is
// searched through that named vector.
func TestSparseRequests(t *testing.T) {
	srv := qdranttest.Start(t)
	ctx := context.Background()
	s, err := qdrant.OpenSparse(ctx, srv.URL, "bm25", qdrant.Options{Shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	create := srv.Requests("/qdrant.Collections/Create")[0].(*qc.CreateCollection)
	sp := create.GetSparseVectorsConfig().GetMap()["bm25"]
	if sp == nil || sp.Modifier == nil || sp.GetModifier() != qc.Modifier_Idf || create.VectorsConfig != nil {
		t.Errorf("create: sparse config %v, dense %v; want sparse vector bm25 with modifier Idf and no dense vector", create.GetSparseVectorsConfig(), create.GetVectorsConfig())
	}
	if create.GetShardingMethod() != qc.ShardingMethod_Custom {
		t.Errorf("create: sharding %v, want Custom", create.GetShardingMethod())
	}
	if info, _ := srv.Collection("bm25"); info.Indexes["paper_id"] != qc.PayloadSchemaType_Keyword {
		t.Errorf("indexes %v, want keyword paper_id", info.Indexes)
	}
	doc := vector.SparseDoc{ID: "ppo#0", PaperID: "ppo", Indices: []uint32{7, 9}, Values: []float32{1.2, 0.5}}
	if err := s.UpsertSparse(ctx, []vector.SparseDoc{doc}); err != nil {
		t.Fatal(err)
	}
	ups := srv.Requests("/qdrant.Points/Upsert")
	u := ups[len(ups)-1].(*qc.UpsertPoints)
	if ks := u.GetShardKeySelector().GetShardKeys(); len(ks) != 1 || ks[0].GetNumber() != qdrant.ShardKeyOf("ppo", 2) {
		t.Errorf("sparse upsert shard keys %v", ks)
	}
	if v := u.GetPoints()[0].GetVectors().GetVectors().GetVectors()["bm25"].GetSparse(); v == nil || fmt.Sprint(v.GetIndices()) != "[7 9]" {
		t.Errorf("sparse upsert vectors %v, want named bm25 with indices [7 9]", u.GetPoints()[0].GetVectors())
	}
	if _, err := s.SearchSparse(ctx, []uint32{7}, []float32{1}, "ppo", 3); err != nil {
		t.Fatal(err)
	}
	q := lastQuery(t, srv)
	if q.GetUsing() != "bm25" || q.GetQuery().GetNearest().GetSparse() == nil || q.GetFilter().GetMust()[0].GetField().GetMatch().GetKeyword() != "ppo" || len(q.GetShardKeySelector().GetShardKeys()) != 1 {
		t.Errorf("sparse query using %q, query %v, filter %v, shards %v", q.GetUsing(), q.GetQuery(), q.GetFilter(), q.GetShardKeySelector())
	}

	// A collection without the IDF modifier is refused: its scores would
	// be term-frequency sums, not BM25.
	c := rawClient(t, srv.URL)
	if err := c.CreateCollection(ctx, &qc.CreateCollection{CollectionName: "noidf", SparseVectorsConfig: qc.NewSparseVectorsConfig(map[string]*qc.SparseVectorParams{"bm25": {}})}); err != nil {
		t.Fatal(err)
	}
	if _, err := qdrant.OpenSparse(ctx, srv.URL, "noidf", qdrant.Options{}); err == nil || !strings.Contains(err.Error(), "Idf") {
		t.Errorf("opening a sparse collection without IDF: err = %v", err)
	}
}

func rawClient(t *testing.T, url string) *qc.Client {
	t.Helper()
	hostPort := strings.TrimPrefix(url, "http://")
	i := strings.LastIndex(hostPort, ":")
	port, _ := strconv.Atoi(hostPort[i+1:])
	c, err := qc.NewClient(&qc.Config{Host: hostPort[:i], Port: port, SkipCompatibilityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// ShardKeyOf is FNV-1a 32 mod n, pinned by values computed outside Go
// (Python: h = 2166136261; for b in s: h = ((h ^ b) * 16777619) % 2**32):
// a change would send searches to shards that do not hold the paper.
func TestShardKeyOfPinned(t *testing.T) {
	for _, c := range []struct {
		paper string
		hash  uint64
	}{{"trpo", 1403740050}, {"2401.01234", 2418637074}, {"", 2166136261}} {
		for _, n := range []int{1, 3, 8} {
			if got := qdrant.ShardKeyOf(c.paper, n); got != c.hash%uint64(n) {
				t.Errorf("ShardKeyOf(%q, %d) = %d, want %d", c.paper, n, got, c.hash%uint64(n))
			}
		}
	}
}
