package lsa

import (
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// csr is a sparse matrix in compressed sparse row form. The tf-idf matrix of
// 10k passages has about 2M non-zeros out of 10k×25k cells, so the products
// the SVD needs cost O(nnz·l) here against O(rows·cols·l) dense.
type csr struct {
	rows, cols int
	ptr        []int // row i is idx/val[ptr[i]:ptr[i+1]]
	idx        []int32
	val        []float64
}

func (a *csr) nnz() int { return len(a.val) }

// transpose returns aᵀ in CSR form (that is, a in CSC form), so that
// products with aᵀ also run row by row: each output row has one writer, and
// the parallel product needs no locks and gives the same bits for any number
// of workers. Column indices within each row come out ascending.
func (a *csr) transpose() *csr {
	t := &csr{rows: a.cols, cols: a.rows, ptr: make([]int, a.cols+1), idx: make([]int32, a.nnz()), val: make([]float64, a.nnz())}
	for _, j := range a.idx {
		t.ptr[j+1]++
	}
	for j := 0; j < a.cols; j++ {
		t.ptr[j+1] += t.ptr[j]
	}
	next := append([]int(nil), t.ptr[:a.cols]...)
	for i := 0; i < a.rows; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			j := a.idx[p]
			q := next[j]
			t.idx[q] = int32(i)
			t.val[q] = a.val[p]
			next[j]++
		}
	}
	return t
}

// tileCols is the width of the column tiles of a tiled matrix: the rows of
// the dense operand a tile reads (tileCols × l float64, about 1 MB for
// l = 266) stay in a core's L2 cache while every output row takes its
// share of that tile.
const tileCols = 512

// tiled is a csr cut into column tiles, each a csr of its own over all rows.
//
// The product a·x reads one row of x per non-zero. Untiled, those rows are
// scattered over all of x (25k terms × 266 × 8 B = 53 MB, beyond any
// cache), and the fit spent most of its time waiting on them: measured on
// 10k passages × 200 terms, 3.4 s per product untiled against 0.4 s tiled
// (see BenchmarkProduct). Tiled, x is read once, tile by tile, and the
// output rows, read and written once per tile, stream sequentially. Tile
// widths from 256 to 2048 measured alike; 512 leaves L2 room to spare.
type tiled struct {
	rows, cols int
	tiles      []csr // tile t covers columns [t·tileCols, (t+1)·tileCols)
}

func (a *csr) tile() *tiled {
	nt := max(1, (a.cols+tileCols-1)/tileCols)
	t := &tiled{rows: a.rows, cols: a.cols, tiles: make([]csr, nt)}
	count := make([]int, nt)
	for _, j := range a.idx {
		count[int(j)/tileCols]++
	}
	for k := range t.tiles {
		t.tiles[k] = csr{rows: a.rows, cols: a.cols, ptr: make([]int, 1, a.rows+1),
			idx: make([]int32, 0, count[k]), val: make([]float64, 0, count[k])}
	}
	for i := 0; i < a.rows; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			tl := &t.tiles[int(a.idx[p])/tileCols]
			tl.idx = append(tl.idx, a.idx[p])
			tl.val = append(tl.val, a.val[p])
		}
		for k := range t.tiles {
			t.tiles[k].ptr = append(t.tiles[k].ptr, len(t.tiles[k].idx))
		}
	}
	return t
}

// mulDense sets dst = a·x for a dense x of a.cols rows; dst must be
// a.rows×c where c is x's column count. Rows are shared among workers in
// contiguous ranges of about equal non-zero count.
func (a *tiled) mulDense(dst, x *mat.Dense, workers int) {
	xr, c := x.Dims()
	dr, dc := dst.Dims()
	if xr != a.cols || dr != a.rows || dc != c {
		panic("lsa: tiled.mulDense shape mismatch")
	}
	xm, dm := x.RawMatrix(), dst.RawMatrix()
	// Daxpy is gonum's SIMD kernel, 2-3× the speed of the plain Go loop.
	axpy := blas64.Implementation().Daxpy
	run := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			clear(dm.Data[i*dm.Stride : i*dm.Stride+c])
		}
		for k := range a.tiles {
			tl := &a.tiles[k]
			for i := lo; i < hi; i++ {
				out := dm.Data[i*dm.Stride : i*dm.Stride+c]
				for p := tl.ptr[i]; p < tl.ptr[i+1]; p++ {
					j := int(tl.idx[p]) * xm.Stride
					axpy(c, tl.val[p], xm.Data[j:j+c], 1, out, 1)
				}
			}
		}
	}
	if workers <= 1 || a.rows < 2*workers {
		run(0, a.rows)
		return
	}
	// Split by non-zeros, not rows: term rows of aᵀ are Zipf-distributed
	// and an even split of rows would leave one worker most of the work.
	nnz := func(i int) int { // non-zeros in rows [0, i)
		s := 0
		for k := range a.tiles {
			s += a.tiles[k].ptr[i]
		}
		return s
	}
	total := nnz(a.rows)
	var wg sync.WaitGroup
	lo := 0
	for w := 1; w <= workers && lo < a.rows; w++ {
		hi := a.rows
		if w < workers {
			target := total * w / workers
			// Smallest hi with nnz(hi) ≥ target, by bisection.
			l, h := lo+1, a.rows
			for l < h {
				m := (l + h) / 2
				if nnz(m) >= target {
					h = m
				} else {
					l = m + 1
				}
			}
			hi = l
		}
		from := lo
		wg.Go(func() { run(from, hi) })
		lo = hi
	}
	wg.Wait()
}

// dense returns a as a dense matrix, for tests against exact factorizations.
func (a *csr) dense() *mat.Dense {
	d := mat.NewDense(a.rows, a.cols, nil)
	for i := 0; i < a.rows; i++ {
		for p := a.ptr[i]; p < a.ptr[i+1]; p++ {
			d.Set(i, int(a.idx[p]), a.val[p])
		}
	}
	return d
}
