package pdftext

import (
	"fmt"
	"strings"
	"testing"
)

// lexAll renders every token of src as kind:text, space separated.
func lexAll(src string) string {
	l := newCmapLexer([]byte(src))
	var out []string
	for {
		t, ok := l.next()
		if !ok {
			return strings.Join(out, " ")
		}
		out = append(out, fmt.Sprintf("%d:%q", t.kind, t.s))
	}
}

func TestCmapLexer(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"empty", "", ""},
		{"blanks and a comment", " \t%comment <01>\n\x00", ``},
		{"hex pairs", "<0041 00e9>", `0:"\x00A\x00\xe9"`},
		{"odd hex digit padded", "<4>", `0:"@"`},
		{"junk inside hex skipped", "<4z1>", `0:"A"`},
		{"unclosed hex", "<41", `0:"A"`},
		{"dictionary delimiters skipped", "<< /Registry (Adobe) >>", `2:"Registry" 0:"Adobe"`},
		{"nested parentheses", "(a(b)c)", `0:"a(b)c"`},
		{"named escapes", `(\n\r\t\b\f)`, `0:"\n\r\t\b\f"`},
		{"octal escapes", `(\101\0617\7)`, `0:"A17\a"`},
		{"escaped delimiters", `(\(\)\\)`, `0:"()\\"`},
		{"unclosed literal", "(abc", `0:"abc"`},
		{"backslash at the end", `(a\`, `0:"a\\"`},
		{"arrays", "[<01> <02>]", `4:"" 0:"\x01" 0:"\x02" 5:""`},
		{"numbers names keywords", "2 beginbfrange /CIDInit -1 .5 endbfrange", `1:"2" 3:"beginbfrange" 2:"CIDInit" 1:"-1" 1:".5" 3:"endbfrange"`},
		{"procedures and stray closers skipped", "{dup} > ) def", `3:"dup" 3:"def"`},
		{"lone slash", "/ x", `2:"" 3:"x"`},
	} {
		if got := lexAll(tc.src); got != tc.want {
			t.Errorf("%s: lex(%q) = %s, want %s", tc.name, tc.src, got, tc.want)
		}
	}
}
