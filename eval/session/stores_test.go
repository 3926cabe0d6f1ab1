package session

import (
	"context"
	"strings"
	"testing"

	qc "github.com/qdrant/go-client/qdrant"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
)

// The store settings reach the stores an index opens: the dense collection
// with its shard keys, the BM25 collection beside it with the IDF
// modifier, both on the --qdrant server.
func TestIndexConfigOpensQdrantStores(t *testing.T) {
	srv := qdranttest.Start(t)
	x := Index{Store: "qdrant", QdrantURL: srv.URL, Collection: "papers", QdrantShards: 2, QdrantEF: 64, BM25Store: "qdrant"}
	if err := x.Check(); err != nil {
		t.Fatal(err)
	}
	cfg := x.Config(t.TempDir())
	if cfg.BM25Store != "qdrant" || cfg.OpenStore == nil || cfg.OpenSparse == nil {
		t.Fatalf("index config %+v", cfg)
	}
	ctx := context.Background()
	vs, err := cfg.OpenStore(ctx, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer vs.Close()
	ss, err := cfg.OpenSparse(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	dense, ok := srv.Collection("papers")
	if !ok || !dense.Custom || len(dense.Shards) != 2 || dense.Size != 4 {
		t.Errorf("dense collection %+v, want 2 shard keys of dimension 4", dense)
	}
	sparse, ok := srv.Collection("papers" + SparseSuffix)
	if !ok || !sparse.Custom || sparse.Sparse["bm25"] != qc.Modifier_Idf {
		t.Errorf("BM25 collection %+v, want the bm25 sparse vector with IDF and shard keys", sparse)
	}
}

func TestIndexCheck(t *testing.T) {
	for _, x := range []Index{{Store: "faiss"}, {BM25Store: "elastic"}, {QdrantShards: -1}, {QdrantEF: -2}} {
		if err := x.Check(); err == nil || !strings.Contains(err.Error(), "--") {
			t.Errorf("%+v: err = %v, want one naming the flag", x, err)
		}
	}
	x := Index{BM25Store: "qdrant"}
	t.Setenv("QDRANT_URL", "")
	if _, err := x.Config(t.TempDir()).OpenSparse(context.Background()); err == nil || !strings.Contains(err.Error(), "--qdrant") {
		t.Errorf("--bm25-store qdrant without a URL: err = %v", err)
	}
}
