// Package corpus is the durable store of ingested documents: their records,
// cleaned text and passages, kept in one bbolt file under the paperlens home.
//
// Each document is written in one transaction, so an ingest killed half-way
// leaves every document either whole or absent, and the next run finishes the
// job. Passage offsets point into the stored cleaned text, which is what the
// inspector highlights evidence against.
package corpus
