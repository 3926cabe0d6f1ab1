package model

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSalvageJSON(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":"hello wor`, `{"a":"hello wor"}`},
		{`{"a":"x\`, `{"a":"x"}`},
		{`{"a":"x\u00`, `{"a":"x"}`},
		{`{"a":"x\\`, `{"a":"x\\"}`},
		{`{"a":"x\"`, `{"a":"x\""}`},
		{`{"a":"x\ud83d`, `{"a":"x"}`},
		{`{"a":"x\ud83d\ude00`, `{"a":"x\ud83d\ude00"}`},
		{`{"a":"x\u00e9`, `{"a":"x\u00e9"}`},
		{"{\"a\":\"caf\xc3", `{"a":"caf"}`},
		{"{\"a\":\"\xf0\x9f\x98", `{"a":""}`},
		{`{"a":"x","b`, `{"a":"x","b":null}`},
		{`{"a":"x","b"`, `{"a":"x","b":null}`},
		{`{"a":"x","b":`, `{"a":"x","b":null}`},
		{`{"a":"x","b": 12`, `{"a":"x","b":null}`},
		{`{"a":"x","b":tru`, `{"a":"x","b":null}`},
		{`{"a":"x", `, `{"a":"x"}`},
		{`{"a":[1,2,`, `{"a":[1,2]}`},
		{`{"a":[1,2`, `{"a":[1]}`},
		{`{"a":[`, `{"a":[]}`},
		{`{"a":{}`, `{"a":{}}`},
		{`{"choices":[{"message":{"content":"B is right because`, `{"choices":[{"message":{"content":"B is right because"}}]}`},
		{`[`, `[]`},
		{`{`, `{}`},
		{` [ "a" , `, ` [ "a" ]`},
		{`"top`, `"top"`},
		// Valid texts come back as they are.
		{`{"a":1}`, `{"a":1}`},
		{`12`, `12`},
		// Nothing to keep, or not the start of JSON.
		{``, ""},
		{`   `, ""},
		{`12.`, ""},
		{`-`, ""},
		{`{"a":1}x`, ""},
		{`{"a" 1`, ""},
		{`[1,]`, ""},
		{`{"a":}`, ""},
		{`{"a":"\q`, ""},
		{"{\"a\":\"\x01", ""},
		{`]`, ""},
		{`<html>`, ""},
		{`{"a":1x,`, ""},
	}
	for _, tc := range cases {
		got := salvageJSON([]byte(tc.in))
		if string(got) != tc.want || (got == nil) != (tc.want == "") {
			t.Errorf("salvageJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every cut of a reply whose content holds escapes, surrogate pairs and
// multi-byte characters decodes to a prefix of the content: nothing is
// invented, and nothing undecodable (U+FFFD) is left at the end.
func TestSalvageKeepsAPrefix(t *testing.T) {
	content := "Answer: B. \"Quoted\" \\ back\\slash, tab\t, line\nbreak, café, 日本語, 😀 and \u2028 end"
	full, err := json.Marshal(map[string]any{"choices": []any{map[string]any{
		"message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}}})
	if err != nil {
		t.Fatal(err)
	}
	// json.Marshal escapes <, >, & and U+2028; ASCII-escape the emoji too,
	// as some servers do, so both forms of a character are cut through.
	full = bytes.Replace(full, []byte("😀"), []byte(`\ud83d\ude00`), 1)
	start := bytes.Index(full, []byte(`"content":"`)) + len(`"content":"`)
	for k := start; k < len(full); k++ {
		out := salvageJSON(full[:k])
		if out == nil || !json.Valid(out) {
			t.Fatalf("cut at %d: %q", k, out)
		}
		var w wireResponse
		if err := json.Unmarshal(out, &w); err != nil || len(w.Choices) != 1 {
			t.Fatalf("cut at %d: %v", k, err)
		}
		got, _ := text(w.Choices[0].Message.Content)
		if !strings.HasPrefix(content, got) || strings.ContainsRune(got, utf8.RuneError) {
			t.Fatalf("cut at %d: %q is not a prefix of the content", k, got)
		}
	}
}

// FuzzSalvage checks, for any input: a result is valid JSON; a valid
// input is returned as it is; and every cut of a valid text that opens a
// container or a string salvages to something.
func FuzzSalvage(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"index":0,"message":{"role":"assistant","content":"B","reasoning_content":"the paper says \"B\"\n"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":2}}`,
		`{"a":[1,-2.5e+3,true,false,null,{"b":"\u00e9\ud83d\ude00\\"}]}`,
		`[[[[]]],{},"x"]`,
		"{\"k\":\"caf\xc3\xa9 日本\"}",
		`{"a":"x\`,
		`  {"a" : [ 1 , 2 ] }  `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := salvageJSON(in)
		if out != nil && !json.Valid(out) {
			t.Fatalf("salvageJSON(%q) = %q, not valid JSON", in, out)
		}
		if !json.Valid(in) {
			return
		}
		if !bytes.Equal(out, in) {
			t.Fatalf("valid %q came back as %q", in, out)
		}
		step := max(1, len(in)/256) // all cuts of short texts, 256 of long ones
		for k := 0; k < len(in); k += step {
			p := in[:k]
			out := salvageJSON(p)
			if out != nil && !json.Valid(out) {
				t.Fatalf("salvageJSON(%q) = %q, not valid JSON", p, out)
			}
			first := bytes.TrimLeft(p, " \t\r\n")
			if out == nil && len(first) > 0 && (first[0] == '{' || first[0] == '[' || first[0] == '"') {
				t.Fatalf("the cut %q of valid %q salvaged to nothing", p, in)
			}
		}
	})
}

// BenchmarkSalvage closes a reply cut at the default 4 MiB inside its
// content, the work a runaway reply adds to a call (json.Valid, then one
// scan); b.SetBytes makes it read as MB/s.
func BenchmarkSalvage(b *testing.B) {
	content := strings.Repeat("B, because \"§3\" says so; 日本語 \\ ", DefaultMaxReplyBytes/30)
	full, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": content}}}})
	cut := full[:DefaultMaxReplyBytes]
	b.SetBytes(int64(len(cut)))
	for b.Loop() {
		if salvageJSON(cut) == nil {
			b.Fatal("nothing salvaged")
		}
	}
}
