// Package scaling lets a test claim that some work grows linearly with its
// input, in place of an "under N seconds" bound that a busy machine breaks
// (a 20 s bound on chunking took 20.4 s and 30.5 s on a loaded 2-core
// machine while the code was as fast as ever).
//
// Cost is measured as the CPU time of the whole process (user and system,
// every thread, so the garbage collector's share counts), not the elapsed
// time: other processes stretch the elapsed time of a run, not the CPU time
// the run takes. Each measured run starts after a collection, so that it
// pays for its own garbage only; runs of the two sizes alternate, and the
// least of each is kept, since interference only ever adds time.
//
// The measurement counts every goroutine of the test binary, so it belongs
// in a test that does not call t.Parallel (those run alone) and whose work
// takes at least a few milliseconds at the smaller size.
//
// This is test support, not API.
package scaling

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// Reps is how many runs of each size Ratio keeps the least of.
const Reps = 5

// Cost is the CPU time of one run of f, after a collection.
func Cost(f func()) time.Duration {
	runtime.GC()
	start := cpuTime()
	f()
	return cpuTime() - start
}

// Ratio runs small and large reps times each, alternately, and returns the
// least cost of large over the least cost of small, with both least costs.
func Ratio(reps int, small, large func()) (ratio float64, costSmall, costLarge time.Duration) {
	costSmall, costLarge = time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for range max(reps, 1) {
		costSmall = min(costSmall, Cost(small))
		costLarge = min(costLarge, Cost(large))
	}
	return float64(costLarge) / float64(max(costSmall, time.Microsecond)), costSmall, costLarge
}

// Linear fails tb unless large, given times as much input as small, costs
// at most 2·times as much. Linear work costs about times as much, work in
// n·log n a little more, quadratic work times² (16 for times 4), so the
// limit is far from both the expected value and the failure it guards
// against.
func Linear(tb testing.TB, what string, times int, small, large func()) {
	tb.Helper()
	r, cs, cl := Ratio(Reps, small, large)
	tb.Logf("%s: %v of CPU at 1×, %v at %d×: ratio %.2f (linear %d, limit %d)", what, cs, cl, times, r, times, 2*times)
	if r > float64(2*times) {
		tb.Errorf("%s: %d times the input cost %.1f times the CPU (%v against %v), over the %d a linear cost allows",
			what, times, r, cl, cs, 2*times)
	}
}

// Allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc):
// a count that depends on the code and its input, not on the machine.
// Like Cost, it counts every goroutine of the test binary.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
