// Package reranktest runs loopback servers speaking the two rerank
// protocols real servers speak, for tests of rerankers and of everything
// built on them without a network, a key or a GPU:
//
//   - TEI (Text Embeddings Inference): POST /rerank with {"query",
//     "texts", "truncate"?, "raw_scores"?, "return_text"?}, answered by
//     [{"index", "score", "text"?}] sorted by descending score; errors
//     are {"error", "error_type"}.
//   - Cohere (and Jina, vLLM, Infinity, which copy it): POST /v1/rerank
//     with {"model", "query", "documents", "top_n"?}, answered by {"id",
//     "results": [{"index", "relevance_score", "document"?}], "usage"}
//     sorted by descending score, top_n of them; errors are {"message"}.
//
// Scores come from Config.Score, so a test decides what the cross-encoder
// knows (a gold-first double scores a passage by the gold evidence it
// holds).
package reranktest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Protocols.
const (
	TEI    = "tei"
	Cohere = "cohere"
)

// Config is a server's behaviour.
type Config struct {
	Protocol string // TEI or Cohere
	// Score scores one text against the query.
	Score func(query, text string) float64
	// Key, when set, makes calls without "Authorization: Bearer <Key>"
	// fail with 401 quoting the header sent, as careless proxies do.
	Key string
	// Fail, when set, is asked about every call (n from 1): a non-zero
	// status is answered with an error body quoting the Authorization
	// header (so a client must keep the key out of its errors).
	Fail func(n int) int
	// RequireModel makes a Cohere call without "model" fail with 400, as
	// Cohere and Jina do.
	RequireModel bool
}

// Server is a loopback rerank server.
type Server struct {
	*httptest.Server
	cfg Config

	mu    sync.Mutex
	calls int
	texts int
}

// NewServer starts a server and closes it when the test ends.
func NewServer(tb testing.TB, cfg Config) *Server {
	s := &Server{cfg: cfg}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// BaseURL is the root a client is given: the server's root for TEI, its
// /v1 for Cohere.
func (s *Server) BaseURL() string {
	if s.cfg.Protocol == Cohere {
		return s.URL + "/v1"
	}
	return s.URL
}

// Calls is the number of requests received.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// Texts is the number of passages scored.
func (s *Server) Texts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.texts
}

type scored struct {
	i int
	s float64
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.calls++
	n := s.calls
	s.mu.Unlock()
	auth := r.Header.Get("Authorization")
	fail := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if s.cfg.Protocol == TEI {
			json.NewEncoder(w).Encode(map[string]string{"error": msg, "error_type": "validation"})
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"message": msg})
	}
	want := "/rerank"
	if s.cfg.Protocol == Cohere {
		want = "/v1/rerank"
	}
	if r.Method != http.MethodPost || r.URL.Path != want {
		http.NotFound(w, r)
		return
	}
	if s.cfg.Key != "" && auth != "Bearer "+s.cfg.Key {
		fail(http.StatusUnauthorized, "invalid api key: "+auth)
		return
	}
	if s.cfg.Fail != nil {
		if status := s.cfg.Fail(n); status != 0 {
			fail(status, "injected failure, request had Authorization "+auth)
			return
		}
	}
	var req struct {
		Query     string   `json:"query"`
		Texts     []string `json:"texts"`
		Documents []string `json:"documents"`
		Model     string   `json:"model"`
		TopN      *int     `json:"top_n"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		fail(http.StatusUnprocessableEntity, "bad json: "+err.Error())
		return
	}
	texts := req.Texts
	if s.cfg.Protocol == Cohere {
		texts = req.Documents
		if req.Texts != nil {
			fail(http.StatusBadRequest, `unknown field "texts": this server takes "documents"`)
			return
		}
		if s.cfg.RequireModel && req.Model == "" {
			fail(http.StatusBadRequest, "model is required")
			return
		}
	} else if req.Documents != nil {
		fail(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body into the target type: missing field `texts`")
		return
	}
	if strings.TrimSpace(req.Query) == "" || len(texts) == 0 {
		fail(http.StatusUnprocessableEntity, "query and texts must not be empty")
		return
	}
	s.mu.Lock()
	s.texts += len(texts)
	s.mu.Unlock()
	out := make([]scored, len(texts))
	for i, t := range texts {
		out[i] = scored{i, s.cfg.Score(req.Query, t)}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].s > out[b].s })
	w.Header().Set("Content-Type", "application/json")
	if s.cfg.Protocol == TEI {
		type rank struct {
			Index int     `json:"index"`
			Score float64 `json:"score"`
		}
		ranks := make([]rank, len(out))
		for i, x := range out {
			ranks[i] = rank{x.i, x.s}
		}
		json.NewEncoder(w).Encode(ranks)
		return
	}
	if req.TopN != nil && *req.TopN < len(out) {
		out = out[:*req.TopN]
	}
	type result struct {
		Index          int               `json:"index"`
		RelevanceScore float64           `json:"relevance_score"`
		Document       map[string]string `json:"document"`
	}
	res := make([]result, len(out))
	for i, x := range out {
		res[i] = result{x.i, x.s, map[string]string{"text": texts[x.i]}}
	}
	json.NewEncoder(w).Encode(map[string]any{"id": "rerank-1", "model": req.Model, "results": res,
		"usage": map[string]int{"total_tokens": 10 * len(texts)}})
}
