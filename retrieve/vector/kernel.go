package vector

// dotGo is the scan's inner loop in Go (dot runs it, or on amd64 an
// assembly kernel with the same bits); a search spends nearly all its
// time here.
// Go does not vectorise loops, so the loop is unrolled by 16 into eight
// independent accumulators: that hides the latency of the float adds (one
// chain would stall on each) while staying within the 16 SSE registers.
// Re-slicing a and b at the top and advancing both with a[16:], b[16:] lets
// the compiler prove every index in range, so the body has no bounds checks.
// The accumulators are summed pairwise at the end, which also keeps the
// float32 rounding error well below what ranking can notice.
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for len(a) >= 16 && len(b) >= 16 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
		s0 += a[8] * b[8]
		s1 += a[9] * b[9]
		s2 += a[10] * b[10]
		s3 += a[11] * b[11]
		s4 += a[12] * b[12]
		s5 += a[13] * b[13]
		s6 += a[14] * b[14]
		s7 += a[15] * b[15]
		a, b = a[16:], b[16:]
	}
	if len(a) >= 8 && len(b) >= 8 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
		a, b = a[8:], b[8:]
	}
	b = b[:len(a)]
	for i, x := range a {
		s0 += x * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// scoreRows scores each row of rows (len(scores)·len(q) float32s, row by
// row) against q into scores.
func scoreRows(q, rows, scores []float32) {
	dim := len(q)
	for r := range scores {
		scores[r] = dot(q, rows[r*dim:r*dim+dim])
	}
}
