//go:build !amd64

package vector

// dot is dotGo where there is no assembly kernel.
func dot(a, b []float32) float32 { return dotGo(a, b) }
