package lazyregexp

import (
	"strings"
	"testing"
)

// MustCompile compiles nothing until a method needs the expression, then
// behaves as regexp's compiled pattern.
func TestCompiledOnFirstUse(t *testing.T) {
	r := MustCompile(`(\d+)-(\d+)`)
	if r.rx != nil {
		t.Fatal("compiled by MustCompile")
	}
	if r.String() != `(\d+)-(\d+)` || r.rx != nil {
		t.Fatalf("String %q compiled the pattern or changed it", r.String())
	}
	if got := r.FindStringSubmatch("pages 12-34"); len(got) != 3 || got[1] != "12" || got[2] != "34" {
		t.Errorf("FindStringSubmatch: %q", got)
	}
	if r.rx == nil || r.NumSubexp() != 2 {
		t.Errorf("after a match: compiled %v, NumSubexp %d", r.rx != nil, r.NumSubexp())
	}
}

// A bad pattern is an error from Compile at once, and a panic at the first
// use of MustCompile's result, naming the expression.
func TestBadPattern(t *testing.T) {
	if _, err := Compile(`a(`); err == nil {
		t.Error("Compile(`a(`) returned no error")
	}
	r := MustCompile(`a(`)
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "a(") {
			t.Errorf("recovered %v, want a panic naming the pattern", p)
		}
	}()
	r.MatchString("a")
}
