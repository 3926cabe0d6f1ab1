package retrieval

import (
	"encoding/json"
	"fmt"
	"io"
)

// Write writes the sweep as a table and the cheapest configuration
// reaching each of levels, or as JSON: one row a line, then a summary
// (eval retrieval --sweep).
func (sw Sweep) Write(w io.Writer, levels []float64, asJSON bool) error {
	type best struct {
		Level float64   `json:"level"`
		Row   *SweepRow `json:"row"`
	}
	var bests []best
	for _, l := range levels {
		b := best{Level: l}
		if r, ok := sw.Cheapest(l, nil); ok {
			b.Row = &r
		}
		bests = append(bests, b)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		for _, r := range sw.Rows {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return enc.Encode(struct {
			N          int     `json:"n"`
			NoGold     int     `json:"no_gold"`
			FullTokens float64 `json:"full_tokens"`
			Searches   int     `json:"searches"`
			Cheapest   []best  `json:"cheapest"`
		}{sw.N, sw.NoGold, sw.FullTokens, sw.Searches, bests})
	}
	if err := sw.WriteTable(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	sw.WriteCheapest(w, levels)
	return nil
}
