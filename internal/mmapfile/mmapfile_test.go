package mmapfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestMapReadsTheFile maps a real file and an empty one, and unmaps both.
func TestMapReadsTheFile(t *testing.T) {
	dir := t.TempDir()
	want := bytes.Repeat([]byte("paperlens "), 10000)
	for _, body := range [][]byte{want, nil} {
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, unmap, err := Map(f, int64(len(body)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, body) {
			t.Fatalf("mapped %d bytes, want %d equal to the file", len(got), len(body))
		}
		if err := unmap(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// TestMapRefusesNegativeSize: a size no file has is an error, not a panic.
func TestMapRefusesNegativeSize(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := Map(f, -1); err == nil {
		t.Fatal("Map(-1) succeeded")
	}
}
