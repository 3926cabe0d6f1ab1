package qdrant

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"

	qc "github.com/qdrant/go-client/qdrant"
)

// DefaultEF is the HNSW ef of a corpus-wide search (--qdrant-ef): how many
// candidates the graph walk keeps. Qdrant's own default is its ef_construct,
// 100. 128 is above every k a corpus-wide search asks for by default (the
// reranker's 30 candidates, searchExcluding's 2k+8), so the walk never has
// to widen for the limit, and the HNSW literature (and Qdrant's benchmarks
// at m=16, ef_construct=100) puts recall@10 at ef≈128 above 0.99 for
// embedding vectors of a few hundred dimensions, at a fraction of a full
// scan's cost once a shard holds more than a few tens of thousands of
// points. Within one paper searches are always exact (see Store.Search).
const DefaultEF = 128

// Options are what Open and OpenSparse do beyond the defaults.
type Options struct {
	// Shards is the number of shard keys a new collection is created with
	// (--qdrant-shards): 0 leaves sharding to Qdrant (one shard on a single
	// node, one per node on a cluster, points placed by id); N > 0 uses
	// Qdrant's custom sharding with N keys, 0…N-1, one shard each, and puts
	// every paper on key ShardKeyOf(paper, N), so a paper's passages live
	// on one shard and a search or delete within a paper touches only that
	// shard. An existing collection keeps the keys it was created with: 0
	// adopts them, another N is refused.
	Shards int
	// EF is hnsw_ef of corpus-wide searches; 0 makes them exact (every
	// point scored: the embedded store's ranking, at a full scan's cost).
	EF int
}

func (o Options) check() error {
	if o.Shards < 0 {
		return fmt.Errorf("qdrant: --qdrant-shards %d: give 0 (Qdrant's default sharding) or a positive number of shard keys", o.Shards)
	}
	if o.EF < 0 {
		return fmt.Errorf("qdrant: --qdrant-ef %d: give 0 (exact search) or a positive HNSW ef such as %d", o.EF, DefaultEF)
	}
	return nil
}

// ShardKeyOf is the shard key of a paper in a collection of n shard keys:
// FNV-1a (32-bit) of the paper id, modulo n. FNV-1a is fixed by its
// definition, so any process, in any language, puts a paper where paperlens
// does, and it spreads ids like "trpo" or "2401.01234" evenly enough that
// shards differ in size by papers, not by orders of magnitude. Changing it
// would send searches to shards that do not hold the paper.
func ShardKeyOf(paperID string, n int) uint64 {
	h := fnv.New32a()
	h.Write([]byte(paperID))
	return uint64(h.Sum32() % uint32(n))
}

// sharding is a collection's custom sharding: n shard keys, or none (0).
type sharding struct{ n int }

// selector routes a request about one paper to its shard, or nil (every
// shard) when the collection has no shard keys.
func (sh sharding) selector(paperID string) *qc.ShardKeySelector {
	if sh.n == 0 {
		return nil
	}
	return &qc.ShardKeySelector{ShardKeys: []*qc.ShardKey{qc.NewShardKeyNum(ShardKeyOf(paperID, sh.n))}}
}

// key is the shard key of a paper, for grouping writes; 0 without keys.
func (sh sharding) key(paperID string) uint64 {
	if sh.n == 0 {
		return 0
	}
	return ShardKeyOf(paperID, sh.n)
}

// createParams sets a new collection's sharding: custom with one shard per
// key when keys are asked for, Qdrant's default otherwise.
func (sh sharding) createParams(req *qc.CreateCollection) {
	if sh.n == 0 {
		return
	}
	req.ShardingMethod = qc.ShardingMethod_Custom.Enum()
	// With custom sharding shard_number is the number of shards per key.
	req.ShardNumber = qc.PtrOf(uint32(1))
}

// adoptSharding reads an existing collection's sharding and reconciles it
// with the asked-for number of keys (want, 0: whatever it has), creating
// keys a creator killed half-way did not.
func adoptSharding(ctx context.Context, client *qc.Client, collection, label string, params *qc.CollectionParams, want int) (sharding, error) {
	if params.GetShardingMethod() != qc.ShardingMethod_Custom {
		if want > 0 {
			return sharding{}, fmt.Errorf("%s was created without shard keys; --qdrant-shards %d needs a collection of its own: pass another --collection, or drop the flag", label, want)
		}
		return sharding{}, nil
	}
	descs, err := client.ListShardKeys(ctx, collection)
	if err != nil {
		return sharding{}, fmt.Errorf("list the shard keys of %s: %w", label, err)
	}
	var have []uint64
	for _, d := range descs {
		k, ok := d.GetKey().GetKey().(*qc.ShardKey_Number)
		if !ok {
			return sharding{}, fmt.Errorf("%s has the keyword shard key %q: it was not made by paperlens, whose keys are the numbers 0…N-1; pass another --collection", label, d.GetKey().GetKeyword())
		}
		have = append(have, k.Number)
	}
	slices.Sort(have)
	n := want
	if n == 0 {
		n = len(have)
	}
	for i, k := range have {
		if k != uint64(i) || i >= n {
			return sharding{}, fmt.Errorf("%s has shard keys %v, not 0…%d: created with another --qdrant-shards? Pass --qdrant-shards %d, or another --collection", label, have, n-1, len(have))
		}
	}
	if n == 0 {
		return sharding{}, fmt.Errorf("%s uses custom sharding but has no shard key: drop it, or pass --qdrant-shards N to create the keys", label)
	}
	sh := sharding{n: n}
	return sh, sh.createKeys(ctx, client, collection, label, len(have))
}

// createKeys creates shard keys from…n-1. A key another process created
// meanwhile is not an error.
func (sh sharding) createKeys(ctx context.Context, client *qc.Client, collection, label string, from int) error {
	for k := from; k < sh.n; k++ {
		err := client.CreateShardKey(ctx, collection, &qc.CreateShardKey{ShardKey: qc.NewShardKeyNum(uint64(k))})
		if err == nil {
			continue
		}
		descs, lerr := client.ListShardKeys(ctx, collection)
		if lerr == nil && slices.ContainsFunc(descs, func(d *qc.ShardKeyDescription) bool { return d.GetKey().GetNumber() == uint64(k) }) {
			continue
		}
		return fmt.Errorf("create shard key %d of %s: %w (is the server a Qdrant with distributed mode enabled? custom sharding needs it)", k, label, err)
	}
	return nil
}

// indexPaper creates the keyword payload index on paper_id, which makes a
// per-paper filter an index lookup rather than a scan.
func indexPaper(ctx context.Context, client *qc.Client, collection, label string) error {
	_, err := client.CreateFieldIndex(ctx, &qc.CreateFieldIndexCollection{
		CollectionName: collection,
		FieldName:      keyPaper,
		FieldType:      qc.FieldType_FieldTypeKeyword.Enum(),
		Wait:           qc.PtrOf(true),
	})
	if err != nil {
		return fmt.Errorf("index %s on %s: %w", keyPaper, label, err)
	}
	return nil
}
