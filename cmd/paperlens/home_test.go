package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The sample papers (testdata/papers: a PDF, an HTML page and three text
// files) are the corpus of the tests of search, ask and index. Ingesting
// them is setup there, not what those tests test, yet it cost each test
// two extraction worker processes and ~0.2 s of CPU. So they are ingested
// (and indexed) once per package run, into template homes, and each test
// gets a copy of its own, exactly what its own ingest would have left:
// the same command from the same directory, so the same relative source
// paths are stored. Copying a home is valid once the command that wrote
// it has returned: nothing holds its store or its index open.
var papersTemplate struct {
	once              sync.Once
	ingested, indexed string // template homes
	err               error
	dir               string // removed by removeTemplates
}

// papersHome returns a new home of t's holding the sample papers as
// 'paperlens ingest --home HOME ../../testdata/papers' leaves it, and
// with indexed as 'paperlens index --home HOME' then leaves it.
func papersHome(t *testing.T, indexed bool) string {
	t.Helper()
	papersTemplate.once.Do(func() {
		p := &papersTemplate
		if p.dir, p.err = os.MkdirTemp("", "paperlens-templates-"); p.err != nil {
			return
		}
		p.ingested, p.indexed = filepath.Join(p.dir, "ingested"), filepath.Join(p.dir, "indexed")
		if p.err = runTemplate("ingest", "--home", p.ingested, filepath.Join("..", "..", "testdata", "papers")); p.err != nil {
			return
		}
		if p.err = os.CopyFS(p.indexed, os.DirFS(p.ingested)); p.err != nil {
			return
		}
		p.err = runTemplate("index", "--home", p.indexed)
	})
	if papersTemplate.err != nil {
		t.Fatalf("template home of the sample papers: %v", papersTemplate.err)
	}
	src := papersTemplate.ingested
	if indexed {
		src = papersTemplate.indexed
	}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.CopyFS(home, os.DirFS(src)); err != nil {
		t.Fatalf("copy the template home %s: %v", src, err)
	}
	return home
}

// runTemplate runs the CLI in this process for a template home.
func runTemplate(args ...string) error {
	var out, errb lockedBuffer
	if code := (cli{}).start(&out, &errb, args...)(); code != 0 {
		return fmt.Errorf("%v: exit %d\n%s%s", args, code, out.String(), errb.String())
	}
	return nil
}

// removeTemplates removes the template homes. TestMain calls it once
// every test has finished.
func removeTemplates() {
	if papersTemplate.dir != "" {
		os.RemoveAll(papersTemplate.dir)
	}
}

// sampleHead writes the first n questions of the ElaipBench sample (each
// row carries its paper) to a file of t's and returns its path. study
// scores its retrieval table on every question of --data, --limit or not,
// so a study run for a few questions is given a file of a few questions:
// on the whole sample that table cost ~0.5 s of CPU for a row or a
// header the test looks for.
func sampleHead(t *testing.T, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < n {
		t.Fatalf("the sample has %d lines, want %d", len(lines), n)
	}
	path := filepath.Join(t.TempDir(), "sample-head.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
