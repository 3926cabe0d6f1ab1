package qdrant

import (
	"context"
	"crypto/sha1"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	qc "github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/paperlens/paperlens/retrieve/vector"
)

// Payload keys. paper_id carries a keyword index so per-paper searches and
// deletes are index lookups, not scans of the collection.
const (
	keyPaper   = "paper_id"
	keyPassage = "passage_id"
)

// BatchSize is the number of points per upsert request: large enough to
// amortise the round trip, small enough to stay far below gRPC's 4 MB
// default message limit even at 1,536 dimensions.
const BatchSize = 256

// DefaultPort is Qdrant's gRPC port, used when the URL names none.
const DefaultPort = 6334

// connectTimeout bounds the reachability check at Open: a stopped server
// refuses at once, but a firewalled host would otherwise hang until the
// caller's deadline, if any.
const connectTimeout = 3 * time.Second

// APIKeyEnv names the environment variable holding the API key, kept out
// of URLs and flags so it does not land in shell history or run records.
const APIKeyEnv = "QDRANT_API_KEY"

// Store is a vector.Store on a Qdrant collection, reached over gRPC.
type Store struct {
	client     *qc.Client
	url        string
	port       int
	collection string
	opt        Options

	mu     sync.RWMutex // guards dim, shards and closed
	dim    int
	shards sharding
	closed bool
}

var _ vector.Store = (*Store)(nil)

// Open connects to the Qdrant server at rawURL (e.g. http://localhost:6334;
// https for TLS; the API key, if any, from $QDRANT_API_KEY) and opens the
// collection, creating it with cosine distance when it does not exist. Its
// searches are exact and it has no shard keys: OpenWith says otherwise.
//
// dim is the dimension the caller will use. When the collection exists with
// another dimension, Open fails with vector.ErrDimension. When it does not
// exist and dim is 0, it is created by the first Upsert.
func Open(ctx context.Context, rawURL, collection string, dim int) (*Store, error) {
	return OpenWith(ctx, rawURL, collection, dim, Options{})
}

// OpenWith is Open with sharding and HNSW settings (see Options).
func OpenWith(ctx context.Context, rawURL, collection string, dim int, opt Options) (*Store, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	client, port, err := dial(ctx, rawURL, collection)
	if err != nil {
		return nil, err
	}
	s := &Store{client: client, url: rawURL, port: port, collection: collection, opt: opt}
	if err := s.ensureCollection(ctx, dim); err != nil {
		client.Close()
		return nil, err
	}
	return s, nil
}

// dial connects and checks that the server answers.
func dial(ctx context.Context, rawURL, collection string) (*qc.Client, int, error) {
	if collection == "" {
		return nil, 0, errors.New("qdrant: empty collection name")
	}
	cfg, err := parseURL(rawURL)
	if err != nil {
		return nil, 0, err
	}
	cfg.APIKey = os.Getenv(APIKeyEnv)
	// One connection multiplexes concurrent requests over HTTP/2; the
	// client's own version check is skipped because it dials with a
	// one-minute timeout, and Open checks reachability itself, faster.
	cfg.PoolSize = 1
	cfg.SkipCompatibilityCheck = true
	client, err := qc.NewClient(cfg)
	if err != nil {
		return nil, 0, fmt.Errorf("qdrant client for %s: %w", rawURL, err)
	}
	if err := ping(ctx, client, rawURL, cfg.Port); err != nil {
		client.Close()
		return nil, 0, err
	}
	return client, cfg.Port, nil
}

// parseURL accepts http://host:port, https://host:port, or a bare
// host[:port]; the port defaults to 6334, gRPC's, whatever the scheme.
func parseURL(raw string) (*qc.Config, error) {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("qdrant URL %q: %w", raw, err)
	}
	cfg := &qc.Config{Host: u.Hostname(), Port: DefaultPort}
	switch u.Scheme {
	case "http":
	case "https":
		cfg.UseTLS = true
	default:
		return nil, fmt.Errorf("qdrant URL %q: scheme %q, want http or https", raw, u.Scheme)
	}
	if cfg.Host == "" {
		return nil, fmt.Errorf("qdrant URL %q: no host", raw)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("qdrant URL %q: bad port %q", raw, p)
		}
		cfg.Port = n
	}
	if u.Path != "" && u.Path != "/" {
		return nil, fmt.Errorf("qdrant URL %q: paths are not supported by the gRPC API; give only scheme, host and port", raw)
	}
	return cfg, nil
}

// ping fails fast, with what to do about it, when nothing answers gRPC at
// the URL: the client itself connects lazily and would otherwise fail on
// the first real request with a bare "connection refused".
func ping(ctx context.Context, client *qc.Client, url string, port int) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	_, err := client.HealthCheck(ctx)
	if err == nil {
		return nil
	}
	if c := status.Code(err); c == codes.Unauthenticated || c == codes.PermissionDenied {
		return fmt.Errorf("the Qdrant server at %s refused the API key (from $%s): %w", url, APIKeyEnv, err)
	}
	hint := "start it with 'docker compose up -d qdrant' or drop --store qdrant"
	if port == 6333 {
		hint = "6333 is Qdrant's REST port; paperlens speaks gRPC, by default on 6334"
	}
	return fmt.Errorf("cannot reach Qdrant at %s: %w; %s", url, err, hint)
}

// existing reports whether a collection exists, naming a refused API key
// as such: some servers answer health checks without a key but nothing
// else.
func existing(ctx context.Context, client *qc.Client, collection, url, label string) (bool, error) {
	exists, err := client.CollectionExists(ctx, collection)
	if err != nil {
		if c := status.Code(err); c == codes.Unauthenticated || c == codes.PermissionDenied {
			return false, fmt.Errorf("the Qdrant server at %s refused the API key (from $%s): %w", url, APIKeyEnv, err)
		}
		return false, fmt.Errorf("%s: %w", label, err)
	}
	return exists, nil
}

func (s *Store) label() string {
	return fmt.Sprintf("Qdrant collection %q at %s", s.collection, s.url)
}

// ensureCollection adopts an existing collection after checking its shape,
// or creates one when dim is known.
func (s *Store) ensureCollection(ctx context.Context, dim int) error {
	exists, err := existing(ctx, s.client, s.collection, s.url, s.label())
	if err != nil {
		return err
	}
	if !exists {
		if dim == 0 {
			return nil // created by the first Upsert, which knows the dimension
		}
		return s.create(ctx, dim)
	}
	info, err := s.client.GetCollectionInfo(ctx, s.collection)
	if err != nil {
		return fmt.Errorf("%s: %w", s.label(), err)
	}
	params := info.GetConfig().GetParams().GetVectorsConfig().GetParams()
	if params == nil {
		return fmt.Errorf("%s uses named or no vectors; paperlens needs one unnamed vector per point: use another collection", s.label())
	}
	if params.GetDistance() != qc.Distance_Cosine {
		return fmt.Errorf("%s uses %s distance, paperlens needs Cosine: use another collection", s.label(), params.GetDistance())
	}
	have := int(params.GetSize())
	if dim != 0 && dim != have {
		return &vector.DimensionError{Store: s.label(), Want: have, Got: dim}
	}
	if s.shards, err = adoptSharding(ctx, s.client, s.collection, s.label(), info.GetConfig().GetParams(), s.opt.Shards); err != nil {
		return err
	}
	s.dim = have
	if _, ok := info.GetPayloadSchema()[keyPaper]; !ok {
		return indexPaper(ctx, s.client, s.collection, s.label())
	}
	return nil
}

func (s *Store) create(ctx context.Context, dim int) error {
	req := &qc.CreateCollection{
		CollectionName: s.collection,
		VectorsConfig:  qc.NewVectorsConfig(&qc.VectorParams{Size: uint64(dim), Distance: qc.Distance_Cosine}),
	}
	sh := sharding{n: s.opt.Shards}
	sh.createParams(req)
	err := s.client.CreateCollection(ctx, req)
	if err != nil {
		// Another process may have created it since we looked (Qdrant
		// versions differ in the status code they give for that): if it
		// exists now, adopt it, which also checks its dimension.
		if exists, e := s.client.CollectionExists(ctx, s.collection); e == nil && exists {
			return s.ensureCollection(ctx, dim)
		}
		return fmt.Errorf("create %s: %w", s.label(), err)
	}
	if err := sh.createKeys(ctx, s.client, s.collection, s.label(), 0); err != nil {
		return err
	}
	if err := indexPaper(ctx, s.client, s.collection, s.label()); err != nil {
		return err
	}
	s.dim, s.shards = dim, sh
	return nil
}

// Shards is the number of shard keys the collection has; 0 when Qdrant
// places points itself.
func (s *Store) Shards() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.shards.n
}

// Name implements vector.Store.
func (s *Store) Name() string { return "qdrant" }

// Collection is the collection's name.
func (s *Store) Collection() string { return s.collection }

// URL is the server URL the store was opened with.
func (s *Store) URL() string { return s.url }

// Dim implements vector.Store.
func (s *Store) Dim() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.dim
}

// state returns the dimension, or ErrClosed.
func (s *Store) state() (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, vector.ErrClosed
	}
	return s.dim, nil
}

// use runs fn holding the read lock, so that Close waits for calls in
// flight: the client's connection pool panics when used after Close.
func (s *Store) use(fn func(dim int, sh sharding) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return vector.ErrClosed
	}
	return fn(s.dim, s.shards)
}

// PointID is the Qdrant point id of a passage: a name-based (version 5,
// SHA-1) UUID of the passage id, since Qdrant accepts only integers and
// UUIDs. Deterministic, so re-indexing a passage overwrites its point.
func PointID(passageID string) string {
	h := sha1.New()
	h.Write(namespace[:])
	h.Write([]byte(passageID))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// namespace is the UUID namespace of paperlens passage ids
// (b3e4f0c2-6a1d-4c8e-9f57-2d0a7c5e1b94). Changing it would orphan every
// point already stored.
var namespace = [16]byte{0xb3, 0xe4, 0xf0, 0xc2, 0x6a, 0x1d, 0x4c, 0x8e, 0x9f, 0x57, 0x2d, 0x0a, 0x7c, 0x5e, 0x1b, 0x94}

// Upsert implements vector.Store. Batches are sent with wait=true, so a
// returned Upsert is searchable; a failure part-way leaves earlier batches
// stored, which re-running the index build repairs.
func (s *Store) Upsert(ctx context.Context, pts []vector.Point) error {
	dim, err := s.state()
	if err != nil {
		return err
	}
	got, err := vector.CheckPoints(s.label(), dim, pts)
	if err != nil {
		return fmt.Errorf("upsert: %w", err)
	}
	if len(pts) == 0 {
		return nil
	}
	if dim == 0 {
		if err := s.createOnFirstUpsert(ctx, got); err != nil {
			return err
		}
	}
	pts = dedupe(pts)
	return s.use(func(_ int, sh sharding) error { return s.upsert(ctx, pts, sh) })
}

// upsert writes points a shard key at a time. With custom sharding Qdrant
// keeps point ids unique only within a key, so a passage that moved to a
// paper on another key is first deleted from the others.
func (s *Store) upsert(ctx context.Context, pts []vector.Point, sh sharding) error {
	for _, group := range byShard(pts, sh, func(p vector.Point) string { return p.PaperID }) {
		for start := 0; start < len(group); start += BatchSize {
			batch := group[start:min(start+BatchSize, len(group))]
			if err := s.upsertBatch(ctx, batch, sh); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Store) upsertBatch(ctx context.Context, batch []vector.Point, sh sharding) error {
	structs := make([]*qc.PointStruct, len(batch))
	ids := make([]*qc.PointId, len(batch))
	for i, p := range batch {
		ids[i] = qc.NewIDUUID(PointID(p.ID))
		structs[i] = &qc.PointStruct{
			Id:      ids[i],
			Vectors: qc.NewVectorsDense(p.Vector),
			Payload: map[string]*qc.Value{
				keyPassage: qc.NewValueString(p.ID),
				keyPaper:   qc.NewValueString(p.PaperID),
			},
		}
	}
	if err := deleteElsewhere(ctx, s.client, s.collection, s.label(), ids, sh, batch[0].PaperID); err != nil {
		return err
	}
	_, err := s.client.Upsert(ctx, &qc.UpsertPoints{
		CollectionName:   s.collection,
		Wait:             qc.PtrOf(true),
		Points:           structs,
		ShardKeySelector: sh.selector(batch[0].PaperID),
	})
	if err != nil {
		return fmt.Errorf("upsert %d points (from %q) into %s: %w", len(batch), batch[0].ID, s.label(), err)
	}
	return nil
}

// byShard splits items by the shard key of their paper, keeping their order
// within a key; keys in ascending order. Without shard keys it is one group.
func byShard[T any](items []T, sh sharding, paper func(T) string) [][]T {
	if sh.n <= 1 {
		return [][]T{items}
	}
	groups := make([][]T, sh.n)
	for _, it := range items {
		k := sh.key(paper(it))
		groups[k] = append(groups[k], it)
	}
	out := groups[:0]
	for _, g := range groups {
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// deleteElsewhere deletes points by id from every shard key but paperID's:
// see upsert. Nothing to do with fewer than two keys.
func deleteElsewhere(ctx context.Context, client *qc.Client, collection, label string, ids []*qc.PointId, sh sharding, paperID string) error {
	if sh.n < 2 {
		return nil
	}
	own := sh.key(paperID)
	others := make([]*qc.ShardKey, 0, sh.n-1)
	for k := range uint64(sh.n) {
		if k != own {
			others = append(others, qc.NewShardKeyNum(k))
		}
	}
	_, err := client.Delete(ctx, &qc.DeletePoints{
		CollectionName:   collection,
		Wait:             qc.PtrOf(true),
		Points:           qc.NewPointsSelectorIDs(ids),
		ShardKeySelector: &qc.ShardKeySelector{ShardKeys: others},
	})
	if err != nil {
		return fmt.Errorf("remove %d points from the other shards of %s before writing them: %w", len(ids), label, err)
	}
	return nil
}

func (s *Store) createOnFirstUpsert(ctx context.Context, dim int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dim != 0 {
		if s.dim != dim {
			return &vector.DimensionError{Store: s.label(), Want: s.dim, Got: dim}
		}
		return nil
	}
	// Creates the collection, or adopts (and checks) one that another
	// process created since Open.
	return s.ensureCollection(ctx, dim)
}

// dedupe keeps the last point per ID: Qdrant does not promise which of two
// same-ID points in one request wins.
func dedupe(pts []vector.Point) []vector.Point {
	idx := make(map[string]int, len(pts))
	out := make([]vector.Point, 0, len(pts))
	for _, p := range pts {
		if i, ok := idx[p.ID]; ok {
			out[i] = p
			continue
		}
		idx[p.ID] = len(out)
		out = append(out, p)
	}
	return out
}

func paperFilter(paperID string) *qc.Filter {
	return &qc.Filter{Must: []*qc.Condition{qc.NewMatchKeyword(keyPaper, paperID)}}
}

// tieMargin is how many extra candidates a search asks for: Qdrant breaks
// equal scores by its own internal order, not by passage id, so results are
// fetched past k and re-sorted, and fetched further while the tie at rank
// k continues to the end of what was fetched.
const tieMargin = 8

// largeK is the k above which a search first counts the candidates.
const largeK = 10_000

// Search implements vector.Store. Within one paper the search is exact,
// through the paper_id index and on the paper's shard only: a paper's few
// hundred points are scored outright, so its ranking is the embedded
// store's. Corpus-wide it walks the HNSW graph with Options.EF (exact when
// EF is 0), which on a large collection is what keeps it from scoring
// every point; equal scores are ordered by passage id either way.
func (s *Store) Search(ctx context.Context, vec []float32, paperID string, k int) ([]vector.Match, error) {
	if err := vector.CheckK(k); err != nil {
		return nil, err
	}
	var ms []vector.Match
	err := s.use(func(dim int, sh sharding) error {
		if dim == 0 {
			ms = []vector.Match{}
			return nil
		}
		if len(vec) != dim {
			return fmt.Errorf("vector search: %w", &vector.DimensionError{Store: s.label(), Want: dim, Got: len(vec)})
		}
		q, err := vector.Normalize(nil, vec)
		if err != nil {
			return fmt.Errorf("vector search: query: %w", err)
		}
		req := &qc.QueryPoints{
			CollectionName: s.collection,
			Query:          qc.NewQueryDense(q),
			Params:         s.params(paperID),
			WithPayload:    qc.NewWithPayloadInclude(keyPassage, keyPaper),
		}
		if paperID != "" {
			req.Filter, req.ShardKeySelector = paperFilter(paperID), sh.selector(paperID)
		}
		ms, err = query(ctx, s.client, req, k, s.label())
		return err
	})
	return ms, err
}

// params are the search parameters of a query within paperID ("" for the
// whole corpus).
func (s *Store) params(paperID string) *qc.SearchParams {
	if paperID != "" || s.opt.EF == 0 {
		return &qc.SearchParams{Exact: qc.PtrOf(true)}
	}
	return &qc.SearchParams{HnswEf: qc.PtrOf(uint64(s.opt.EF))}
}

// query runs a search for the k best points, ordered as vector.SortMatches
// orders them: past k while the k-th score is tied, since Qdrant orders
// equal scores its own way.
func query(ctx context.Context, client *qc.Client, req *qc.QueryPoints, k int, label string) ([]vector.Match, error) {
	if k > largeK {
		// Qdrant sizes its result buffers by the limit, so "everything"
		// (k = MaxInt) is first turned into the actual number of points.
		n, err := client.Count(ctx, &qc.CountPoints{CollectionName: req.CollectionName, Filter: req.Filter, ShardKeySelector: req.ShardKeySelector, Exact: qc.PtrOf(true)})
		if err != nil {
			return nil, fmt.Errorf("search %s: %w", label, err)
		}
		if n == 0 {
			return []vector.Match{}, nil
		}
		k = int(min(uint64(k), n))
	}
	limit := k + tieMargin
	for {
		req.Limit = qc.PtrOf(uint64(limit))
		res, err := client.Query(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("search %s: %w", label, err)
		}
		ms := make([]vector.Match, 0, len(res))
		for _, p := range res {
			pl := p.GetPayload()
			id := pl[keyPassage].GetStringValue()
			if id == "" {
				return nil, fmt.Errorf("search %s: point %s has no %s payload: the collection was not written by paperlens; pass another --collection", label, p.GetId().GetUuid(), keyPassage)
			}
			ms = append(ms, vector.Match{ID: id, PaperID: pl[keyPaper].GetStringValue(), Score: float64(p.GetScore())})
		}
		vector.SortMatches(ms)
		// A full page whose last score equals the k-th may hide more
		// equal-score points that sort before ours: fetch more.
		if len(res) == limit && len(ms) > k && ms[len(ms)-1].Score == ms[k-1].Score {
			limit *= 2
			continue
		}
		return ms[:min(k, len(ms))], nil
	}
}

// DeletePaper implements vector.Store.
func (s *Store) DeletePaper(ctx context.Context, paperID string) error {
	return s.use(func(dim int, sh sharding) error {
		if dim == 0 {
			return nil // no collection yet
		}
		return deletePaper(ctx, s.client, s.collection, s.label(), paperID, sh)
	})
}

// deletePaper deletes a paper's points, from its shard only.
func deletePaper(ctx context.Context, client *qc.Client, collection, label, paperID string, sh sharding) error {
	_, err := client.Delete(ctx, &qc.DeletePoints{
		CollectionName:   collection,
		Wait:             qc.PtrOf(true),
		Points:           qc.NewPointsSelectorFilter(paperFilter(paperID)),
		ShardKeySelector: sh.selector(paperID),
	})
	if err != nil {
		return fmt.Errorf("delete paper %q from %s: %w", paperID, label, err)
	}
	return nil
}

// Count implements vector.Store, exactly rather than from Qdrant's estimate.
func (s *Store) Count(ctx context.Context) (int, error) {
	var n uint64
	err := s.use(func(dim int, _ sharding) error {
		if dim == 0 {
			return nil // no collection yet
		}
		var err error
		n, err = s.client.Count(ctx, &qc.CountPoints{CollectionName: s.collection, Exact: qc.PtrOf(true)})
		if err != nil {
			return fmt.Errorf("count %s: %w", s.label(), err)
		}
		return nil
	})
	return int(n), err
}

// Drop deletes the whole collection, for 'index --rebuild' and tests. The
// store stays open and, like a fresh one, recreates the collection on the
// next Upsert.
func (s *Store) Drop(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return vector.ErrClosed
	}
	// The low-level call: the client's DeleteCollection turns "there was
	// nothing to delete" (result false) into an error.
	_, err := s.client.GetCollectionsClient().Delete(ctx, &qc.DeleteCollection{CollectionName: s.collection})
	if err != nil && status.Code(err) != codes.NotFound {
		return fmt.Errorf("drop %s: %w", s.label(), err)
	}
	s.dim, s.shards = 0, sharding{}
	return nil
}

// Close implements vector.Store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.client.Close()
}
