package cliflags

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/compose"
)

// compose's flags show the paper's shape as their defaults and parse
// ranges; eval's --compose becomes the request's Compose, nil without it,
// and a bad value is a usage error naming the key.
func TestComposeFlags(t *testing.T) {
	t.Parallel()
	var c Compose
	fl := pflag.NewFlagSet("compose", pflag.ContinueOnError)
	c.Add(fl)
	for name, want := range map[string]string{"statements": "8-10", "options": "4-8", "per-option": "2-4", "accuracy": "mixed", "seed": "1", "bench": "elaipbench"} {
		if got := fl.Lookup(name).DefValue; got != want {
			t.Errorf("--%s default %q, want %q", name, got, want)
		}
	}
	if err := fl.Parse([]string{"--options", "6", "--statements", "9-12", "--seed", "-3"}); err != nil {
		t.Fatal(err)
	}
	if c.Spec.Options != (compose.Range{Min: 6, Max: 6}) || c.Spec.Statements != (compose.Range{Min: 9, Max: 12}) || c.Spec.Seed != -3 {
		t.Errorf("spec %+v", c.Spec)
	}
	if err := fl.Parse([]string{"--per-option", "4-2"}); err == nil || !strings.Contains(err.Error(), "want 1 <= MIN <= MAX") {
		t.Errorf("--per-option 4-2: %v", err)
	}

	for _, tc := range []struct {
		args []string
		want string // the spec, "" for none
		err  string
	}{
		{nil, "", ""},
		{[]string{"--compose", "default"}, "statements=8-10,options=4-8,per-option=2-4,accuracy=mixed", ""},
		{[]string{"--compose", "options=4-4,questions=20"}, "statements=8-10,options=4,per-option=2-4,accuracy=mixed,questions=20", ""},
		{[]string{"--compose", "seed=3"}, "", `unknown key "seed"`},
	} {
		var f Eval
		changed := parse(t, func(fl *pflag.FlagSet) { f.Add(fl); f.AddCompose(fl) }, tc.args...)
		req, err := f.Request(Invocation{Home: "/h"}, changed)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.err)
			}
		case err != nil:
			t.Errorf("%v: %v", tc.args, err)
		case tc.want == "" && req.Compose != nil, tc.want != "" && (req.Compose == nil || req.Compose.String() != tc.want):
			t.Errorf("%v: compose %v, want %q", tc.args, req.Compose, tc.want)
		}
	}
}

// Run writes the file whole, says what it left out and wrote, and
// refuses what it cannot do with the flag to change.
func TestComposeRun(t *testing.T) {
	t.Parallel()
	data := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	out := filepath.Join(t.TempDir(), "c.jsonl")
	var stdout, log bytes.Buffer
	c := Compose{Data: data, Bench: "elaipbench", Out: out, Spec: compose.Spec{Seed: 2, Questions: 4}}
	c.Spec.Defaults()
	if err := c.Run(&stdout, &log); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil || bytes.Count(b, []byte("\n")) != 4 || stdout.Len() != 0 {
		t.Fatalf("wrote %d lines (%v), stdout %q", bytes.Count(b, []byte("\n")), err, stdout.String())
	}
	for _, want := range []string{"line 38: duplicate", "wrote " + out + ": 4 questions from 4 papers (seed 2;", "paperlens eval --bench jsonl --data " + out} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	c.Out = "-"
	stdout.Reset()
	if err := c.Run(&stdout, &log); err != nil || !bytes.Equal(stdout.Bytes(), b) {
		t.Errorf("--out - wrote other bytes (%v)", err)
	}
	for _, tc := range []struct {
		edit func(*Compose)
		want string
	}{
		{func(c *Compose) { c.Data = "" }, "--data FILE is required"},
		{func(c *Compose) { c.Out = "" }, "--out FILE is required"},
		{func(c *Compose) { c.Bench = "lpfqa" }, `--bench "lpfqa": use elaipbench or jsonl`},
		{func(c *Compose) { c.Spec.Options = compose.Range{Min: 3, Max: 11} }, "at most 10 options"},
		{func(c *Compose) { c.Spec.Statements = compose.Range{Min: 60, Max: 60} }, "no question could be composed"},
	} {
		bad := c
		bad.Out = filepath.Join(t.TempDir(), "never.jsonl")
		tc.edit(&bad)
		err := bad.Run(&stdout, &log)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
		if _, serr := os.Stat(bad.Out); bad.Out != "" && serr == nil {
			t.Errorf("%q: %s written", tc.want, bad.Out)
		}
	}
}
