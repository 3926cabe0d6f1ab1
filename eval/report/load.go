package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/run"
)

// Run is one run folder: its summary and its records.
type Run struct {
	Dir     string
	Summary run.Summary
	Records []run.Record
}

// Load reads summary.json (required) and results.jsonl (optional: without it
// the reasoning-length section has no data) of each run folder.
func Load(dirs ...string) ([]Run, error) {
	if len(dirs) == 0 {
		return nil, errors.New("report: no run folders given")
	}
	var out []Run
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		if err != nil {
			return nil, fmt.Errorf("report: run folder %s: read summary.json: %w", dir, err)
		}
		var s run.Summary
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("report: run folder %s: parse summary.json: %w", dir, err)
		}
		recs, err := run.ReadResults(filepath.Join(dir, "results.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("report: run folder %s: %w", dir, err)
		}
		out = append(out, Run{Dir: dir, Summary: s, Records: recs})
	}
	return out, nil
}
