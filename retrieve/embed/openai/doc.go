// Package openai embeds texts through any server speaking the OpenAI
// /v1/embeddings protocol: Text Embeddings Inference, vLLM, Ollama, OpenAI.
// Serving BAAI/bge-m3 reproduces ElaipBench's dense retriever (section 4.6,
// appendix A.7: bge-m3 dense vectors, default configuration, cosine).
//
//	c, err := openai.New(openai.Options{
//		BaseURL: "http://localhost:8080/v1", // TEI serving BAAI/bge-m3
//		Model:   "BAAI/bge-m3",
//		APIKey:  os.Getenv("PAPERLENS_EMBED_API_KEY"), // empty for local servers
//	})
//
// Requests carry BatchSize texts, Concurrency at a time; results come back
// in input order whatever order the requests finish in, and inside a
// response the "index" field, not the position, places each vector. Every
// vector is L2-normalised, so a dot product is the paper's cosine.
//
// Failures: HTTP 408/409/425/429/5xx (but not 501, nor a 429 for an
// exhausted quota), timeouts, dropped connections and malformed bodies are
// retried up to MaxRetries times with exponential backoff and jitter, never
// sooner than the server's Retry-After (or Retry-After-Ms). Other statuses
// fail at once. A batch that still fails is reported as, for example,
//
//	openai:BAAI/bge-m3: embedding batch 3 (texts 128–191) failed after 6 tries: HTTP 500 Internal Server Error: …
//
// (MaxRetries 5 means six tries in all), and the batches that did finish
// are returned and emitted (see embed.Streamer), so the cache keeps them. A
// server whose vectors change length between responses, or disagree with
// Options.Dim, is an error, not retried: it is serving another model.
//
// The API key travels only in the Authorization header. It is never logged,
// and response excerpts quoted in errors are scrubbed of it (raw,
// JSON-escaped, or with "\/" slashes) in case a server echoes headers back.
//
// The client is plain net/http on internal/httpx, the transport it shares
// with the chat client (package model) and the web search providers: the
// call itself, the error family (HTTPError here is *httpx.HTTPError), the
// redaction, the excerpts, the Retry-After parser and the retry loop are
// one implementation for all three. It is not
// github.com/openai/openai-go: its NewClient sends OPENAI_API_KEY and
// OPENAI_ORG_ID from the environment to whatever server it is pointed at (a
// local TEI server should never see the user's OpenAI key), it retries on
// its own, which would have to be switched off in favour of this package's
// batch-aware retries, and it decodes vectors as float64 with a lenient
// decoder, where this client checks count, index and length and retries
// bodies that fail. The README's "One transport for remote clients" has
// the measurements.
//
// Blank texts are not sent (servers reject empty input) and get the zero
// vector, as embed.Embedder specifies.
package openai
