package termsafe

import (
	"bytes"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want, line string
	}{
		{"plain text is kept", "The answer is (B).", "The answer is (B).", "The answer is (B)."},
		{"newlines and tabs stay in text, not in a line", "a\n\tb", "a\n\tb", `a\n\tb`},
		{"clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`, `\x1b[2J\x1b[H`},
		{"window title (OSC, BEL)", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`, `\x1b]0;pwned\x07`},
		{"carriage return", "ok\rFAIL", `ok\rFAIL`, `ok\rFAIL`},
		{"C1 CSI", "x\u009b2Jy", `x\u009b2Jy`, `x\u009b2Jy`},
		{"RTL override", "paper\u202egpj.exe", `paper\u202egpj.exe`, `paper\u202egpj.exe`},
		{"bidi isolates and marks", "\u2066a\u2069\u200f", `\u2066a\u2069\u200f`, `\u2066a\u2069\u200f`},
		{"invalid UTF-8", "a\xffb", `a\xffb`, `a\xffb`},
		{"DEL and NUL", "a\x7f\x00", `a\x7f\x00`, `a\x7f\x00`},
		{"CJK and accents are text", "答案：B — réponse", "答案：B — réponse", "答案：B — réponse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if got := Line(tc.in); got != tc.line {
				t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
			}
		})
	}
}

// Whatever goes in, nothing a terminal acts on comes out.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mred", "\u202e", "\xff\xfe", "a\r\nb", "\u009b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Escape(s), Line(s)} {
			for i, r := range out {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || unsafeRune(r) || (r == 0xfffd && !strings.Contains(s, "\ufffd")) {
					t.Fatalf("%q escaped to %q, which holds %U at %d", s, out, r, i)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line(%q) holds a newline or tab", s)
		}
	})
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	in := []byte("q1 [full run 1]: \x1b]0;title\x07 bad\n")
	n, err := w.Write(in)
	if err != nil || n != len(in) {
		t.Fatalf("wrote %d: %v", n, err)
	}
	if got, want := b.String(), "q1 [full run 1]: \\x1b]0;title\\x07 bad\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
