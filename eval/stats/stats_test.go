package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestMeanStd(t *testing.T) {
	tests := []struct {
		xs        []float64
		mean, std float64
	}{
		{nil, 0, 0},
		{[]float64{0.4}, 0.4, 0},
		{[]float64{2, 4, 4, 4, 5, 5, 7, 9}, 5, math.Sqrt(32.0 / 7)},              // sample std, not the population 2
		{[]float64{38.71, 35.48, 36.23}, 36.806666666666665, 1.6904535880447416}, // Python statistics.stdev
		{[]float64{1e9 + 1, 1e9 + 2, 1e9 + 3}, 1e9 + 2, 1},                       // no cancellation
	}
	for _, tt := range tests {
		m, s := MeanStd(tt.xs)
		if !near(m, tt.mean, 1e-9) || !near(s, tt.std, 1e-9) {
			t.Errorf("MeanStd(%v) = %v, %v; want %v, %v", tt.xs, m, s, tt.mean, tt.std)
		}
	}
}

// outcomes builds paired outcomes with the given cell counts: n11 both
// right, n10 only a, n01 only b, n00 both wrong.
func outcomes(n11, n10, n01, n00 int) (a, b []bool) {
	add := func(n int, x, y bool) {
		for range n {
			a, b = append(a, x), append(b, y)
		}
	}
	add(n11, true, true)
	add(n10, true, false)
	add(n01, false, true)
	add(n00, false, false)
	return a, b
}

func TestMcNemar(t *testing.T) {
	tests := []struct {
		name             string
		n10, n01         int
		want             float64
		tol              float64
		wantB01, wantB10 int
	}{
		// Exact: 2·P(X ≤ 2), X ~ Bin(12, ½) = 2·79/4096.
		{"exact b=10 c=2", 2, 10, 0.03857421875, 1e-9, 10, 2},
		{"exact symmetric", 2, 10, 0.0386, 5e-5, 10, 2},
		{"exact swapped", 10, 2, 0.03857421875, 1e-9, 2, 10},
		{"exact n=24", 17, 7, 0.06391465663909912, 1e-9, 7, 17},
		{"exact equal caps at 1", 3, 3, 1, 0, 3, 3},
		// χ²: (|30−15|−1)²/45 = 4.3556, p = erfc(√(x/2)).
		{"chi2 45", 15, 30, 0.03688842570704985, 1e-9, 30, 15},
		{"chi2 60", 20, 40, 0.01417138825401233, 1e-9, 40, 20},
		{"chi2 equal", 20, 20, 1, 0, 20, 20},
		{"no discordant", 0, 0, 1, 0, 0, 0},
	}
	for _, tt := range tests {
		a, b := outcomes(50, tt.n10, tt.n01, 30)
		b01, b10, p := McNemar(a, b)
		if b01 != tt.wantB01 || b10 != tt.wantB10 || !near(p, tt.want, tt.tol) {
			t.Errorf("%s: McNemar = %d, %d, %.12g; want %d, %d, %.12g", tt.name, b01, b10, p, tt.wantB01, tt.wantB10, tt.want)
		}
	}
}

// TestMcNemarBoundary checks that 24 discordant pairs use the exact test
// and 25 the χ² one.
func TestMcNemarBoundary(t *testing.T) {
	a, b := outcomes(0, 7, 17, 0)
	if _, _, p := McNemar(a, b); !near(p, 0.06391465663909912, 1e-9) {
		t.Errorf("24 pairs: p = %v, want exact", p)
	}
	a, b = outcomes(0, 7, 18, 0)
	chi := math.Pow(11-1, 2) / 25
	if _, _, p := McNemar(a, b); !near(p, math.Erfc(math.Sqrt(chi/2)), 1e-9) {
		t.Errorf("25 pairs: p = %v, want χ² %v", p, math.Erfc(math.Sqrt(chi/2)))
	}
}

func TestPairedBootstrap(t *testing.T) {
	a := make([]float64, 200)
	b := make([]float64, 200)
	for i := range a {
		a[i] = float64(i % 2)         // 50 %
		b[i] = float64(min(1, i%5%3)) // 60 %
	}
	diff, lo, hi := PairedBootstrap(a, b, 0, 7)
	if !near(diff, 0.1, 1e-12) {
		t.Fatalf("diff = %v, want 0.1", diff)
	}
	if !(lo < diff && diff < hi) || lo < -1 || hi > 1 {
		t.Fatalf("interval [%v, %v] does not contain %v", lo, hi, diff)
	}
	// The interval width is about 2·1.96·sd(d)/√n; sd(d) here is 0.7.
	if w := hi - lo; w < 0.12 || w > 0.26 {
		t.Errorf("width %v far from the normal approximation 0.19", w)
	}
	d2, lo2, hi2 := PairedBootstrap(a, b, 0, 7)
	if d2 != diff || lo2 != lo || hi2 != hi {
		t.Errorf("not deterministic: [%v, %v] then [%v, %v]", lo, hi, lo2, hi2)
	}
	if _, lo3, hi3 := PairedBootstrap(a, b, 0, 8); lo3 == lo && hi3 == hi {
		t.Errorf("seed ignored")
	}
}

func TestPairedBootstrapIdentical(t *testing.T) {
	a := []float64{1, 0, 1, 1, 0, 0.5, 2.0 / 3}
	diff, lo, hi := PairedBootstrap(a, a, 1000, 1)
	if diff != 0 || lo != 0 || hi != 0 {
		t.Fatalf("identical vectors: %v [%v, %v], want 0 [0, 0]", diff, lo, hi)
	}
}

// TestPairedBootstrapMonotone checks that turning more of the treatment's
// answers right moves the whole interval up.
func TestPairedBootstrapMonotone(t *testing.T) {
	n := 100
	a := make([]float64, n)
	for i := range a {
		a[i] = float64(i % 2)
	}
	prevDiff, prevLo, prevHi := math.Inf(-1), math.Inf(-1), math.Inf(-1)
	for k := 0; k <= 50; k += 10 {
		b := append([]float64(nil), a...)
		for i := 0; i < 2*k; i += 2 {
			b[i] = 1 // k more questions right
		}
		diff, lo, hi := PairedBootstrap(a, b, 2000, 3)
		if diff <= prevDiff && k > 0 || lo < prevLo || hi < prevHi {
			t.Fatalf("k=%d: %v [%v, %v] after %v [%v, %v]", k, diff, lo, hi, prevDiff, prevLo, prevHi)
		}
		if k == 50 && lo <= 0 {
			t.Errorf("50 more right of 100 should be clearly positive, lo = %v", lo)
		}
		prevDiff, prevLo, prevHi = diff, lo, hi
	}
}

func TestPairedBootstrapEdges(t *testing.T) {
	if d, lo, hi := PairedBootstrap(nil, nil, 0, 1); d != 0 || lo != 0 || hi != 0 {
		t.Errorf("empty: %v %v %v", d, lo, hi)
	}
	if d, lo, hi := PairedBootstrap([]float64{0}, []float64{1}, 10, 1); d != 1 || lo != 1 || hi != 1 {
		t.Errorf("one question: %v %v %v", d, lo, hi)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("length mismatch did not panic")
		}
	}()
	PairedBootstrap([]float64{1}, []float64{1, 0}, 10, 1)
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	for _, tt := range []struct{ p, want float64 }{{0, 1}, {0.25, 2}, {0.1, 1.4}, {0.975, 4.9}, {1, 5}} {
		if got := quantile(xs, tt.p); !near(got, tt.want, 1e-12) {
			t.Errorf("quantile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	a, b := outcomes(150, 2, 10, 241) // 403 questions, like ElaipBench
	p := Compare(a, b, 0, 42)
	if p.N != 403 || p.B01 != 10 || p.B10 != 2 || !near(p.PValue, 0.03857421875, 1e-9) {
		t.Fatalf("Compare = %+v", p)
	}
	if !near(p.Diff, 8.0/403, 1e-12) || !(p.Lo <= p.Diff && p.Diff <= p.Hi) {
		t.Fatalf("Compare diff %v not in [%v, %v]", p.Diff, p.Lo, p.Hi)
	}
	if p.String() == "" {
		t.Fatal("empty String")
	}
}

func TestWilson(t *testing.T) {
	cases := []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		// Agresti & Coull (1998) and any statistics package: 0.9 of 100
		// gives [0.8256, 0.9448]; 0 of 10 gives [0, 0.2775].
		{0.9, 100, 0.8256, 0.9448},
		{0, 10, 0, 0.2775},
		{1, 20, 0.8389, 1},
		{0.5, 1, 0.0546, 0.9454},
		{0, 0, 0, 1}, // nothing scored: nothing known
	}
	for _, c := range cases {
		lo, hi := Wilson(c.p, c.n)
		if math.Abs(lo-c.lo) > 5e-4 || math.Abs(hi-c.hi) > 5e-4 {
			t.Errorf("Wilson(%v, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.p, c.n, lo, hi, c.lo, c.hi)
		}
	}
}
