// Package vector stores passage embeddings and finds the passages nearest a
// query embedding by cosine similarity, within one paper or across the
// corpus.
//
// Store is the interface the dense retriever talks to. Embedded, opened with
// OpenEmbedded, is the default: exact brute-force search over vectors held in
// memory in one contiguous slice per paper, persisted to a bbolt file so a
// crash mid-write leaves the previous state intact. Package
// retrieve/vector/qdrant puts the same interface on a Qdrant server, and
// package internal/testkit/vectortest is the contract test both pass.
//
// Vectors are normalised to unit length when stored, so the similarity is a
// plain dot product. Every store remembers the dimension it was built with
// and refuses vectors of another length with ErrDimension: mixing two
// embedders' vectors would rank passages on meaningless numbers, and the
// remedy is always to rebuild the index.
package vector
