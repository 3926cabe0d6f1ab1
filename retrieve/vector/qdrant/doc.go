// Package qdrant keeps paperlens's dense vectors (Store) and BM25 sparse
// vectors (SparseStore) in Qdrant collections, for corpora shared between
// machines or too large to hold in one process's memory.
//
// It talks gRPC (port 6334) through the official client. Opening checks the
// server answers before anything else, so a stopped server is reported at
// once with what to do, and creates a missing collection with a keyword
// index on paper_id. Each passage is one point whose id is a UUID derived
// from the passage id (Qdrant accepts only integers and UUIDs), with the
// passage id and paper id in its payload.
//
// Options.Shards > 0 creates collections with Qdrant's custom sharding and
// puts each paper on shard key ShardKeyOf(paper, N), so that everything
// about one paper (its writes, its deletion, a search within it) goes to a
// single shard. Searches within a paper are exact, so they rank as the
// embedded store does; corpus-wide dense searches walk the HNSW graph with
// Options.EF (exact when it is 0). Equal scores are ordered by passage id.
//
// The BM25 collection has one sparse vector, "bm25", with Qdrant's IDF
// modifier: passages are stored as their BM25 term weights and queries as
// term counts, and Qdrant supplies the idf.
//
// The API key, if the server needs one, is read from $QDRANT_API_KEY.
package qdrant
