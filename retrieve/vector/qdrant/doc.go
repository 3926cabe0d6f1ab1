// Package qdrant is a vector.Store on a Qdrant collection, for corpora
// shared between machines or too large to hold in one process's memory.
//
// It talks gRPC (port 6334) through the official client. Open checks the
// server answers before anything else, so a stopped server is reported at
// once with what to do, and creates the collection (cosine distance, a
// keyword index on paper_id) when it is missing. Each passage is one point
// whose id is a UUID derived from the passage id (Qdrant accepts only
// integers and UUIDs), with the passage id and paper id in its payload.
//
// Searches are exact, not HNSW, and equal scores are ordered by passage id,
// so a run against Qdrant ranks passages as the embedded store does.
//
// The API key, if the server needs one, is read from $QDRANT_API_KEY.
package qdrant
