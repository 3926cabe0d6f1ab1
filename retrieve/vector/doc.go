// Package vector stores passage embeddings and finds the passages nearest a
// query embedding by cosine similarity, within one paper or across the
// corpus.
//
// Store is the interface the dense retriever talks to. Embedded, opened with
// OpenEmbedded, is the default: exact brute-force search over unit float32
// rows in segment files mapped read-only, so a search process starts in
// milliseconds, its heap does not grow with the corpus, and every process
// searching one store shares the page cache's single copy. A write adds a
// segment and replaces a small manifest atomically, so a crash mid-write
// leaves the previous state intact (disk.go has the layout). Package
// retrieve/vector/qdrant puts the same interface on a Qdrant server, and
// package internal/testkit/vectortest is the contract test both pass.
//
// Vectors are normalised to unit length when stored, so the similarity is a
// plain dot product. Every store remembers the dimension it was built with
// and refuses vectors of another length with ErrDimension: mixing two
// embedders' vectors would rank passages on meaningless numbers, and the
// remedy is always to rebuild the index.
package vector
