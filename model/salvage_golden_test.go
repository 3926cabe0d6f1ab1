package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
)

// salvageGoldenDocs are replies and JSON texts of every shape the salvage
// reads: nested objects and arrays, escapes of each kind, surrogate pairs,
// multi-byte characters, numbers and literals, spaces between tokens.
var salvageGoldenDocs = []string{
	`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"B is right: \"quoted\", a\\b, tab\there, caf\u00e9 \ud83d\ude00 ünïcödé 日本語 😀","reasoning_content":null},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":12,"completion_tokens":-3.5e+2,"total_tokens":1.25E3,"ok":true,"no":false}}`,
	` [ 1 , -2.5 , "x\/y\f\n\r\b" , { "k" : [ ] , "e" : { } } , true , null ] `,
	`{"a":[[[{"b":[{"c":"deep"}]}]]],"d":"\u0041\u00DF\uD834\uDD1E"}`,
	`"top-level string with \u20ac and \\"`,
}

// TestSalvageGolden pins salvageJSON's answer on every cut of every golden
// document, and on every cut of copies with one byte replaced (by a byte
// that breaks the grammar in each way: quotes, brackets, separators, a
// backslash, a control character, a letter). The hash was taken before
// salvageJSON was split into steps. Regenerate with MODEL_WRITE_GOLDEN=1
// only for a deliberate change.
func TestSalvageGolden(t *testing.T) {
	h := sha256.New()
	n := 0
	swaps := []byte("\"{}[],: \\\x01a1.-")
	for d, doc := range salvageGoldenDocs {
		variants := [][]byte{[]byte(doc)}
		for i := 0; i < len(doc); i += 2 {
			v := []byte(doc)
			v[i] = swaps[(i/2+d)%len(swaps)]
			variants = append(variants, v)
		}
		for _, v := range variants {
			for cut := 0; cut <= len(v); cut++ {
				out := salvageJSON(v[:cut])
				fmt.Fprintf(h, "%d %v %s\n", cut, out == nil, out)
				n++
			}
		}
	}
	got := fmt.Sprintf("%d cuts %s\n", n, hex.EncodeToString(h.Sum(nil)))
	const golden = "testdata/salvage.golden"
	if os.Getenv("MODEL_WRITE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("salvageJSON answers changed: %q, golden %q", got, want)
	}
}
