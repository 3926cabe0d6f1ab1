package web

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// Replacing an entry and storing blobs leaves exactly the cache's files,
// 0600, with no temporary file behind.
func TestCacheWritesLeaveNoTemporaries(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.PutBlob([]byte("raw response"))
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"first", "second"} {
		if err := c.Put(&Entry{Query: "q", Provider: "p", ResponseSHA256: sum, Docs: []Doc{{URL: "u", Title: title, Status: StatusOK}}}); err != nil {
			t.Fatal(err)
		}
	}
	if e, ok, err := c.Get("q"); err != nil || !ok || e.Docs[0].Title != "second" {
		t.Fatalf("%+v %v %v", e, ok, err)
	}
	var files []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", p, info.Mode())
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join("blobs", sum[:2], sum), filepath.Join("searches", hashHex([]byte("q"))+".json")}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", files, want)
	}
}
