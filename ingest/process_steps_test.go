package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/corpus"
)

func TestDocDeadlineTimedOut(t *testing.T) {
	live := context.Background()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	other := errors.New("bad file")
	future, past := time.Now().Add(time.Hour), time.Now().Add(-time.Second)
	for _, tc := range []struct {
		name     string
		parent   context.Context
		at       time.Time
		err      error
		timedOut bool
	}{
		{"deadline hit", live, future, context.DeadlineExceeded, true},
		{"wrapped deadline", live, future, errors.Join(other, context.DeadlineExceeded), true},
		{"past the deadline, any error", live, past, other, true},
		{"another error in time", live, future, other, false},
		{"the run ended: not the document's time-out", gone, past, context.DeadlineExceeded, false},
	} {
		err := docDeadline{parent: tc.parent, at: tc.at, timeout: 90 * time.Second}.timedOut(tc.err)
		if got := strings.HasPrefix(err.Error(), "timed out after 1m30s"); got != tc.timedOut {
			t.Errorf("%s: %v, want a time-out %v", tc.name, err, tc.timedOut)
		}
		if !tc.timedOut && err != tc.err {
			t.Errorf("%s: the error was changed: %v", tc.name, err)
		}
	}
}

func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.4 bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &workers{}
	for _, tc := range []struct {
		name    string
		j       job
		opt     Options
		w       *workers
		wantRaw string
		wantErr bool
	}{
		{"dataset row", job{kind: "dataset", content: "row text"}, Options{MaxFileSize: 1}, nil, "row text", false},
		{"file read here", job{kind: "pdf", path: path}, Options{MaxFileSize: 100}, nil, "%PDF-1.4 bytes", false},
		{"a worker reads the file itself", job{kind: "pdf", path: path}, Options{MaxFileSize: 100}, w, "", false},
		{"text goes to no worker", job{kind: "text", path: path}, Options{MaxFileSize: 100}, w, "%PDF-1.4 bytes", false},
		{"too large", job{kind: "pdf", path: path}, Options{MaxFileSize: 4}, nil, "", true},
		{"missing", job{kind: "pdf", path: filepath.Join(dir, "nope.pdf")}, Options{MaxFileSize: 100}, nil, "", true},
	} {
		raw, hash, err := readSource(context.Background(), tc.j, tc.opt, tc.w)
		if (err != nil) != tc.wantErr || string(raw) != tc.wantRaw {
			t.Errorf("%s: raw %q err %v; want %q, error %v", tc.name, raw, err, tc.wantRaw, tc.wantErr)
			continue
		}
		src := tc.wantRaw
		if tc.j.kind == "pdf" && tc.w != nil {
			src = "%PDF-1.4 bytes" // hashed, not read
		}
		if !tc.wantErr && hash != SourceHash([]byte(src)) {
			t.Errorf("%s: hash %s is not the source's", tc.name, hash)
		}
	}
}

func TestReuseStored(t *testing.T) {
	src, home := t.TempDir(), t.TempDir()
	writeFiles(t, src, map[string]string{"notes.txt": longText(60)})
	if _, failed := ingestDir(t, home, Options{MaxTokens: 128}, src); failed != 0 {
		t.Fatal("ingest failed")
	}
	raw, _ := os.ReadFile(filepath.Join(src, "notes.txt"))
	hash := SourceHash(raw)
	st, err := corpus.Open(home, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	j := job{id: "notes", source: "notes.txt", kind: "text"}
	dl := docDeadline{parent: context.Background(), at: time.Now().Add(time.Minute), timeout: time.Minute}
	for _, tc := range []struct {
		name        string
		j           job
		hash        string
		opt         Options
		done        bool
		status      string
		rechunked   int
		dropChanged string
	}{
		{"up to date: skipped", j, hash, Options{MaxTokens: 128}, true, StatusSkipped, 0, ""},
		{"new passage size: chunked again", j, hash, Options{MaxTokens: 256}, true, StatusOK, 128, ""},
		{"forced: extracted again", j, hash, Options{MaxTokens: 128, Force: true}, false, "", 0, ""},
		{"other bytes: extracted again", j, "other", Options{MaxTokens: 128}, false, "", 0, ""},
		{"keeping every kind needs the source", j, hash, Options{MaxTokens: 128, Drop: "none"}, false, "", 0, "contents,figure"},
		{"not stored yet", job{id: "new", kind: "text"}, hash, Options{MaxTokens: 128}, false, "", 0, ""},
	} {
		opt := tc.opt
		opt.defaults()
		if opt.drop, err = ParseDrop(opt.Drop); err != nil {
			t.Fatal(err)
		}
		o := outcome{res: Result{PaperID: tc.j.id}}
		done, err := reuseStored(context.Background(), st, tc.j, tc.hash, opt, nil, dl, &o)
		if err != nil || done != tc.done || o.res.Status != tc.status || o.res.RechunkedFrom != tc.rechunked || !strings.HasPrefix(o.res.DropChangedFrom, tc.dropChanged) {
			t.Errorf("%s: done %v err %v result %+v", tc.name, done, err, o.res)
		}
		if tc.done && tc.status == StatusOK && o.store == nil {
			t.Errorf("%s: nothing to store", tc.name)
		}
	}
}
