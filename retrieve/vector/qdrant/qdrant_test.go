package qdrant_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	qc "github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/paperlens/paperlens/internal/testkit/qdranttest"
	"github.com/paperlens/paperlens/internal/testkit/vectortest"
	"github.com/paperlens/paperlens/retrieve/vector"
	"github.com/paperlens/paperlens/retrieve/vector/qdrant"
)

// Most tests run against qdranttest's fake: an in-memory server speaking
// Qdrant's gRPC API on a loopback port, standing in for a real Qdrant
// (which this project's CI cannot run). The same suites run against a real
// server when QDRANT_URL is set, e.g.
//
//	docker compose up -d qdrant
//	QDRANT_URL=http://localhost:6334 go test ./retrieve/vector/qdrant/

var seq atomic.Int64

// opener opens stores on fresh, uniquely named collections at url and drops
// each collection when its test ends.
func opener(url string) vectortest.Opener {
	return func(t *testing.T, dim int) vector.Store {
		t.Helper()
		name := fmt.Sprintf("paperlens_test_%d_%d", time.Now().UnixNano(), seq.Add(1))
		s := open(t, url, name, dim)
		t.Cleanup(func() { drop(t, url, name) })
		return s
	}
}

func open(t *testing.T, url, collection string, dim int) *qdrant.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := qdrant.Open(ctx, url, collection, dim)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// drop deletes a test collection through a store of its own, since the
// test's store may be closed by then.
func drop(t *testing.T, url, collection string) {
	s, err := qdrant.Open(context.Background(), url, collection, 0)
	if err != nil {
		t.Logf("cleanup of collection %s: %v", collection, err)
		return
	}
	defer s.Close()
	if err := s.Drop(context.Background()); err != nil {
		t.Logf("cleanup of collection %s: %v", collection, err)
	}
}

func reopen(t *testing.T, s vector.Store) vector.Store {
	q := s.(*qdrant.Store)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	return open(t, q.URL(), q.Collection(), q.Dim())
}

func realURL(t *testing.T) string {
	url := os.Getenv("QDRANT_URL")
	if url == "" {
		t.Skip("QDRANT_URL not set; to test against a real Qdrant: docker compose up -d qdrant && QDRANT_URL=http://localhost:6334 go test ./retrieve/vector/qdrant/")
	}
	return url
}

func TestContractFake(t *testing.T) {
	vectortest.Run(t, opener(qdranttest.Start(t).URL))
}

func TestReopenFake(t *testing.T) {
	vectortest.RunReopen(t, opener(qdranttest.Start(t).URL), reopen)
}

func TestContractReal(t *testing.T) {
	vectortest.Run(t, opener(realURL(t)))
}

func TestReopenReal(t *testing.T) {
	vectortest.RunReopen(t, opener(realURL(t)), reopen)
}

func TestDimensionAtOpenReal(t *testing.T) { testDimensionAtOpen(t, realURL(t)) }
func TestDimensionAtOpenFake(t *testing.T) { testDimensionAtOpen(t, qdranttest.Start(t).URL) }

// A collection built with one embedder must not be reused with another.
func testDimensionAtOpen(t *testing.T, url string) {
	s := opener(url)(t, 8).(*qdrant.Store)
	defer s.Close()
	err := s.Upsert(context.Background(), []vector.Point{{ID: "a#0", PaperID: "a", Vector: []float32{1, 2, 3, 4, 5, 6, 7, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = qdrant.Open(context.Background(), url, s.Collection(), 16)
	if !errors.Is(err, vector.ErrDimension) {
		t.Fatalf("opening a dimension-8 collection with dimension 16: err = %v, want ErrDimension", err)
	}
	for _, want := range []string{s.Collection(), "dimension 8, got 16", "paperlens index --rebuild"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Dimension 0 adopts the collection's.
	s2 := open(t, url, s.Collection(), 0)
	defer s2.Close()
	if s2.Dim() != 8 {
		t.Errorf("opened with dimension 0: Dim() = %d, want the collection's 8", s2.Dim())
	}
}

func TestCreatesCollection(t *testing.T) {
	srv := qdranttest.Start(t)
	ctx := context.Background()

	// Dimension known at Open: created at once, cosine, paper_id indexed.
	s := open(t, srv.URL, "now", 8)
	defer s.Close()
	info, ok := srv.Collection("now")
	if !ok {
		t.Fatal("Open with dimension 8 did not create the collection")
	}
	if info.Size != 8 || info.Distance != qc.Distance_Cosine || info.Indexes["paper_id"] != qc.PayloadSchemaType_Keyword {
		t.Errorf("collection %+v, want size 8, cosine, keyword index on paper_id", info)
	}

	// Dimension unknown: created by the first Upsert.
	s0 := open(t, srv.URL, "later", 0)
	defer s0.Close()
	if _, ok := srv.Collection("later"); ok {
		t.Fatal("Open with dimension 0 created the collection before knowing its dimension")
	}
	if n, err := s0.Count(ctx); err != nil || n != 0 {
		t.Errorf("Count before the collection exists = %d, %v; want 0, nil", n, err)
	}
	if err := s0.Upsert(ctx, []vector.Point{{ID: "a#0", PaperID: "a", Vector: []float32{1, 0, 0}}}); err != nil {
		t.Fatal(err)
	}
	if info, ok := srv.Collection("later"); !ok || info.Size != 3 || info.Indexes["paper_id"] != qc.PayloadSchemaType_Keyword {
		t.Errorf("after first upsert: collection %+v (exists %v), want size 3 with paper_id index", info, ok)
	}
}

// A collection some other tool made with another distance is refused
// rather than silently ranked by the wrong measure.
func TestRefusesForeignCollection(t *testing.T) {
	srv := qdranttest.Start(t)
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	var p int
	fmt.Sscan(port, &p)
	c, err := qc.NewClient(&qc.Config{Host: host, Port: p, SkipCompatibilityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.CreateCollection(context.Background(), &qc.CreateCollection{
		CollectionName: "euclid",
		VectorsConfig:  qc.NewVectorsConfig(&qc.VectorParams{Size: 4, Distance: qc.Distance_Euclid}),
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = qdrant.Open(context.Background(), srv.URL, "euclid", 4)
	if err == nil || !strings.Contains(err.Error(), "Cosine") {
		t.Fatalf("opening a Euclid collection: err = %v, want a refusal naming Cosine", err)
	}
}

func TestUpsertBatches(t *testing.T) {
	srv := qdranttest.Start(t)
	s := open(t, srv.URL, "batches", 4)
	defer s.Close()
	n := 2*qdrant.BatchSize + 10
	pts := make([]vector.Point, n)
	for i := range pts {
		pts[i] = vector.Point{ID: fmt.Sprintf("p#%d", i), PaperID: "p", Vector: []float32{1, float32(i), 0, 1}}
	}
	if err := s.Upsert(context.Background(), pts); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests("/qdrant.Points/Upsert")
	if len(reqs) != 3 {
		t.Fatalf("%d upsert requests for %d points, want 3", len(reqs), n)
	}
	for i, r := range reqs {
		u := r.(*qc.UpsertPoints)
		if !u.GetWait() {
			t.Errorf("request %d without wait=true: a following search could miss its points", i)
		}
		for _, p := range u.GetPoints() {
			pl := p.GetPayload()
			id := pl["passage_id"].GetStringValue()
			if pl["paper_id"].GetStringValue() != "p" || p.GetId().GetUuid() != qdrant.PointID(id) {
				t.Fatalf("point %v: payload or id not as documented", p)
			}
		}
	}
	if info, _ := srv.Collection("batches"); info.Points != n {
		t.Errorf("server holds %d points, want %d", info.Points, n)
	}
}

func TestSearchRequest(t *testing.T) {
	srv := qdranttest.Start(t)
	s := open(t, srv.URL, "req", 2)
	defer s.Close()
	ctx := context.Background()
	if err := s.Upsert(ctx, []vector.Point{{ID: "p#0", PaperID: "p", Vector: []float32{1, 0}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Search(ctx, []float32{1, 0}, "p", 3); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests("/qdrant.Points/Query")
	q := reqs[len(reqs)-1].(*qc.QueryPoints)
	if !q.GetParams().GetExact() {
		t.Errorf("search is not exact: results could differ from the embedded store's")
	}
	must := q.GetFilter().GetMust()
	if len(must) != 1 || must[0].GetField().GetKey() != "paper_id" || must[0].GetField().GetMatch().GetKeyword() != "p" {
		t.Errorf("search filter %v, want must paper_id = p", q.GetFilter())
	}
}

func TestPointID(t *testing.T) {
	id := qdrant.PointID("trpo#12")
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(id) {
		t.Errorf("PointID = %q, not a version-5 UUID", id)
	}
	if qdrant.PointID("trpo#12") != id {
		t.Error("PointID is not deterministic")
	}
	if qdrant.PointID("trpo#13") == id || qdrant.PointID("trpo#1") == qdrant.PointID("trpo#12") {
		t.Error("distinct passage ids share a point id")
	}
	// Pinned (Python agrees: uuid.uuid5(UUID("b3e4f0c2-6a1d-4c8e-9f57-2d0a7c5e1b94"), "trpo#12")):
	// a change would orphan every point already stored in Qdrant.
	if want := "66a5d616-7054-5787-80db-3e786203c9b8"; id != want {
		t.Errorf("PointID(trpo#12) = %s; was %s: changing it orphans stored points", id, want)
	}
}

func TestUnreachable(t *testing.T) {
	// A port that was just free: nothing listens, so connecting is refused.
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + lis.Addr().String()
	lis.Close()

	_, err = qdrant.Open(context.Background(), url, "c", 8)
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	for _, want := range []string{"cannot reach Qdrant at " + url, "docker compose up -d qdrant", "--store qdrant"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// The refusal itself ended Open (Unavailable), not the connect
	// timeout running out (DeadlineExceeded): that is what "at once"
	// means, whatever the load on the machine.
	if c := status.Code(err); c != codes.Unavailable {
		t.Errorf("code %v, want Unavailable (the refused connection): %v", c, err)
	}
}

// A server that accepts connections but never answers (a hung process, a
// proxy to nowhere) must not hang Open.
func TestSilentServer(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the connect timeout")
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	go func() {
		for {
			c, err := lis.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	url := "http://" + lis.Addr().String()
	// Open has no deadline from its caller: only its own connect timeout
	// can end it, with DeadlineExceeded (were it missing, the test would
	// hang). How long that takes is the timeout stretched by the machine's
	// load, so it is not timed.
	_, err = qdrant.Open(context.Background(), url, "c", 8)
	if err == nil || !strings.Contains(err.Error(), "cannot reach Qdrant at "+url) {
		t.Fatalf("Open of a silent server: err = %v", err)
	}
	if c := status.Code(err); c != codes.DeadlineExceeded {
		t.Errorf("code %v, want DeadlineExceeded (the connect timeout): %v", c, err)
	}
}

func TestAPIKey(t *testing.T) {
	srv := qdranttest.Start(t, qdranttest.WithAPIKey("s3cret"))
	t.Setenv(qdrant.APIKeyEnv, "")
	_, err := qdrant.Open(context.Background(), srv.URL, "k", 4)
	if err == nil || !strings.Contains(err.Error(), "API key") || !strings.Contains(err.Error(), qdrant.APIKeyEnv) {
		t.Fatalf("Open without the API key: err = %v, want one naming %s", err, qdrant.APIKeyEnv)
	}
	t.Setenv(qdrant.APIKeyEnv, "s3cret")
	s := open(t, srv.URL, "k", 4)
	defer s.Close()
	if err := s.Upsert(context.Background(), []vector.Point{{ID: "a#0", PaperID: "a", Vector: []float32{1, 0, 0, 0}}}); err != nil {
		t.Fatalf("upsert with the API key: %v", err)
	}
}

func TestBadURL(t *testing.T) {
	for _, u := range []string{"ftp://localhost:6334", "http://:6334", "http://localhost:99999", "http://localhost:6334/collections"} {
		if _, err := qdrant.Open(context.Background(), u, "c", 4); err == nil || !strings.Contains(err.Error(), u) {
			t.Errorf("Open(%q): err = %v, want one naming the URL", u, err)
		}
	}
}

// Two indexers starting on the same missing collection: one creates it, the
// other adopts it, and both write.
func TestConcurrentCreate(t *testing.T) {
	srv := qdranttest.Start(t)
	a, b := open(t, srv.URL, "race", 0), open(t, srv.URL, "race", 0)
	defer a.Close()
	defer b.Close()
	errs := make(chan error, 2)
	for i, s := range []*qdrant.Store{a, b} {
		go func() {
			errs <- s.Upsert(context.Background(), []vector.Point{{ID: fmt.Sprintf("p#%d", i), PaperID: "p", Vector: []float32{1, float32(i), 0}}})
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if info, _ := srv.Collection("race"); info.Points != 2 || info.Size != 3 {
		t.Errorf("collection after concurrent first upserts: %+v, want 2 points of size 3", info)
	}
}
