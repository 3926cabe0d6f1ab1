package vector

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// diskUpsert writes batch (normalised, deduplicated) as one segment and
// marks the rows it replaces deleted, in one manifest commit.
func (e *Embedded) diskUpsert(dim int, batch []Point) error {
	tx, err := e.begin()
	if err != nil {
		return fmt.Errorf("upsert into %s: %w", e.path, err)
	}
	// Another process may have set the dimension since this store was
	// opened; the manifest, not memory, is the authority.
	if have := tx.v.man.Dim; have != 0 && have != dim {
		tx.abort()
		unmapUnused(e.maps, e.view)
		return fmt.Errorf("upsert into %s: %w", e.path, &DimensionError{Store: e.label(), Want: have, Got: dim})
	}
	tx.v.man.Dim = dim
	for _, p := range batch {
		tx.v.deleteID(p.ID)
	}
	err = tx.appendSegment(batch, e.maps)
	if err == nil {
		err = tx.compact(e.maps)
	}
	if err == nil {
		err = tx.commit()
	}
	return e.finishTx(tx, err, "upsert into")
}

// finishTx makes tx's state the store's when err is nil, and unmaps what
// the store no longer uses either way.
func (e *Embedded) finishTx(tx *writeTx, err error, what string) error {
	if err != nil {
		tx.abort()
		unmapUnused(e.maps, e.view)
		return fmt.Errorf("%s %s: %w", what, e.path, err)
	}
	tx.unlock()
	e.view, e.dim = tx.v, tx.v.man.Dim
	unmapUnused(e.maps, e.view)
	return nil
}

func (e *Embedded) diskDeletePaper(paperID string) error {
	tx, err := e.begin()
	if err != nil {
		return fmt.Errorf("delete paper %q from %s: %w", paperID, e.path, err)
	}
	n := 0
	for i := range tx.v.segs {
		s := &tx.v.segs[i]
		lo, hi := s.m.paperRows(paperID)
		for r := lo; r < hi; r++ {
			if !s.isDead(r) {
				s.kill(r)
				n++
			}
		}
	}
	if n == 0 {
		// Nothing to write; the store still takes in what others wrote.
		return e.finishTx(tx, nil, "")
	}
	err = tx.compact(e.maps)
	if err == nil {
		err = tx.commit()
	}
	return e.finishTx(tx, err, fmt.Sprintf("delete paper %q from", paperID))
}

// deleteID marks id's live row deleted, wherever it is.
func (v *view) deleteID(id string) {
	for i := range v.segs {
		s := &v.segs[i]
		if r := s.m.findID(id); r >= 0 && !s.isDead(r) {
			s.kill(r)
			return // an id is live in one row at most
		}
	}
}

// compact drops segments with no live row, rewrites those mostly deleted
// (a search would scan dead rows), and merges mergeFanIn segments of one
// level at the end of the list into one of the next level.
func (tx *writeTx) compact(reg map[string]*mapping) error {
	segs := slices.DeleteFunc(tx.v.segs, func(s vseg) bool { return s.live == 0 })
	for i := range segs {
		if segs[i].live*2 < segs[i].m.rows {
			ns, err := tx.merge(segs[i:i+1], segs[i].level, reg)
			if err != nil {
				return err
			}
			segs[i] = ns
		}
	}
	for {
		n := len(segs)
		if n < mergeFanIn {
			break
		}
		level := segs[n-1].level
		tail := segs[n-mergeFanIn:]
		if slices.ContainsFunc(tail, func(s vseg) bool { return s.level != level }) {
			break
		}
		ns, err := tx.merge(tail, level+1, reg)
		if err != nil {
			return err
		}
		segs = append(segs[:n-mergeFanIn], ns)
	}
	tx.v.segs = segs
	return nil
}

// merge writes the live rows of segs as one segment, streaming each row
// from its mapping; only the list of rows is held in memory.
func (tx *writeTx) merge(segs []vseg, level int, reg map[string]*mapping) (vseg, error) {
	type ref struct {
		s     int32
		paper int32
		row   int32
	}
	var refs []ref
	for si, s := range segs {
		m := s.m
		for p := range m.papers() {
			for r := int(m.paperStart[p]); r < int(m.paperStart[p+1]); r++ {
				if !s.isDead(r) {
					refs = append(refs, ref{int32(si), int32(p), int32(r)})
				}
			}
		}
	}
	slices.SortFunc(refs, func(a, b ref) int {
		ma, mb := segs[a.s].m, segs[b.s].m
		return cmp.Or(cmp.Compare(ma.paperName(int(a.paper)), mb.paperName(int(b.paper))),
			cmp.Compare(ma.id(int(a.row)), mb.id(int(b.row))))
	})
	return tx.writeSegment(level, reg, func(add func(paper, id string, vec []float32) error) error {
		for _, r := range refs {
			m := segs[r.s].m
			if err := add(m.paperName(int(r.paper)), m.id(int(r.row)), m.row(int(r.row))); err != nil {
				return err
			}
		}
		return nil
	})
}

// diskSearch scans the mapped rows of the paper (or all of them) against
// the unit query q.
func (v *view) search(ctx context.Context, q []float32, paperID string, h *topK) error {
	for i := range v.segs {
		s := &v.segs[i]
		lo, hi := 0, s.m.rows
		if paperID != "" {
			lo, hi = s.m.paperRows(paperID)
		} else if err := ctx.Err(); err != nil {
			// Checked per segment: a cancelled corpus-wide search stops
			// within one segment's worth of work.
			return fmt.Errorf("vector search: %w", err)
		}
		s.scan(q, lo, hi, h)
	}
	return nil
}

// scan scores rows [lo, hi) of s. Rows are contiguous in the mapping, so
// the loop streams memory and the hardware prefetcher keeps ahead of it.
func (s *vseg) scan(q []float32, lo, hi int, h *topK) {
	m, dim := s.m, len(q)
	var buf [scanBlock]float32
	for base := lo; base < hi; base += scanBlock {
		n := min(scanBlock, hi-base)
		scores := buf[:n]
		scoreRows(q, m.vecs[base*dim:(base+n)*dim], scores)
		for j, sc := range scores {
			if f, full := h.floor(); full && sc < f {
				continue
			}
			if r := base + j; !s.isDead(r) {
				h.push(cand{score: sc, id: m.id(r), seg: m, row: int32(r)})
			}
		}
	}
}
