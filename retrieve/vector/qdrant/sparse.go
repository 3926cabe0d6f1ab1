package qdrant

import (
	"context"
	"fmt"
	"math"
	"sync"

	qc "github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/paperlens/paperlens/retrieve/vector"
)

// minSparseScore is the least score a sparse match must have: above 0,
// and far below any score a shared term gives (Qdrant's idf is at least
// ln(1 + 0.5/(N + 0.5)), about 5e-8 at ten million passages, times a
// positive BM25 weight).
const minSparseScore = 1e-20

// SparseVector is the name of the sparse vector in a BM25 collection:
// Qdrant names every sparse vector, and paperlens uses one.
const SparseVector = "bm25"

// SparseStore is a vector.SparseStore on a Qdrant collection of sparse
// vectors with the IDF modifier: Qdrant multiplies each query term's count
// by ln((N − n + 0.5)/(n + 0.5) + 1), N the points and n those holding the
// term, counted over the shard being searched, and scores a point by the
// dot product with its stored BM25 term weights. That is BM25 with Lucene's
// always-positive idf, served by the cluster.
type SparseStore struct {
	client     *qc.Client
	url        string
	collection string
	opt        Options

	mu      sync.RWMutex // guards created, shards and closed
	created bool
	shards  sharding
	closed  bool
}

var _ vector.SparseStore = (*SparseStore)(nil)

// OpenSparse opens (creating when missing) the BM25 collection at rawURL,
// with the sharding of opt (its EF is unused: sparse search is always
// exact, through Qdrant's inverted index).
func OpenSparse(ctx context.Context, rawURL, collection string, opt Options) (*SparseStore, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	client, _, err := dial(ctx, rawURL, collection)
	if err != nil {
		return nil, err
	}
	s := &SparseStore{client: client, url: rawURL, collection: collection, opt: opt}
	if err := s.ensure(ctx); err != nil {
		client.Close()
		return nil, err
	}
	return s, nil
}

func (s *SparseStore) label() string {
	return fmt.Sprintf("Qdrant BM25 collection %q at %s", s.collection, s.url)
}

// ensure adopts the collection after checking it has the bm25 sparse
// vector with the IDF modifier, or creates it. Callers hold s.mu or own s.
func (s *SparseStore) ensure(ctx context.Context) error {
	exists, err := existing(ctx, s.client, s.collection, s.url, s.label())
	if err != nil {
		return err
	}
	if !exists {
		return s.create(ctx)
	}
	info, err := s.client.GetCollectionInfo(ctx, s.collection)
	if err != nil {
		return fmt.Errorf("%s: %w", s.label(), err)
	}
	params := info.GetConfig().GetParams()
	sp, ok := params.GetSparseVectorsConfig().GetMap()[SparseVector]
	if !ok {
		return fmt.Errorf("%s has no sparse vector %q: it was not made by paperlens; pass another --collection", s.label(), SparseVector)
	}
	if sp.GetModifier() != qc.Modifier_Idf {
		return fmt.Errorf("%s: sparse vector %q has modifier %s, BM25 needs Idf: drop the collection or pass another --collection", s.label(), SparseVector, sp.GetModifier())
	}
	if s.shards, err = adoptSharding(ctx, s.client, s.collection, s.label(), params, s.opt.Shards); err != nil {
		return err
	}
	if _, ok := info.GetPayloadSchema()[keyPaper]; !ok {
		if err := indexPaper(ctx, s.client, s.collection, s.label()); err != nil {
			return err
		}
	}
	s.created = true
	return nil
}

func (s *SparseStore) create(ctx context.Context) error {
	req := &qc.CreateCollection{
		CollectionName: s.collection,
		SparseVectorsConfig: qc.NewSparseVectorsConfig(map[string]*qc.SparseVectorParams{
			SparseVector: {Modifier: qc.Modifier_Idf.Enum()},
		}),
	}
	sh := sharding{n: s.opt.Shards}
	sh.createParams(req)
	if err := s.client.CreateCollection(ctx, req); err != nil {
		// Another process may have created it since we looked.
		if exists, e := s.client.CollectionExists(ctx, s.collection); e == nil && exists {
			return s.ensure(ctx)
		}
		return fmt.Errorf("create %s: %w", s.label(), err)
	}
	if err := sh.createKeys(ctx, s.client, s.collection, s.label(), 0); err != nil {
		return err
	}
	if err := indexPaper(ctx, s.client, s.collection, s.label()); err != nil {
		return err
	}
	s.shards, s.created = sh, true
	return nil
}

// use runs fn under the read lock, creating the collection first if a Drop
// removed it.
func (s *SparseStore) use(ctx context.Context, fn func(sh sharding) error) error {
	s.mu.RLock()
	if !s.closed && !s.created {
		s.mu.RUnlock()
		s.mu.Lock()
		var err error
		if !s.closed && !s.created {
			err = s.ensure(ctx)
		}
		s.mu.Unlock()
		if err != nil {
			return err
		}
		s.mu.RLock()
	}
	defer s.mu.RUnlock()
	if s.closed {
		return vector.ErrClosed
	}
	return fn(s.shards)
}

// Name implements vector.SparseStore.
func (s *SparseStore) Name() string { return "qdrant" }

// Collection is the collection's name.
func (s *SparseStore) Collection() string { return s.collection }

// Shards is the number of shard keys of the collection; 0 when Qdrant
// places points itself.
func (s *SparseStore) Shards() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.shards.n
}

// UpsertSparse implements vector.SparseStore. Docs are checked whole before
// any is sent; each batch is written with wait=true, so a returned call is
// searchable.
func (s *SparseStore) UpsertSparse(ctx context.Context, docs []vector.SparseDoc) error {
	if err := checkSparse(docs); err != nil {
		return fmt.Errorf("upsert into %s: %w", s.label(), err)
	}
	if len(docs) == 0 {
		return nil
	}
	docs = dedupeSparse(docs)
	return s.use(ctx, func(sh sharding) error {
		for _, group := range byShard(docs, sh, func(d vector.SparseDoc) string { return d.PaperID }) {
			for start := 0; start < len(group); start += BatchSize {
				if err := s.upsertBatch(ctx, group[start:min(start+BatchSize, len(group))], sh); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (s *SparseStore) upsertBatch(ctx context.Context, batch []vector.SparseDoc, sh sharding) error {
	pts := make([]*qc.PointStruct, len(batch))
	ids := make([]*qc.PointId, len(batch))
	for i, d := range batch {
		ids[i] = qc.NewIDUUID(PointID(d.ID))
		pts[i] = &qc.PointStruct{
			Id:      ids[i],
			Vectors: qc.NewVectorsMap(map[string]*qc.Vector{SparseVector: qc.NewVectorSparse(d.Indices, d.Values)}),
			Payload: map[string]*qc.Value{
				keyPassage: qc.NewValueString(d.ID),
				keyPaper:   qc.NewValueString(d.PaperID),
			},
		}
	}
	if err := deleteElsewhere(ctx, s.client, s.collection, s.label(), ids, sh, batch[0].PaperID); err != nil {
		return err
	}
	_, err := s.client.Upsert(ctx, &qc.UpsertPoints{
		CollectionName:   s.collection,
		Wait:             qc.PtrOf(true),
		Points:           pts,
		ShardKeySelector: sh.selector(batch[0].PaperID),
	})
	if err != nil {
		return fmt.Errorf("upsert %d BM25 vectors (from %q) into %s: %w", len(batch), batch[0].ID, s.label(), err)
	}
	return nil
}

// checkSparse refuses what Qdrant would refuse, or paperlens could not
// search: no id or paper, indices and values of different lengths, a
// repeated index, a non-finite value.
func checkSparse(docs []vector.SparseDoc) error {
	for _, d := range docs {
		switch {
		case d.ID == "":
			return fmt.Errorf("sparse vector with empty id (paper %q)", d.PaperID)
		case d.PaperID == "":
			return fmt.Errorf("sparse vector %q: empty paper id", d.ID)
		case len(d.Indices) != len(d.Values):
			return fmt.Errorf("sparse vector %q: %d indices but %d values", d.ID, len(d.Indices), len(d.Values))
		}
		seen := make(map[uint32]bool, len(d.Indices))
		for i, ix := range d.Indices {
			if seen[ix] {
				return fmt.Errorf("sparse vector %q: index %d appears twice; sum its values into one", d.ID, ix)
			}
			seen[ix] = true
			if v := float64(d.Values[i]); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("sparse vector %q: value %v at index %d is not finite", d.ID, d.Values[i], ix)
			}
		}
	}
	return nil
}

// dedupeSparse keeps the last doc per ID, as dedupe does for points.
func dedupeSparse(docs []vector.SparseDoc) []vector.SparseDoc {
	idx := make(map[string]int, len(docs))
	out := make([]vector.SparseDoc, 0, len(docs))
	for _, d := range docs {
		if i, ok := idx[d.ID]; ok {
			out[i] = d
			continue
		}
		idx[d.ID] = len(out)
		out = append(out, d)
	}
	return out
}

// DeletePaper implements vector.SparseStore, on the paper's shard only.
func (s *SparseStore) DeletePaper(ctx context.Context, paperID string) error {
	return s.use(ctx, func(sh sharding) error {
		return deletePaper(ctx, s.client, s.collection, s.label(), paperID, sh)
	})
}

// SearchSparse implements vector.SparseStore: the k passages with the best
// IDF-weighted dot product with the query's term counts, within paperID
// (through the paper_id index, on its shard) unless it is empty. Passages
// sharing no term with the query score nothing and are not returned.
func (s *SparseStore) SearchSparse(ctx context.Context, indices []uint32, values []float32, paperID string, k int) ([]vector.Match, error) {
	if err := vector.CheckK(k); err != nil {
		return nil, err
	}
	if len(indices) != len(values) {
		return nil, fmt.Errorf("sparse search: %d indices but %d values", len(indices), len(values))
	}
	if len(indices) == 0 {
		return []vector.Match{}, nil
	}
	var ms []vector.Match
	err := s.use(ctx, func(sh sharding) error {
		req := &qc.QueryPoints{
			CollectionName: s.collection,
			Query:          qc.NewQuerySparse(indices, values),
			Using:          qc.PtrOf(SparseVector),
			WithPayload:    qc.NewWithPayloadInclude(keyPassage, keyPaper),
			// A passage sharing no term with the query scores 0; a plain
			// (unindexed) search may still return it, and a run of such
			// ties would make query fetch on to the end of the collection.
			ScoreThreshold: qc.PtrOf(float32(minSparseScore)),
		}
		if paperID != "" {
			req.Filter, req.ShardKeySelector = paperFilter(paperID), sh.selector(paperID)
		}
		var err error
		ms, err = query(ctx, s.client, req, k, s.label())
		return err
	})
	return ms, err
}

// Count is the number of stored passages.
func (s *SparseStore) Count(ctx context.Context) (int, error) {
	var n uint64
	err := s.use(ctx, func(sharding) error {
		var err error
		n, err = s.client.Count(ctx, &qc.CountPoints{CollectionName: s.collection, Exact: qc.PtrOf(true)})
		if err != nil {
			return fmt.Errorf("count %s: %w", s.label(), err)
		}
		return nil
	})
	return int(n), err
}

// Drop deletes the whole collection, for a rebuild (new avgdl, new
// analyzer) and tests; the next write recreates it.
func (s *SparseStore) Drop(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return vector.ErrClosed
	}
	_, err := s.client.GetCollectionsClient().Delete(ctx, &qc.DeleteCollection{CollectionName: s.collection})
	if err != nil && status.Code(err) != codes.NotFound {
		return fmt.Errorf("drop %s: %w", s.label(), err)
	}
	s.created, s.shards = false, sharding{}
	return nil
}

// Close implements vector.SparseStore.
func (s *SparseStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.client.Close()
}
