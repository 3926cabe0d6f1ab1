package main

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Every paperlens process, each extraction worker and `--help` included,
// pays for what package initialisers do before main. Issue 13 cut that by
// deferring patterns, tables and templates to first use; this keeps it cut.
// Bytes allocated by initialisers are deterministic, unlike CPU time, so a
// package that goes back to compiling its patterns at start-up fails here by
// name.
func TestStartupAllocatesLittleAndNeverCollects(t *testing.T) {
	t.Parallel()
	c := paperlensProcess("--help")
	c.Env = append(c.Env, "GODEBUG=inittrace=1,gctrace=1", "GOGC=100", "GOMEMLIMIT=off")
	var stderr bytes.Buffer
	c.Stdout, c.Stderr = nil, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("paperlens --help: %v\n%s", err, stderr.String())
	}
	type pkg struct {
		name  string
		bytes int
	}
	var pkgs []pkg
	total := 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(line, "gc ") {
			t.Errorf("a garbage collection ran during `paperlens --help`: %s", line)
		}
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		pkgs = append(pkgs, pkg{f[1], b})
		total += b
	}
	if len(pkgs) < 50 {
		t.Fatalf("read %d inittrace lines from --help; is GODEBUG=inittrace=1 still honoured?\n%s", len(pkgs), stderr.String())
	}
	// The test binary links the test's own imports too; `paperlens --help`
	// itself allocated 1.1 MB in initialisers after the change (2.8 MB
	// before, with a collection).
	const limit = 1536 << 10
	if total > limit {
		sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].bytes > pkgs[j].bytes })
		var top strings.Builder
		for _, p := range pkgs[:min(10, len(pkgs))] {
			fmt.Fprintf(&top, "\n  %8d  %s", p.bytes, p.name)
		}
		t.Errorf("package initialisers allocated %d bytes, over %d; the largest:%s", total, limit, top.String())
	}
}
