package qdranttest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"

	qc "github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Server is an in-memory stand-in for a Qdrant server's gRPC API, built
// from the client package's own service stubs so requests and replies are
// the real wire messages. It implements only what paperlens uses: health
// check; collection exists, get, list, create, delete; shard key create and
// list; point upsert, query, delete (by ids or filter), count and payload
// index creation.
//
// Collections hold one unnamed dense vector (cosine or dot), named sparse
// vectors (with or without the IDF modifier), or both, under auto or
// custom sharding. As in Qdrant, an upsert into a custom collection must
// name its shard key, a selector must name existing keys, a point id is
// unique only within its key, and the IDF of a sparse query is counted
// over the shard of the point scored. Filters support must, should and
// must_not over keyword, keywords, except, integer and boolean matches on
// top-level payload keys, nested filters and has_id. Anything else answers
// Unimplemented, so a change in what the store sends shows up as a failure
// rather than a silent difference; Requests returns what was sent, for
// tests to check.
//
// It differs from Qdrant in ways the store must not depend on: search is
// always exact (hnsw_ef is checked, not used), a collection without shard
// keys is one shard, a custom one has one shard per key, and equal scores
// are ordered by point UUID, which is unrelated to passage order (as
// Qdrant's internal order is).
type Server struct {
	// URL is where the server listens, e.g. http://127.0.0.1:41234.
	URL string

	apiKey string
	srv    *grpc.Server

	mu          sync.Mutex
	collections map[string]*collection
	calls       map[string][]any
}

type collection struct {
	size     int // of the unnamed dense vector; 0 when there is none
	distance qc.Distance
	sparse   map[string]qc.Modifier // named sparse vectors
	custom   bool                   // sharding_method custom
	keys     map[string]bool        // shard keys (shardKeyName) of a custom collection
	indexes  map[string]qc.PayloadSchemaType
	points   map[string]*point // by shard + "|" + pointKey
}

type point struct {
	id      *qc.PointId
	key     string // pointKey
	shard   string // shardKeyName, "" in a collection without shard keys
	vec     []float32
	sparse  map[string]map[uint32]float32 // named sparse vectors, index -> value
	payload map[string]*qc.Value
}

// Option configures a Server.
type Option func(*Server)

// WithAPIKey makes the server refuse requests without this api-key header,
// as a Qdrant configured with service.api_key does.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// Start runs a Server on a loopback port until the test ends.
func Start(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s, err := NewServer(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// NewServer runs a Server on a loopback port until Close.
func NewServer(opts ...Option) (*Server, error) {
	s := &Server{collections: map[string]*collection{}, calls: map[string][]any{}}
	for _, o := range opts {
		o(s)
	}
	// Loopback only: the fake must never be reachable from elsewhere.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fake qdrant: %w", err)
	}
	s.URL = "http://" + lis.Addr().String()
	s.srv = grpc.NewServer(grpc.UnaryInterceptor(s.intercept))
	qc.RegisterQdrantServer(s.srv, qdrantService{s: s})
	qc.RegisterCollectionsServer(s.srv, collectionsService{s: s})
	qc.RegisterPointsServer(s.srv, pointsService{s: s})
	go s.srv.Serve(lis)
	return s, nil
}

// Close stops the server, dropping open connections.
func (s *Server) Close() { s.srv.Stop() }

// Requests returns the requests received for a method, e.g.
// "/qdrant.Points/Upsert", in arrival order.
func (s *Server) Requests(method string) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls[method])
}

// CollectionInfo is what a test may want to know about a collection.
type CollectionInfo struct {
	Size     int
	Distance qc.Distance
	Sparse   map[string]qc.Modifier          // named sparse vectors and their modifiers
	Custom   bool                            // created with sharding_method custom
	Indexes  map[string]qc.PayloadSchemaType // payload indexes by field
	Points   int
	// Shards counts points by shard key ("" without shard keys; numeric
	// keys as decimal, keyword keys as "k:"+keyword), every key listed.
	Shards map[string]int
}

// Collection describes a collection; ok is false when it does not exist.
func (s *Server) Collection(name string) (info CollectionInfo, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.collections[name]
	if c == nil {
		return CollectionInfo{}, false
	}
	shards := map[string]int{}
	for k := range c.keys {
		shards[k] = 0
	}
	for _, p := range c.points {
		shards[p.shard]++
	}
	return CollectionInfo{Size: c.size, Distance: c.distance, Sparse: maps.Clone(c.sparse), Custom: c.custom,
		Indexes: maps.Clone(c.indexes), Points: len(c.points), Shards: shards}, true
}

// shardKeyName names a shard key: a number in decimal, a keyword as
// "k:"+keyword.
func shardKeyName(k *qc.ShardKey) (string, error) {
	switch v := k.GetKey().(type) {
	case *qc.ShardKey_Number:
		return fmt.Sprint(v.Number), nil
	case *qc.ShardKey_Keyword:
		return "k:" + v.Keyword, nil
	}
	return "", status.Error(codes.InvalidArgument, "Validation error: shard key is empty")
}

// shardsOf resolves a request's shard key selector to the shards it
// touches (nil: every shard), as Qdrant does: a custom collection refuses
// unknown keys, one without keys refuses any selector.
func (c *collection) shardsOf(sel *qc.ShardKeySelector) (map[string]bool, error) {
	if sel == nil || len(sel.GetShardKeys()) == 0 {
		return nil, nil
	}
	if !c.custom {
		return nil, status.Error(codes.InvalidArgument, "Bad request: Shard key selector is not allowed for a collection with auto sharding")
	}
	if sel.Fallback != nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: fallback shard keys")
	}
	out := map[string]bool{}
	for _, k := range sel.GetShardKeys() {
		name, err := shardKeyName(k)
		if err != nil {
			return nil, err
		}
		if !c.keys[name] {
			return nil, status.Errorf(codes.NotFound, "Not found: Shard key %s not found", name)
		}
		out[name] = true
	}
	return out, nil
}

// in says whether a point is on one of the shards (nil: all).
func in(shards map[string]bool, p *point) bool { return shards == nil || shards[p.shard] }

func (s *Server) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if s.apiKey != "" {
		md, _ := metadata.FromIncomingContext(ctx)
		if got := md.Get("api-key"); len(got) != 1 || got[0] != s.apiKey {
			return nil, status.Error(codes.Unauthenticated, "Invalid api-key")
		}
	}
	s.mu.Lock()
	s.calls[info.FullMethod] = append(s.calls[info.FullMethod], req)
	s.mu.Unlock()
	return handler(ctx, req)
}

// get returns a collection; callers hold s.mu.
func (s *Server) get(name string) (*collection, error) {
	c := s.collections[name]
	if c == nil {
		return nil, status.Errorf(codes.NotFound, "Not found: Collection `%s` doesn't exist!", name)
	}
	return c, nil
}

type qdrantService struct {
	qc.UnimplementedQdrantServer
	s *Server
}

func (qdrantService) HealthCheck(context.Context, *qc.HealthCheckRequest) (*qc.HealthCheckReply, error) {
	return &qc.HealthCheckReply{Title: "qdrant - fake from paperlens qdranttest", Version: "1.17.0"}, nil
}

type collectionsService struct {
	qc.UnimplementedCollectionsServer
	s *Server
}

func (cs collectionsService) CollectionExists(_ context.Context, req *qc.CollectionExistsRequest) (*qc.CollectionExistsResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	_, ok := cs.s.collections[req.GetCollectionName()]
	return &qc.CollectionExistsResponse{Result: &qc.CollectionExists{Exists: ok}}, nil
}

func (cs collectionsService) List(context.Context, *qc.ListCollectionsRequest) (*qc.ListCollectionsResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	resp := &qc.ListCollectionsResponse{}
	for _, name := range slices.Sorted(maps.Keys(cs.s.collections)) {
		resp.Collections = append(resp.Collections, &qc.CollectionDescription{Name: name})
	}
	return resp, nil
}

func (cs collectionsService) Get(_ context.Context, req *qc.GetCollectionInfoRequest) (*qc.GetCollectionInfoResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	c, err := cs.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	schema := map[string]*qc.PayloadSchemaInfo{}
	for k, t := range c.indexes {
		schema[k] = &qc.PayloadSchemaInfo{DataType: t}
	}
	n := uint64(len(c.points))
	params := &qc.CollectionParams{ShardNumber: 1}
	if c.size > 0 {
		params.VectorsConfig = qc.NewVectorsConfig(&qc.VectorParams{Size: uint64(c.size), Distance: c.distance})
	}
	if len(c.sparse) > 0 {
		m := map[string]*qc.SparseVectorParams{}
		for name, mod := range c.sparse {
			m[name] = &qc.SparseVectorParams{Modifier: mod.Enum()}
		}
		params.SparseVectorsConfig = qc.NewSparseVectorsConfig(m)
	}
	if c.custom {
		params.ShardingMethod = qc.ShardingMethod_Custom.Enum()
	}
	return &qc.GetCollectionInfoResponse{Result: &qc.CollectionInfo{
		Status:        qc.CollectionStatus_Green,
		Config:        &qc.CollectionConfig{Params: params},
		PayloadSchema: schema,
		PointsCount:   &n,
	}}, nil
}

// Create makes a collection with one unnamed dense vector, named sparse
// vectors, or both, and auto or custom sharding. Custom sharding takes one
// shard per key here (shard_number 1 or unset), which is all the fake
// models.
func (cs collectionsService) Create(_ context.Context, req *qc.CreateCollection) (*qc.CollectionOperationResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	name := req.GetCollectionName()
	if name == "" {
		return nil, status.Error(codes.InvalidArgument, "Validation error: collection_name: empty")
	}
	if _, ok := cs.s.collections[name]; ok {
		return nil, status.Errorf(codes.AlreadyExists, "Wrong input: Collection `%s` already exists!", name)
	}
	c := &collection{indexes: map[string]qc.PayloadSchemaType{}, points: map[string]*point{}, keys: map[string]bool{}}
	if vc := req.GetVectorsConfig(); vc != nil {
		p := vc.GetParams()
		if p == nil {
			return nil, status.Error(codes.Unimplemented, "fake qdrant: only a single unnamed dense vector per point")
		}
		if p.GetSize() == 0 || p.GetDistance() == qc.Distance_UnknownDistance {
			return nil, status.Error(codes.InvalidArgument, "Validation error: vector size and distance are required")
		}
		c.size, c.distance = int(p.GetSize()), p.GetDistance()
	}
	if sp := req.GetSparseVectorsConfig().GetMap(); len(sp) > 0 {
		c.sparse = map[string]qc.Modifier{}
		for n, p := range sp {
			c.sparse[n] = p.GetModifier()
		}
	}
	if c.size == 0 && len(c.sparse) == 0 {
		return nil, status.Error(codes.InvalidArgument, "Validation error: a collection needs vectors_config or sparse_vectors_config")
	}
	switch req.GetShardingMethod() {
	case qc.ShardingMethod_Custom:
		if req.ShardNumber != nil && req.GetShardNumber() != 1 {
			return nil, status.Error(codes.Unimplemented, "fake qdrant: custom sharding with more than one shard per key")
		}
		c.custom = true
	default:
		if req.ShardNumber != nil && req.GetShardNumber() == 0 {
			return nil, status.Error(codes.InvalidArgument, "Validation error: shard_number: value 0 invalid, must be 1 or larger")
		}
	}
	cs.s.collections[name] = c
	return &qc.CollectionOperationResponse{Result: true}, nil
}

// CreateShardKey adds a key to a custom collection, refusing it elsewhere
// and refusing a key that exists, as Qdrant does.
func (cs collectionsService) CreateShardKey(_ context.Context, req *qc.CreateShardKeyRequest) (*qc.CreateShardKeyResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	c, err := cs.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	if !c.custom {
		return nil, status.Error(codes.InvalidArgument, "Bad request: Shard key can only be created for collections with custom sharding")
	}
	name, err := shardKeyName(req.GetRequest().GetShardKey())
	if err != nil {
		return nil, err
	}
	if c.keys[name] {
		return nil, status.Errorf(codes.InvalidArgument, "Bad request: Shard key %s already exists", name)
	}
	if n := req.GetRequest().ShardsNumber; n != nil && *n != 1 {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: more than one shard per key")
	}
	c.keys[name] = true
	return &qc.CreateShardKeyResponse{Result: true}, nil
}

func (cs collectionsService) ListShardKeys(_ context.Context, req *qc.ListShardKeysRequest) (*qc.ListShardKeysResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	c, err := cs.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	resp := &qc.ListShardKeysResponse{}
	for _, name := range slices.Sorted(maps.Keys(c.keys)) {
		var k *qc.ShardKey
		if kw, ok := strings.CutPrefix(name, "k:"); ok {
			k = qc.NewShardKeyKeyword(kw)
		} else {
			var n uint64
			fmt.Sscan(name, &n)
			k = qc.NewShardKeyNum(n)
		}
		resp.ShardKeys = append(resp.ShardKeys, &qc.ShardKeyDescription{Key: k})
	}
	return resp, nil
}

func (cs collectionsService) Delete(_ context.Context, req *qc.DeleteCollection) (*qc.CollectionOperationResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	_, ok := cs.s.collections[req.GetCollectionName()]
	delete(cs.s.collections, req.GetCollectionName())
	return &qc.CollectionOperationResponse{Result: ok}, nil
}

type pointsService struct {
	qc.UnimplementedPointsServer
	s *Server
}

var completed = &qc.PointsOperationResponse{Result: &qc.UpdateResult{Status: qc.UpdateStatus_Completed}}

func (ps pointsService) CreateFieldIndex(_ context.Context, req *qc.CreateFieldIndexCollection) (*qc.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	t := map[qc.FieldType]qc.PayloadSchemaType{
		qc.FieldType_FieldTypeKeyword: qc.PayloadSchemaType_Keyword,
		qc.FieldType_FieldTypeInteger: qc.PayloadSchemaType_Integer,
	}[req.GetFieldType()]
	if t == qc.PayloadSchemaType_UnknownType {
		return nil, status.Errorf(codes.Unimplemented, "fake qdrant: index type %s", req.GetFieldType())
	}
	c.indexes[req.GetFieldName()] = t
	return completed, nil
}

// Upsert writes points all or nothing. In a custom collection it needs
// exactly one shard key (the fake does not model writing a point to
// several), and a point id is unique only within its key, as in Qdrant.
func (ps pointsService) Upsert(_ context.Context, req *qc.UpsertPoints) (*qc.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	shard, err := c.writeShard(req.GetShardKeySelector())
	if err != nil {
		return nil, err
	}
	// Validate the whole request first: Qdrant applies a request all or
	// nothing.
	var add []*point
	for _, p := range req.GetPoints() {
		key, err := pointKey(p.GetId())
		if err != nil {
			return nil, err
		}
		pt := &point{id: p.GetId(), key: key, shard: shard, payload: p.GetPayload()}
		if err := c.vectors(p.GetVectors(), pt); err != nil {
			return nil, err
		}
		add = append(add, pt)
	}
	for _, p := range add {
		c.points[p.shard+"|"+p.key] = p
	}
	return completed, nil
}

// writeShard is the shard an upsert writes to.
func (c *collection) writeShard(sel *qc.ShardKeySelector) (string, error) {
	shards, err := c.shardsOf(sel)
	if err != nil {
		return "", err
	}
	if !c.custom {
		return "", nil
	}
	if len(shards) != 1 {
		return "", status.Error(codes.InvalidArgument, "Bad request: Shard key not specified: a collection with custom sharding needs shard_key_selector on upsert (the fake takes exactly one key)")
	}
	for k := range shards {
		return k, nil
	}
	return "", nil
}

// vectors reads a point's vectors into p, refusing what does not fit the
// collection: the unnamed dense vector of its size, or its named sparse
// vectors with as many values as indices and no index twice.
func (c *collection) vectors(v *qc.Vectors, p *point) error {
	if dense := v.GetVector(); dense != nil {
		if c.size == 0 {
			return status.Error(codes.InvalidArgument, "Wrong input: Not existing vector name error: the collection has no unnamed dense vector")
		}
		// Only the dense field: this repository's client sends it
		// (qdrant.NewVectorsDense), never the deprecated Vector.Data.
		data := dense.GetDense().GetData()
		if data == nil {
			return status.Error(codes.Unimplemented, "fake qdrant: only dense data for the unnamed vector")
		}
		if len(data) != c.size {
			return status.Errorf(codes.InvalidArgument, "Wrong input: Vector dimension error: expected dim: %d, got %d", c.size, len(data))
		}
		p.vec = slices.Clone(data)
		if c.distance == qc.Distance_Cosine {
			normalize(p.vec) // as Qdrant does at insert
		}
		return nil
	}
	named := v.GetVectors().GetVectors()
	if named == nil {
		return status.Error(codes.InvalidArgument, "Validation error: point has no vectors")
	}
	p.sparse = map[string]map[uint32]float32{}
	for name, nv := range named {
		if _, ok := c.sparse[name]; !ok {
			return status.Errorf(codes.InvalidArgument, "Wrong input: Not existing vector name error: %s", name)
		}
		sv := nv.GetSparse()
		if sv == nil {
			return status.Errorf(codes.Unimplemented, "fake qdrant: named vector %q is not sparse", name)
		}
		if len(sv.GetIndices()) != len(sv.GetValues()) {
			return status.Error(codes.InvalidArgument, "Validation error: indices and values must be the same length")
		}
		m := make(map[uint32]float32, len(sv.GetIndices()))
		for i, ix := range sv.GetIndices() {
			if _, dup := m[ix]; dup {
				return status.Error(codes.InvalidArgument, "Validation error: indices must be unique")
			}
			m[ix] = sv.GetValues()[i]
		}
		p.sparse[name] = m
	}
	return nil
}

func (ps pointsService) Delete(_ context.Context, req *qc.DeletePoints) (*qc.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	shards, err := c.shardsOf(req.GetShardKeySelector())
	if err != nil {
		return nil, err
	}
	sel := req.GetPoints()
	switch {
	case sel.GetFilter() != nil:
		for key, p := range c.points {
			if !in(shards, p) {
				continue
			}
			ok, err := matches(sel.GetFilter(), p)
			if err != nil {
				return nil, err
			}
			if ok {
				delete(c.points, key)
			}
		}
	case sel.GetPoints() != nil:
		for _, id := range sel.GetPoints().GetIds() {
			key, err := pointKey(id)
			if err != nil {
				return nil, err
			}
			for k, p := range c.points {
				if p.key == key && in(shards, p) {
					delete(c.points, k)
				}
			}
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "Validation error: points selector is required")
	}
	return completed, nil
}

func (ps pointsService) Count(_ context.Context, req *qc.CountPoints) (*qc.CountResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	shards, err := c.shardsOf(req.GetShardKeySelector())
	if err != nil {
		return nil, err
	}
	n := 0
	for _, p := range c.points {
		if !in(shards, p) {
			continue
		}
		ok, err := matches(req.GetFilter(), p)
		if err != nil {
			return nil, err
		}
		if ok {
			n++
		}
	}
	return &qc.CountResponse{Result: &qc.CountResult{Count: uint64(n)}}, nil
}

// Query answers a nearest query: the unnamed dense vector by cosine or dot
// product, or a named sparse vector (using) by dot product, each query
// value weighted by the term's IDF over the point's shard when the vector
// has the IDF modifier. Search is always exact; HNSW parameters are
// checked, not used.
func (ps pointsService) Query(_ context.Context, req *qc.QueryPoints) (*qc.QueryResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	if len(req.GetPrefetch()) > 0 || req.LookupFrom != nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: prefetch and lookup_from")
	}
	if err := checkParams(req.GetParams()); err != nil {
		return nil, err
	}
	shards, err := c.shardsOf(req.GetShardKeySelector())
	if err != nil {
		return nil, err
	}
	score, err := c.scorer(req)
	if err != nil {
		return nil, err
	}
	var hits []*qc.ScoredPoint
	var keys []string
	for _, p := range c.points {
		if !in(shards, p) {
			continue
		}
		ok, err := matches(req.GetFilter(), p)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		s, ok := score(p)
		if !ok || req.ScoreThreshold != nil && s < req.GetScoreThreshold() {
			continue
		}
		hits = append(hits, &qc.ScoredPoint{Id: p.id, Score: s, Payload: selectPayload(req.GetWithPayload(), p.payload)})
		keys = append(keys, p.shard+"|"+p.key)
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(hits[b].Score, hits[a].Score); c != 0 {
			return c
		}
		return cmp.Compare(keys[a], keys[b])
	})
	limit := 10 // Qdrant's default
	if req.Limit != nil {
		limit = int(req.GetLimit())
	}
	off := min(int(req.GetOffset()), len(order))
	order = order[off:]
	resp := &qc.QueryResponse{}
	for _, i := range order[:min(limit, len(order))] {
		resp.Result = append(resp.Result, hits[i])
	}
	return resp, nil
}

// checkParams refuses search parameters Qdrant would: an hnsw_ef of 0.
func checkParams(p *qc.SearchParams) error {
	if p == nil {
		return nil
	}
	if p.HnswEf != nil && p.GetHnswEf() == 0 {
		return status.Error(codes.InvalidArgument, "Validation error: hnsw_ef: value 0 invalid, must be 1 or larger")
	}
	if p.Quantization != nil || p.Acorn != nil || p.IndexedOnly != nil {
		return status.Error(codes.Unimplemented, "fake qdrant: quantization, acorn and indexed_only search params")
	}
	return nil
}

// scorer returns how a query scores a point; false when the point is not a
// candidate (a sparse vector sharing no index with the query).
func (c *collection) scorer(req *qc.QueryPoints) (func(*point) (float32, bool), error) {
	in := req.GetQuery().GetNearest()
	if in == nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: only nearest queries")
	}
	if sv := in.GetSparse(); sv != nil {
		return c.sparseScorer(req.GetUsing(), sv)
	}
	dense := in.GetDense()
	if dense == nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: only dense or sparse nearest queries")
	}
	if req.GetUsing() != "" || c.size == 0 {
		return nil, status.Errorf(codes.InvalidArgument, "Wrong input: Not existing vector name error: %q is not a dense vector of the collection", req.GetUsing())
	}
	q := slices.Clone(dense.GetData())
	if len(q) != c.size {
		return nil, status.Errorf(codes.InvalidArgument, "Wrong input: Vector dimension error: expected dim: %d, got %d", c.size, len(q))
	}
	if c.distance != qc.Distance_Cosine && c.distance != qc.Distance_Dot {
		return nil, status.Errorf(codes.Unimplemented, "fake qdrant: %s distance", c.distance)
	}
	if c.distance == qc.Distance_Cosine {
		normalize(q)
	}
	return func(p *point) (float32, bool) {
		var s float32
		for i, x := range q {
			s += x * p.vec[i]
		}
		return s, true
	}, nil
}

// sparseScorer scores by the dot product over shared indices; with the IDF
// modifier each query value is first multiplied by
// ln((N − n + 0.5)/(n + 0.5) + 1), N the points of the point's shard that
// have the vector and n those of them with a non-zero value at the index:
// Qdrant's formula, over Qdrant's scope (the shard).
func (c *collection) sparseScorer(name string, sv *qc.SparseVector) (func(*point) (float32, bool), error) {
	mod, ok := c.sparse[name]
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "Wrong input: Not existing vector name error: %q is not a sparse vector of the collection", name)
	}
	if len(sv.GetIndices()) != len(sv.GetValues()) {
		return nil, status.Error(codes.InvalidArgument, "Validation error: indices and values must be the same length")
	}
	q := map[uint32]float64{}
	for i, ix := range sv.GetIndices() {
		if _, dup := q[ix]; dup {
			return nil, status.Error(codes.InvalidArgument, "Validation error: indices must be unique")
		}
		q[ix] = float64(sv.GetValues()[i])
	}
	type stats struct {
		n  int
		df map[uint32]int
	}
	perShard := map[string]*stats{}
	if mod == qc.Modifier_Idf {
		for _, p := range c.points {
			vec, ok := p.sparse[name]
			if !ok {
				continue
			}
			st := perShard[p.shard]
			if st == nil {
				st = &stats{df: map[uint32]int{}}
				perShard[p.shard] = st
			}
			st.n++
			for ix := range q {
				if vec[ix] != 0 {
					st.df[ix]++
				}
			}
		}
	}
	return func(p *point) (float32, bool) {
		vec, ok := p.sparse[name]
		if !ok {
			return 0, false
		}
		var s float64
		hit := false
		for ix, qv := range q {
			dv, ok := vec[ix]
			if !ok {
				continue
			}
			hit = true
			w := qv
			if st := perShard[p.shard]; st != nil {
				n, df := float64(st.n), float64(st.df[ix])
				w *= math.Log((n-df+0.5)/(df+0.5) + 1)
			}
			s += w * float64(dv)
		}
		return float32(s), hit
	}, nil
}

func selectPayload(sel *qc.WithPayloadSelector, payload map[string]*qc.Value) map[string]*qc.Value {
	switch {
	case sel == nil:
		return nil // Qdrant's default for queries is no payload
	case sel.GetEnable():
		return payload
	case sel.GetInclude() != nil:
		out := map[string]*qc.Value{}
		for _, k := range sel.GetInclude().GetFields() {
			if v, ok := payload[k]; ok {
				out[k] = v
			}
		}
		return out
	case sel.GetExclude() != nil:
		out := maps.Clone(payload)
		for _, k := range sel.GetExclude().GetFields() {
			delete(out, k)
		}
		return out
	}
	return nil
}

// matches evaluates a filter the way Qdrant does: every must, no must_not,
// and at least one should when there are any. A nil filter matches all.
func matches(f *qc.Filter, p *point) (bool, error) {
	if f == nil {
		return true, nil
	}
	if f.MinShould != nil {
		return false, status.Error(codes.Unimplemented, "fake qdrant: min_should")
	}
	for _, c := range f.GetMust() {
		ok, err := condition(c, p)
		if err != nil || !ok {
			return false, err
		}
	}
	for _, c := range f.GetMustNot() {
		ok, err := condition(c, p)
		if err != nil || ok {
			return false, err
		}
	}
	if len(f.GetShould()) == 0 {
		return true, nil
	}
	for _, c := range f.GetShould() {
		ok, err := condition(c, p)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func condition(c *qc.Condition, p *point) (bool, error) {
	switch {
	case c.GetField() != nil:
		return fieldMatch(c.GetField(), p)
	case c.GetFilter() != nil:
		return matches(c.GetFilter(), p)
	case c.GetHasId() != nil:
		for _, id := range c.GetHasId().GetHasId() {
			if key, err := pointKey(id); err == nil && key == p.key {
				return true, nil
			}
		}
		return false, nil
	}
	return false, status.Errorf(codes.Unimplemented, "fake qdrant: condition %T", c.GetConditionOneOf())
}

func fieldMatch(fc *qc.FieldCondition, p *point) (bool, error) {
	m := fc.GetMatch()
	if m == nil {
		return false, status.Errorf(codes.Unimplemented, "fake qdrant: field condition on %q other than match", fc.GetKey())
	}
	// A list payload matches when any element does, as in Qdrant.
	var vals []*qc.Value
	if v, ok := p.payload[fc.GetKey()]; ok {
		if l := v.GetListValue(); l != nil {
			vals = l.GetValues()
		} else {
			vals = []*qc.Value{v}
		}
	}
	anyVal := func(pred func(*qc.Value) bool) bool { return slices.ContainsFunc(vals, pred) }
	isStr := func(v *qc.Value) bool { _, ok := v.GetKind().(*qc.Value_StringValue); return ok }
	switch mv := m.GetMatchValue().(type) {
	case *qc.Match_Keyword:
		return anyVal(func(v *qc.Value) bool { return isStr(v) && v.GetStringValue() == mv.Keyword }), nil
	case *qc.Match_Keywords:
		return anyVal(func(v *qc.Value) bool {
			return isStr(v) && slices.Contains(mv.Keywords.GetStrings(), v.GetStringValue())
		}), nil
	case *qc.Match_ExceptKeywords:
		return !anyVal(func(v *qc.Value) bool {
			return isStr(v) && slices.Contains(mv.ExceptKeywords.GetStrings(), v.GetStringValue())
		}), nil
	case *qc.Match_Integer:
		return anyVal(func(v *qc.Value) bool {
			_, ok := v.GetKind().(*qc.Value_IntegerValue)
			return ok && v.GetIntegerValue() == mv.Integer
		}), nil
	case *qc.Match_Boolean:
		return anyVal(func(v *qc.Value) bool {
			_, ok := v.GetKind().(*qc.Value_BoolValue)
			return ok && v.GetBoolValue() == mv.Boolean
		}), nil
	}
	return false, status.Errorf(codes.Unimplemented, "fake qdrant: match %T", m.GetMatchValue())
}

// pointKey is a point id's identity: Qdrant ids are unsigned integers or
// UUIDs, and a UUID must be well formed.
func pointKey(id *qc.PointId) (string, error) {
	switch v := id.GetPointIdOptions().(type) {
	case *qc.PointId_Num:
		return fmt.Sprintf("n:%020d", v.Num), nil
	case *qc.PointId_Uuid:
		if !validUUID(v.Uuid) {
			return "", status.Errorf(codes.InvalidArgument, "Unable to parse UUID: %s", v.Uuid)
		}
		return "u:" + v.Uuid, nil
	}
	return "", status.Error(codes.InvalidArgument, "Validation error: point id is required")
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
				return false
			}
		}
	}
	return true
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := 1 / math.Sqrt(s)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
}
