package vector

// dot4x8 is in dot_amd64.s.
//
//go:noescape
func dot4x8(q, r0 *float32, stride, n8 int, out *[32]float32)

// dots4 scores the four rows of rows (4·len(q) float32s) against q, each
// bit for bit as dot would: the assembly sums the 8-aligned part lane by
// lane, as dot's accumulators do, and the tail and the final pairwise sum
// are dot's own code.
func dots4(q, rows []float32, out *[4]float32) {
	dim := len(q)
	rows = rows[:4*dim]
	n8 := dim &^ 7
	var lanes [32]float32
	dot4x8(&q[0], &rows[0], dim, n8, &lanes)
	for r := range 4 {
		s := lanes[r*8 : r*8+8]
		s0 := s[0]
		row := rows[r*dim : r*dim+dim]
		for i := n8; i < dim; i++ {
			s0 += q[i] * row[i]
		}
		out[r] = ((s0 + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
	}
}
