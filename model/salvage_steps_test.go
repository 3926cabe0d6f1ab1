package model

import "testing"

func TestSalvagerSteps(t *testing.T) {
	for _, tc := range []struct {
		name      string
		state     int
		stack     string
		do        func(s *salvager) bool
		wantOK    bool
		wantState int
		wantStack string
	}{
		{"colon after a key", wantColon, "{", func(s *salvager) bool { return s.separator(':') }, true, wantValue, "{"},
		{"colon elsewhere", wantNext, "{", func(s *salvager) bool { return s.separator(':') }, false, wantNext, "{"},
		{"comma in an object wants a key", wantNext, "[{", func(s *salvager) bool { return s.separator(',') }, true, wantKey, "[{"},
		{"comma in an array wants a value", wantNext, "{[", func(s *salvager) bool { return s.separator(',') }, true, wantValue, "{["},
		{"comma before a value", wantValue, "[", func(s *salvager) bool { return s.separator(',') }, false, wantValue, "["},
		{"open an object", wantValue, "", func(s *salvager) bool { return s.open('{') }, true, wantKey, "{"},
		{"open an array", wantValue, "{", func(s *salvager) bool { return s.open('[') }, true, wantValue, "{["},
		{"open where a key goes", wantKey, "{", func(s *salvager) bool { return s.open('[') }, false, wantKey, "{"},
	} {
		s := &salvager{stack: []byte(tc.stack), state: tc.state, tok: -1}
		ok := tc.do(s)
		if ok != tc.wantOK || s.state != tc.wantState || string(s.stack) != tc.wantStack {
			t.Errorf("%s: ok %v state %d stack %q; want %v %d %q", tc.name, ok, s.state, s.stack, tc.wantOK, tc.wantState, tc.wantStack)
		}
	}
}

func TestSalvagerClose(t *testing.T) {
	for _, tc := range []struct {
		name   string
		b      string // the text up to and including the closer
		state  int
		stack  string
		wantOK bool
	}{
		{"after a value", `{"a":1}`, wantNext, "{", true},
		{"right after its opener", `[ ]`, wantValue, "[", true},
		{"after a comma", `[1,]`, wantValue, "[", false},
		{"the wrong closer", `[1}`, wantNext, "[", false},
		{"nothing open", `1]`, wantNext, "", false},
	} {
		s := &salvager{b: []byte(tc.b), stack: []byte(tc.stack), state: tc.state, tok: -1}
		if ok := s.close(len(tc.b)-1, tc.b[len(tc.b)-1]); ok != tc.wantOK {
			t.Errorf("%s: close = %v, want %v", tc.name, ok, tc.wantOK)
		}
	}
}

func TestSalvagerEndToken(t *testing.T) {
	for _, tc := range []struct {
		name             string
		b                string
		i, tok, state    int
		stack            string
		inToken, ok      bool
		wantTok, wantSta int
	}{
		{"inside a number", `[12`, 2, 1, wantValue, "[", true, true, 1, wantValue},
		{"a number ends", `[12,`, 3, 1, wantValue, "[", false, true, -1, wantNext},
		{"a bad literal ends", `[tru,`, 4, 1, wantValue, "[", false, false, 1, wantValue},
		{"no token", `[ `, 1, -1, wantValue, "[", false, true, -1, wantValue},
		{"something after a complete top-level value", `1 x`, 2, -1, wantNext, "", false, false, -1, wantNext},
	} {
		s := &salvager{b: []byte(tc.b), stack: []byte(tc.stack), state: tc.state, tok: tc.tok}
		in, ok := s.endToken(tc.i)
		if in != tc.inToken || ok != tc.ok || ok && (s.tok != tc.wantTok || s.state != tc.wantSta) {
			t.Errorf("%s: endToken = %v, %v (tok %d state %d); want %v, %v (tok %d state %d)", tc.name, in, ok, s.tok, s.state, tc.inToken, tc.ok, tc.wantTok, tc.wantSta)
		}
	}
}

func TestSalvagerFinish(t *testing.T) {
	for _, tc := range []struct {
		name  string
		b     string
		tok   int
		state int
		stack string
		want  string
	}{
		{"nothing open", `12`, 0, wantValue, "", ""},
		{"a dangling comma", `[1, `, -1, wantValue, "[", `[1]`},
		{"a colon waiting", `{"a": `, -1, wantValue, "{", `{"a":null}`}, // trailing spaces go first
		{"a key waiting", `{"a"`, -1, wantColon, "{", `{"a":null}`},
		{"a number cut", `{"a":[1,23`, 8, wantValue, "{[", `{"a":[1]}`},
		{"after a value", `[[1]`, -1, wantNext, "[", `[[1]]`},
	} {
		s := &salvager{b: []byte(tc.b), stack: []byte(tc.stack), state: tc.state, tok: tc.tok}
		if got := s.finish(); string(got) != tc.want || (got == nil) != (tc.want == "") {
			t.Errorf("%s: finish = %q, want %q", tc.name, got, tc.want)
		}
	}
}
