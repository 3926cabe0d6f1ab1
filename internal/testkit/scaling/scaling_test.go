package scaling

import (
	"strings"
	"testing"
)

// spin does n units of CPU work the compiler cannot drop.
func spin(n int) int {
	x := 1
	for i := range n {
		x = x*31 + i
	}
	return x
}

var sink int

// The check itself must tell linear from quadratic work, or every test
// built on it passes whatever the code does.
func TestLinearTellsLinearFromQuadratic(t *testing.T) {
	const n = 1 << 22
	r, cs, cl := Ratio(Reps, func() { sink += spin(n) }, func() { sink += spin(4 * n) })
	t.Logf("linear: %v, %v", cs, cl)
	if r < 2 || r > 8 {
		t.Errorf("linear work: ratio %.2f, want about 4", r)
	}
	const m = 1 << 11
	quad := func(m int) func() {
		return func() {
			for i := range m {
				sink += spin(i)
			}
		}
	}
	r, cs, cl = Ratio(Reps, quad(m), quad(4*m))
	t.Logf("quadratic: %v, %v", cs, cl)
	if r < 8 {
		t.Errorf("quadratic work: ratio %.2f, want about 16", r)
	}
	// And Linear fails on it.
	var ft fakeTB
	Linear(&ft, "quadratic", 4, quad(m), quad(4*m))
	if !ft.failed {
		t.Error("Linear passed quadratic work")
	}
}

func TestAllocated(t *testing.T) {
	var keep string
	got := Allocated(func() { keep = strings.Repeat("x", 1<<20) })
	if len(keep) != 1<<20 || got < 1<<20 || got > 2<<20 {
		t.Errorf("a 1 MiB string: %d bytes allocated", got)
	}
}

// fakeTB records a failure instead of failing the test.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Logf(string, ...any)   {}
func (f *fakeTB) Errorf(string, ...any) { f.failed = true }
