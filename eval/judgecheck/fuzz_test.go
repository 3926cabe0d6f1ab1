package judgecheck_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/judgecheck"
)

// A judge's reply is untrusted text: any reply gives a verdict of the
// three or none, and a verdict line is found whatever follows it but
// other verdict lines.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{"Verdict: A", "**Verdict:** TIE\n", "verdict：b.", "Verdict: A\nVerdict: C", "\n\n", "Verdict:", "> `Verdict: [B]`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		v, ok := judgecheck.ParseVerdict(reply)
		if ok != (v == judgecheck.A || v == judgecheck.B || v == judgecheck.Tie) || !ok && v != "" {
			t.Fatalf("ParseVerdict(%q) = %q, %v", reply, v, ok)
		}
		if w, ok2 := judgecheck.ParseVerdict(reply + "\nThat is all."); w != v || ok2 != ok {
			t.Fatalf("a closing line changed the verdict of %q: %q, want %q", reply, w, v)
		}
	})
}

// Any file either fails with an error or gives comparisons with every
// required field, a valid label and unique ids.
func FuzzRead(f *testing.F) {
	good := `{"id":1,"question":"q","reference":"r","response_a":"a","response_b":"b","label":"same","compare_type":"human_vs_model"}`
	for _, s := range []string{good, "[" + good + "]", good + "\n" + good, `[{"question":1}]`, "[", "\xef\xbb\xbf" + good, `{"id":{},"label":"same"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		items, err := judgecheck.Read(bytes.NewReader(b), "fuzz.json")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, it := range items {
			if it.Label != judgecheck.A && it.Label != judgecheck.B && it.Label != judgecheck.Tie || ids[it.ID] || it.Row < 1 ||
				strings.TrimSpace(it.Question) == "" || strings.TrimSpace(it.ResponseA) == "" || strings.TrimSpace(it.ResponseB) == "" {
				t.Fatalf("item %+v", it)
			}
			ids[it.ID] = true
		}
	})
}
