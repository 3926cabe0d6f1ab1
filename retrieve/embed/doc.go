// Package embed defines what the dense retriever needs from a text
// embedder, and the small vector helpers shared by its implementations.
//
// ElaipBench's dense retriever embeds questions and 512-token passages with
// BGE-m3 and ranks passages by cosine (section 4.6, appendix A.7). paperlens
// offers two embedders behind the one [Embedder] interface:
//
//   - [github.com/paperlens/paperlens/retrieve/embed/openai]: any
//     OpenAI-compatible /v1/embeddings server (TEI, vLLM, Ollama, OpenAI).
//     Serving BAAI/bge-m3 this way reproduces the paper's retriever.
//   - [github.com/paperlens/paperlens/retrieve/embed/lsa]: latent semantic
//     analysis fitted on the indexed corpus, built in and needing no
//     download. It is a classical baseline, not a neural model, and is
//     always reported as "lsa-…", never as BGE-m3.
//
// [github.com/paperlens/paperlens/retrieve/embed/cache] stores vectors on
// disk in front of either, so re-indexing never re-embeds.
//
// The interface is small on purpose: Name identifies the vector space (two
// embedders with one Name must give interchangeable vectors, since caches
// and indexes key on it), Dim its size, and Embed maps texts to unit vectors,
// with [Kind] telling queries from passages for models that embed them
// differently. Embedders that can hand back batches as they finish also
// implement [Streamer], which lets the cache persist work before a long
// request completes.
package embed
