package qdranttest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"net"
	"slices"
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
// check; collection exists, get, list, create, delete; point upsert, query
// (nearest dense vector), delete (by ids or filter), count and payload index
// creation. Filters support must, should and must_not over keyword, keywords,
// except, integer and boolean matches on top-level payload keys, nested
// filters and has_id. Anything else answers Unimplemented, so a change in
// what the store sends shows up as a failure rather than a silent
// difference.
//
// It differs from Qdrant in ways the store must not depend on: search is
// always exact, and equal scores are ordered by point UUID, which is
// unrelated to passage order (as Qdrant's internal order is).
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
	size     int
	distance qc.Distance
	indexes  map[string]qc.PayloadSchemaType
	points   map[string]*point // by pointKey
}

type point struct {
	id      *qc.PointId
	key     string
	vec     []float32
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
	Indexes  map[string]qc.PayloadSchemaType // payload indexes by field
	Points   int
}

// Collection describes a collection; ok is false when it does not exist.
func (s *Server) Collection(name string) (info CollectionInfo, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.collections[name]
	if c == nil {
		return CollectionInfo{}, false
	}
	return CollectionInfo{Size: c.size, Distance: c.distance, Indexes: maps.Clone(c.indexes), Points: len(c.points)}, true
}

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
	return &qc.GetCollectionInfoResponse{Result: &qc.CollectionInfo{
		Status: qc.CollectionStatus_Green,
		Config: &qc.CollectionConfig{Params: &qc.CollectionParams{
			ShardNumber:   1,
			VectorsConfig: qc.NewVectorsConfig(&qc.VectorParams{Size: uint64(c.size), Distance: c.distance}),
		}},
		PayloadSchema: schema,
		PointsCount:   &n,
	}}, nil
}

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
	p := req.GetVectorsConfig().GetParams()
	if p == nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: only a single unnamed vector per point")
	}
	if p.GetSize() == 0 || p.GetDistance() == qc.Distance_UnknownDistance {
		return nil, status.Error(codes.InvalidArgument, "Validation error: vector size and distance are required")
	}
	cs.s.collections[name] = &collection{
		size:     int(p.GetSize()),
		distance: p.GetDistance(),
		indexes:  map[string]qc.PayloadSchemaType{},
		points:   map[string]*point{},
	}
	return &qc.CollectionOperationResponse{Result: true}, nil
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

func (ps pointsService) Upsert(_ context.Context, req *qc.UpsertPoints) (*qc.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
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
		v := p.GetVectors().GetVector()
		if v == nil {
			return nil, status.Error(codes.Unimplemented, "fake qdrant: only a single unnamed dense vector per point")
		}
		// Only the dense field: this repository's client sends it
		// (qdrant.NewVectorsDense), never the deprecated Vector.Data.
		data := v.GetDense().GetData()
		if len(data) != c.size {
			return nil, status.Errorf(codes.InvalidArgument, "Wrong input: Vector dimension error: expected dim: %d, got %d", c.size, len(data))
		}
		vec := slices.Clone(data)
		if c.distance == qc.Distance_Cosine {
			normalize(vec) // as Qdrant does at insert
		}
		add = append(add, &point{id: p.GetId(), key: key, vec: vec, payload: p.GetPayload()})
	}
	for _, p := range add {
		c.points[p.key] = p
	}
	return completed, nil
}

func (ps pointsService) Delete(_ context.Context, req *qc.DeletePoints) (*qc.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	sel := req.GetPoints()
	switch {
	case sel.GetFilter() != nil:
		for key, p := range c.points {
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
			delete(c.points, key)
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
	n := 0
	for _, p := range c.points {
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

func (ps pointsService) Query(_ context.Context, req *qc.QueryPoints) (*qc.QueryResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.get(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	if len(req.GetPrefetch()) > 0 || req.Using != nil || req.LookupFrom != nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: prefetch, using and lookup_from")
	}
	dense := req.GetQuery().GetNearest().GetDense()
	if dense == nil {
		return nil, status.Error(codes.Unimplemented, "fake qdrant: only nearest-dense-vector queries")
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
	var hits []*qc.ScoredPoint
	var keys []string
	for _, p := range c.points {
		ok, err := matches(req.GetFilter(), p)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		var s float32
		for i, x := range q {
			s += x * p.vec[i]
		}
		if req.ScoreThreshold != nil && s < req.GetScoreThreshold() {
			continue
		}
		hits = append(hits, &qc.ScoredPoint{Id: p.id, Score: s, Payload: selectPayload(req.GetWithPayload(), p.payload)})
		keys = append(keys, p.key)
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
