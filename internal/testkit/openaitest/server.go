// Package openaitest runs a loopback server that speaks the OpenAI
// /v1/embeddings protocol, for tests of clients and of code built on them.
//
// The server implements the parts of the protocol clients depend on: a POST
// of {"model", "input": [strings], "encoding_format", "dimensions"?} with a
// Bearer key, answered by {"object": "list", "data": [{"object":
// "embedding", "index", "embedding"}], "model", "usage"}, embeddings as
// float arrays or, for encoding_format "base64", base64 of little-endian
// float32s. Vectors are derived from the text (Vector), so a test can check
// every one. Failures are injected per request.
package openaitest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Request is what the server received.
type Request struct {
	Model          string
	Input          []string
	EncodingFormat string
	Dimensions     int
	Authorization  string
	ContentType    string
}

// Failure is an injected answer to one request.
type Failure struct {
	Status int               // HTTP status; 0 means 200 with Body as the raw response
	Body   string            // response body, written as is
	Header map[string]string // extra response headers, e.g. Retry-After
	Hang   time.Duration     // wait this long (or until the client gives up) first
	Drop   bool              // close the connection without answering
}

// Server is a loopback embeddings server. Set its fields before the first
// request.
type Server struct {
	*httptest.Server
	Dim     int    // length of the vectors served
	Key     string // when set, requests without "Bearer <Key>" get 401
	Base64  bool   // answer in base64 whatever encoding_format says
	Shuffle bool   // return data in a random order (indices still right)
	// Delay, when set, is waited out before answering each request.
	Delay func(r Request) time.Duration
	// Fail, when set, is asked about every request (n counts from 1); a
	// non-nil Failure is answered instead of the embeddings.
	Fail func(n int, r Request) *Failure

	mu   sync.Mutex
	n    int
	reqs []Request
}

// NewServer starts a server on 127.0.0.1 serving dim-dimensional vectors
// and closes it when the test ends.
func NewServer(tb testing.TB, dim int) *Server {
	s := &Server{Dim: dim}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// BaseURL is the API root to configure clients with.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Vector is the (unnormalised) vector the server returns for text: a
// deterministic function of the exact input string, prefix included.
func Vector(text string, dim int) []float32 {
	h := sha256.Sum256([]byte(text))
	rng := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16])))
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64() * 3)
	}
	return v
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var body struct {
		Model          string          `json:"model"`
		Input          json.RawMessage `json:"input"`
		EncodingFormat string          `json:"encoding_format"`
		Dimensions     int             `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	req := Request{Model: body.Model, EncodingFormat: body.EncodingFormat, Dimensions: body.Dimensions,
		Authorization: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type")}
	// input may be a string or an array of strings.
	if err := json.Unmarshal(body.Input, &req.Input); err != nil {
		var one string
		if err := json.Unmarshal(body.Input, &one); err != nil {
			http.Error(w, `{"error":{"message":"input must be a string or an array of strings"}}`, http.StatusBadRequest)
			return
		}
		req.Input = []string{one}
	}
	s.mu.Lock()
	s.n++
	n := s.n
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()

	if s.Delay != nil {
		sleep(r, s.Delay(req))
	}
	if s.Fail != nil {
		if f := s.Fail(n, req); f != nil {
			sleep(r, f.Hang)
			if f.Drop {
				if hj, ok := w.(http.Hijacker); ok {
					if conn, _, err := hj.Hijack(); err == nil {
						conn.Close()
						return
					}
				}
			}
			for k, v := range f.Header {
				w.Header().Set(k, v)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(max(f.Status, http.StatusOK))
			w.Write([]byte(f.Body))
			return
		}
	}
	if s.Key != "" && req.Authorization != "Bearer "+s.Key {
		http.Error(w, `{"error":{"message":"invalid api key","type":"invalid_request_error"}}`, http.StatusUnauthorized)
		return
	}
	for _, in := range req.Input {
		if in == "" {
			http.Error(w, `{"error":{"message":"input cannot be an empty string"}}`, http.StatusBadRequest)
			return
		}
	}
	dim := s.Dim
	if req.Dimensions > 0 {
		dim = req.Dimensions
	}
	type item struct {
		Object    string `json:"object"`
		Index     int    `json:"index"`
		Embedding any    `json:"embedding"`
	}
	data := make([]item, len(req.Input))
	for i, in := range req.Input {
		v := Vector(in, dim)
		var e any = v
		if s.Base64 || req.EncodingFormat == "base64" {
			b := make([]byte, 4*len(v))
			for j, x := range v {
				binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(x))
			}
			e = base64.StdEncoding.EncodeToString(b)
		}
		data[i] = item{Object: "embedding", Index: i, Embedding: e}
	}
	if s.Shuffle {
		rand.Shuffle(len(data), func(i, j int) { data[i], data[j] = data[j], data[i] })
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"object": "list",
		"data":   data,
		"model":  req.Model,
		"usage":  map[string]int{"prompt_tokens": len(req.Input), "total_tokens": len(req.Input)},
	})
}

func sleep(r *http.Request, d time.Duration) {
	if d <= 0 {
		return
	}
	select {
	case <-time.After(d):
	case <-r.Context().Done():
	}
}

// RetryAfter is a Failure header map asking the client to wait secs seconds.
func RetryAfter(secs int) map[string]string {
	return map[string]string{"Retry-After": strconv.Itoa(secs)}
}
