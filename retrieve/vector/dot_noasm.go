//go:build !amd64

package vector

// dots4 scores four rows; without the amd64 kernel, one at a time.
func dots4(q, rows []float32, out *[4]float32) {
	dim := len(q)
	for r := range 4 {
		out[r] = dot(q, rows[r*dim:r*dim+dim])
	}
}
