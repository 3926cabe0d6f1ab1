package embed_test

import (
	"math"
	"testing"

	"github.com/paperlens/paperlens/retrieve/embed"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []float32
		ok   bool
	}{
		{"3-4-5", []float32{3, 4}, true},
		{"already unit", []float32{0, 1, 0}, true},
		{"tiny values", []float32{1e-30, 1e-30}, true},
		{"zero", []float32{0, 0, 0}, false},
		{"empty", nil, false},
		{"NaN", []float32{float32(math.NaN()), 1}, false},
		{"Inf", []float32{float32(math.Inf(1)), 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := append([]float32(nil), tc.in...)
			if got := embed.Normalize(v); got != tc.ok {
				t.Fatalf("Normalize = %v, want %v", got, tc.ok)
			}
			if !tc.ok {
				for i := range v {
					if math.Float32bits(v[i]) != math.Float32bits(tc.in[i]) {
						t.Fatalf("a failed Normalize changed the vector: %v", v)
					}
				}
				return
			}
			if n := math.Sqrt(embed.Dot(v, v)); math.Abs(n-1) > 1e-6 {
				t.Fatalf("norm %g", n)
			}
		})
	}
}

func TestDot(t *testing.T) {
	if got := embed.Dot([]float32{1, 2, 3}, []float32{4, -5, 6}); got != 12 {
		t.Fatalf("Dot = %g", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Dot of different lengths did not panic")
		}
	}()
	embed.Dot([]float32{1}, []float32{1, 2})
}

func TestKindString(t *testing.T) {
	for k, want := range map[embed.Kind]string{embed.Query: "query", embed.Passage: "passage", embed.Kind(7): "Kind(7)"} {
		if k.String() != want {
			t.Errorf("%d: %q, want %q", int(k), k.String(), want)
		}
	}
}
