package main

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// ownPrefix names paperlens's own packages in an inittrace.
const ownPrefix = "github.com/paperlens/paperlens/"

// Every paperlens process, each extraction worker and `--help` included,
// pays for what package initialisers do before main. Issue 13 cut
// paperlens's own share by deferring patterns, tables and templates to first
// use (internal/lazyregexp); this keeps it cut. Only paperlens's own
// packages are budgeted: the libraries it links initialise as their authors
// chose, and paperlens keeps no fork of one to change that (issue 24);
// `paperlens measure startup` measures the whole start. Bytes allocated by
// initialisers are deterministic, unlike CPU time, so a package of ours that
// goes back to compiling its patterns at start-up fails here by name.
func TestStartupOwnInitAllocatesLittle(t *testing.T) {
	t.Parallel()
	c := paperlensProcess("--help")
	c.Env = append(c.Env, "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	c.Stdout, c.Stderr = nil, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("paperlens --help: %v\n%s", err, stderr.String())
	}
	type pkg struct {
		name  string
		bytes int
	}
	var own []pkg
	all, ownBytes, allBytes := 0, 0, 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		b, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		all++
		allBytes += b
		if strings.HasPrefix(f[1], ownPrefix) {
			own = append(own, pkg{f[1], b})
			ownBytes += b
		}
	}
	if all < 50 || len(own) < 10 {
		t.Fatalf("read %d inittrace lines (%d of paperlens's packages) from --help; is GODEBUG=inittrace=1 still honoured?\n%s", all, len(own), stderr.String())
	}
	t.Logf("paperlens's %d packages allocated %d bytes in initialisers; all %d packages %d bytes", len(own), ownBytes, all, allBytes)
	// Measured: 99 KB in `paperlens --help` itself, 147 KB in this test
	// binary, which links the tests' imports too. Compiling our
	// package-level patterns at start-up again (plain regexp) makes it
	// 739 KB and fails here.
	const limit = 256 << 10
	if ownBytes > limit {
		sort.Slice(own, func(i, j int) bool { return own[i].bytes > own[j].bytes })
		var top strings.Builder
		for _, p := range own[:min(10, len(own))] {
			fmt.Fprintf(&top, "\n  %8d  %s", p.bytes, p.name)
		}
		t.Errorf("paperlens's package initialisers allocated %d bytes, over %d; the largest:%s", ownBytes, limit, top.String())
	}
}
