// Package vectortest is the contract test every vector.Store must pass:
// results checked against an exact float64 ranking computed in the test,
// ties ordered by ID, paper filtering by exact id, replacement by ID,
// deletion, counts, dimension checks, invalid input, concurrent use, and,
// through RunReopen, persistence. RunSparse is the same for a
// vector.SparseStore, against Qdrant's IDF-weighted dot product computed in
// the test over each IDF scope (the whole store, or a shard).
//
// A store's own test calls Run with a function that opens a fresh store:
//
//	func TestContract(t *testing.T) {
//		vectortest.Run(t, func(t *testing.T, dim int) vector.Store {
//			s, err := vector.OpenEmbedded(t.TempDir())
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
package vectortest
