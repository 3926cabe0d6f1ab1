//go:build race

package isolate

// raceDataFactor scales a worker's RLIMIT_DATA in a -race build. The race
// detector's shadow memory and ThreadSanitizer's own allocator count
// against that limit, so without room for them a worker dies in
// ThreadSanitizer ("internal allocator is out of memory") before its own
// heap or stack reaches the cap, and `go test -race` sees a crash where a
// normal build sees the out-of-memory or stack overflow under test. The Go
// memory limit and the stack limit stay on the configured cap.
const raceDataFactor = 4
