//go:build race

package ingest

// raceSlowdown scales the per-document time limit of a test in which every
// document but a hanging one must finish in time. Under go test -race,
// parsing runs 4 to 12 times slower (measured on the 2-core machine, in a
// worker: long.txt 1.7 s → 6.6 s, a 17-page shared PDF 0.5 s → 6.3 s),
// within a hair of the 8 s limit that TestIsolatedHostileBatch sets.
const raceSlowdown = 4
