package lsa

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// rsvdParams are the knobs of the randomized SVD.
type rsvdParams struct {
	k          int    // singular triplets wanted
	oversample int    // extra random directions: the range finder's slack
	power      int    // subspace iterations
	seed       uint64 // of the Gaussian test matrix
	workers    int
}

// randomizedSVD returns the top singular values of a (descending, only those
// above rounding level, at most p.k) and the matching right singular vectors
// as the columns of an a.cols×k matrix.
//
// It is the randomized subspace iteration of Halko, Martinsson & Tropp
// (2011, algorithms 4.4 and 5.1), run on R = A or R = Aᵀ, whichever has
// fewer rows: Y = RΩ for a Gaussian Ω with l = k + oversample columns, then
// q rounds of Y = R(RᵀQ), re-orthonormalising Y after each round (without
// it the plain power method loses every direction below σ₁·ε^(1/(2q+1)) to
// rounding). The intermediate RᵀQ is not re-orthonormalised: its condition
// is only σ₁/σₗ, not a power of it, which float64 absorbs, and skipping it
// keeps every dense panel on the smaller side.
//
// Orthonormalisation uses the eigendecomposition of the Gram matrix (eigSVD,
// Feng et al. 2018, "Fast randomized PCA for sparse data"): two matrix
// products, where gonum's Householder QR is a sequence of rank-1 updates and
// was 4× slower on 10k×266 panels. The small SVD of B = QᵀR comes from the
// eigendecomposition of BBᵀ = QᵀRRᵀQ = WΣ²Wᵀ. When R = A, the right singular
// vectors are V = BᵀWΣ⁻¹ = Aᵀ(QWΣ⁻¹), one more sparse product; when R = Aᵀ,
// Q spans A's row space and V = QW. Squaring costs relative accuracy about
// ε·(σ₁/σⱼ)² in σⱼ, far below the float32 the model stores; TestRSVDExact
// holds the result to gonum's exact SVD.
//
// When l reaches min(rows, cols) the range finder spans all of a's range and
// the result is exact up to rounding: that is how tiny corpora are handled.
func randomizedSVD(sparse *csr, p rsvdParams) ([]float64, *mat.Dense, error) {
	n, m := sparse.rows, sparse.cols
	l := min(p.k+p.oversample, n, m)
	if min(p.k, l) <= 0 {
		return nil, nil, errors.New("empty matrix")
	}
	// The dense panels live on the smaller side: R = A (range in the
	// rows×l space) when there are fewer passages than terms, else R = Aᵀ.
	// fwd applies R, back applies Rᵀ.
	fwd, back := sparse.tile(), sparse.transpose().tile()
	small, big := n, m
	if m < n {
		fwd, back = back, fwd
		small, big = m, n
	}

	// Ω (big×l) is drawn from one PCG stream in row-major order, so the fit
	// depends on the seed and nothing else.
	rng := rand.New(rand.NewPCG(p.seed, 0x9e3779b97f4a7c15))
	omega := mat.NewDense(big, l, nil)
	for i, raw := 0, omega.RawMatrix().Data; i < len(raw); i++ {
		raw[i] = rng.NormFloat64()
	}
	y := mat.NewDense(small, l, nil)
	fwd.mulDense(y, omega, p.workers)
	omega = nil
	z := mat.NewDense(big, l, nil)
	q, err := orthonormalize(y, p.power == 0)
	if err != nil {
		return nil, nil, err
	}
	for i := range p.power {
		back.mulDense(z, q, p.workers)
		fwd.mulDense(y, z, p.workers)
		if q, err = orthonormalize(y, i == p.power-1); err != nil {
			return nil, nil, err
		}
	}

	// G = QᵀR·RᵀQ = Qᵀ(R(RᵀQ)) = W Σ² Wᵀ.
	back.mulDense(z, q, p.workers)
	fwd.mulDense(y, z, p.workers)
	var g mat.Dense
	g.Mul(q.T(), y)
	w, lambda, err := eigDescending(&g)
	if err != nil {
		return nil, nil, err
	}
	sigma := make([]float64, 0, p.k)
	for _, x := range lambda[:min(p.k, len(lambda))] {
		// Directions at rounding level (duplicate or collinear passages)
		// carry no signal, and a tiny σ would blow up in QWΣ⁻¹.
		s := math.Sqrt(max(x, 0))
		if len(sigma) > 0 && s <= 1e-7*sigma[0] {
			break
		}
		sigma = append(sigma, s)
	}
	k := len(sigma)
	if k == 0 {
		return nil, nil, errors.New("matrix is zero")
	}
	wk := mat.DenseCopyOf(w.Slice(0, l, 0, k))
	v := mat.NewDense(m, k, nil)
	if small == n {
		// Q spans A's column space: V = AᵀQ·W·Σ⁻¹, one more sparse product
		// from an n×k panel.
		for j := range k {
			for i := range l {
				wk.Set(i, j, wk.At(i, j)/sigma[j])
			}
		}
		pm := mat.NewDense(n, k, nil)
		pm.Mul(q, wk)
		back.mulDense(v, pm, p.workers)
	} else {
		// Q spans A's row space, where the right singular vectors lie:
		// AQ = U·Σ·Wᵀ gives V = Q·W.
		v.Mul(q, wk)
	}
	fixSigns(v)
	return sigma, v, nil
}

// orthonormalize returns an orthonormal basis (n×l) of the columns of the
// tall matrix y, which it may overwrite.
//
// eigSVD: with YᵀY = W D Wᵀ, Q = Y W D^(-1/2) has QᵀQ = I in exact
// arithmetic; in floating point the Gram matrix squares y's condition, and
// QᵀQ = I is met only to about ε·cond(y)². The power iterations just need a
// well-conditioned basis, which one pass gives; the final basis defines
// B = QᵀA, whose singular values inherit Q's loss of orthogonality as a
// relative error, so when precise is set and that error could exceed 1e-9
// (far below the float32 the model stores) a second pass runs on the first
// pass's near-orthonormal output, as Cholesky-QR2 does. A y too
// ill-conditioned for its Gram matrix (a tiny or duplicate-ridden corpus,
// whose sample spans a's whole range with room to spare) goes to Householder
// QR, which does not care.
func orthonormalize(y *mat.Dense, precise bool) (*mat.Dense, error) {
	q, cond2, err := eigOrth(y)
	if err != nil {
		return nil, err
	}
	if q == nil {
		q = mat.DenseCopyOf(y) // callers reuse y as a buffer
		if err := householder(q); err != nil {
			return nil, err
		}
		return q, nil
	}
	if precise && cond2*epsilon > 1e-9 {
		q2, _, err := eigOrth(q)
		if err != nil {
			return nil, err
		}
		if q2 == nil {
			return nil, errors.New("orthonormalization lost rank")
		}
		q = q2
	}
	return q, nil
}

const epsilon = 0x1p-52

// eigOrth is one eigSVD pass. It returns the basis and cond(y)², or a nil
// basis when y's Gram matrix is too close to singular for the pass to be
// trusted.
func eigOrth(y *mat.Dense) (*mat.Dense, float64, error) {
	n, l := y.Dims()
	var g mat.Dense
	g.Mul(y.T(), y)
	w, d, err := eigDescending(&g)
	if err != nil {
		return nil, 0, err
	}
	// cond(y)² ≤ 1e10 keeps one pass's orthogonality error near 1e-6,
	// which a second pass (or the next power iteration) removes.
	if d[l-1] <= 1e-10*d[0] {
		return nil, 0, nil
	}
	for j := range l {
		s := 1 / math.Sqrt(d[j])
		for i := range l {
			w.Set(i, j, w.At(i, j)*s)
		}
	}
	q := mat.NewDense(n, l, nil)
	q.Mul(y, w)
	return q, d[0] / d[l-1], nil
}

// eigDescending returns the eigenvectors (as columns) and eigenvalues of the
// symmetric part of g, largest eigenvalue first.
func eigDescending(g *mat.Dense) (*mat.Dense, []float64, error) {
	l, _ := g.Dims()
	sym := mat.NewSymDense(l, nil)
	for i := range l {
		for j := i; j < l; j++ {
			sym.SetSym(i, j, (g.At(i, j)+g.At(j, i))/2)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, nil, errors.New("symmetric eigendecomposition did not converge")
	}
	vals := eig.Values(nil) // ascending
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	w := mat.NewDense(l, l, nil)
	for j := range l {
		src := l - 1 - j
		for i := range l {
			w.Set(i, j, vecs.At(i, src))
		}
	}
	slices.Reverse(vals)
	for _, x := range vals {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, nil, errors.New("non-finite eigenvalue")
		}
	}
	return w, vals, nil
}

// householder overwrites y (rows ≥ cols) with the thin Q of its QR
// factorization.
func householder(y *mat.Dense) error {
	rows, cols := y.Dims()
	if rows < cols {
		return errors.New("qr: matrix is wide")
	}
	g := y.RawMatrix()
	tau := make([]float64, cols)
	work := []float64{0}
	lapack64.Geqrf(g, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Geqrf(g, tau, work, len(work))
	work = []float64{0}
	lapack64.Orgqr(g, tau, work, -1)
	work = make([]float64, int(work[0]))
	lapack64.Orgqr(g, tau, work, len(work))
	for _, x := range g.Data {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errors.New("qr: non-finite values")
		}
	}
	return nil
}

// fixSigns makes the largest-magnitude entry of every column positive.
// Singular vectors are defined up to sign; pinning it makes saved models
// comparable across gonum versions and CPUs that round differently.
func fixSigns(v *mat.Dense) {
	rows, cols := v.Dims()
	for j := range cols {
		best, at := 0.0, 0
		for i := range rows {
			if x := math.Abs(v.At(i, j)); x > best {
				best, at = x, i
			}
		}
		if v.At(at, j) < 0 {
			for i := range rows {
				v.Set(i, j, -v.At(i, j))
			}
		}
	}
}
