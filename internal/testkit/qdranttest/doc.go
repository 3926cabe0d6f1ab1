// Package qdranttest runs an in-memory fake of the Qdrant gRPC API on a
// loopback port, so code that talks to Qdrant can be tested on machines
// that cannot run Qdrant. It speaks the real wire protocol (it is built on
// the official client's service stubs), stores dense and sparse points in
// memory with real filter semantics on payload keys, shard keys and
// Qdrant's IDF formula, records every request for tests to check, and
// implements only the calls paperlens makes; see Server.
//
//	srv := qdranttest.Start(t)
//	s, err := qdrant.Open(ctx, srv.URL, "papers", 384)
//	reqs := srv.Requests("/qdrant.Points/Query")
package qdranttest
