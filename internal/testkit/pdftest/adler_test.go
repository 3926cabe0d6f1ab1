package pdftest

import (
	"bytes"
	"hash/adler32"
	"testing"
)

func TestAdlerArithmetic(t *testing.T) {
	for _, n := range []int{0, 1, 5, 65520, 65521, 65522, 200000, 1 << 20} {
		run := bytes.Repeat([]byte("A"), n)
		if got, want := adlerRun('A', int64(n)), adler32.Checksum(run); got != want {
			t.Errorf("adlerRun(%d) = %08x, want %08x", n, got, want)
		}
		head, tail := []byte("head ("), []byte(") tail")
		all := append(append(append([]byte(nil), head...), run...), tail...)
		got := adler32Combine(adler32Combine(adler(head), adlerRun('A', int64(n)), int64(n)), adler(tail), int64(len(tail)))
		if want := adler32.Checksum(all); got != want {
			t.Errorf("combined(%d) = %08x, want %08x", n, got, want)
		}
	}
}
