package index

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestStalePapers(t *testing.T) {
	ix := &Index{st: state{Papers: map[string]paperState{
		"kept": {Fingerprint: "a"}, "changed": {Fingerprint: "old"}, "gone-b": {Fingerprint: "x"}, "gone-a": {Fingerprint: "y"}, "changed-too": {Fingerprint: "p"},
	}}}
	gone, changed := ix.stalePapers(map[string]string{"kept": "a", "changed": "new", "changed-too": "q", "new": "n"})
	if !slices.Equal(gone, []string{"gone-a", "gone-b"}) || !slices.Equal(changed, []string{"changed", "changed-too"}) {
		t.Errorf("gone %v changed %v", gone, changed)
	}
	if gone, changed := (&Index{}).stalePapers(map[string]string{"new": "n"}); gone != nil || changed != nil {
		t.Errorf("empty state: gone %v changed %v", gone, changed)
	}
}

func TestDropUnknownVectors(t *testing.T) {
	for _, tc := range []struct {
		name       string
		stateFound bool
		store      string
		wantFresh  bool
		wantGone   bool
	}{
		{"state found", true, "embedded", true, false},
		{"no state, embedded store", false, "embedded", true, true},
		{"no state, remote store", false, "qdrant", false, false},
	} {
		dir := t.TempDir()
		ix := &Index{dir: dir, stateFound: tc.stateFound, cfg: Config{Store: tc.store}}
		if err := os.MkdirAll(ix.vectorDir(), 0o755); err != nil {
			t.Fatal(err)
		}
		marker := filepath.Join(ix.vectorDir(), "x")
		if err := os.WriteFile(marker, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		fresh, err := ix.dropUnknownVectors()
		_, statErr := os.Stat(marker)
		if err != nil || fresh != tc.wantFresh || os.IsNotExist(statErr) != tc.wantGone {
			t.Errorf("%s: fresh %v err %v, vectors gone %v; want %v, gone %v", tc.name, fresh, err, os.IsNotExist(statErr), tc.wantFresh, tc.wantGone)
		}
	}
}
