package protocol

import (
	"strconv"
	"testing"
)

// Every row parses where the flags read it, and every default equals the
// paper's value wherever the paper states it, unless the row says why not.
func TestTablesAreConsistent(t *testing.T) {
	for _, tb := range Tables() {
		seen := map[string]bool{}
		for _, s := range tb.Settings {
			if seen[s.Name] {
				t.Errorf("%s: %s twice", tb.Name, s.Name)
			}
			seen[s.Name] = true
			if s.Section == "" || s.PaperText == "" {
				t.Errorf("%s %s: no section or paper text", tb.Name, s.Name)
			}
			for _, p := range Paradigms {
				paper, def := s.Paper.For(p), s.Default.For(p)
				if def == "" {
					t.Errorf("%s %s: no default under %s", tb.Name, s.Name, p)
				}
				if paper != Unstated && paper != def && s.Why == "" {
					t.Errorf("%s %s under %s: default %q departs from the paper's %q without saying why", tb.Name, s.Name, p, def, paper)
				}
			}
		}
		for _, name := range []string{Temperature, TopP, MaxTokens, Runs} {
			for _, p := range Paradigms {
				if _, err := strconv.ParseFloat(tb.Default(name, p), 64); err != nil {
					t.Errorf("%s %s under %s: default %q is not a number", tb.Name, name, p, tb.Default(name, p))
				}
			}
		}
	}
	// The paper's numbers, where the flags read them.
	for _, tc := range []struct {
		tb       Table
		paradigm string
		temp     float64
		tokens   int
	}{
		{ElaipBench, Base, 0.1, 32}, {ElaipBench, CoT, 0.1, 4096}, {ElaipBench, Reasoning, 0.1, 4096},
		{LPFQA, Base, 1, 2048}, {LPFQA, Reasoning, 1, 16384},
	} {
		if got := tc.tb.Float(Temperature, tc.paradigm); got == nil || *got != tc.temp {
			t.Errorf("%s %s temperature %v, want %v", tc.tb.Name, tc.paradigm, got, tc.temp)
		}
		if got := tc.tb.Int(MaxTokens, tc.paradigm); got != tc.tokens {
			t.Errorf("%s %s max_tokens %d, want %d", tc.tb.Name, tc.paradigm, got, tc.tokens)
		}
	}
	if ElaipBench.Int(ContextBudget, Base) != 32768 || ElaipBench.Int(K, Base) != 5 || ElaipBench.Default(BM25, Base) != OkapiScorer {
		t.Error("ElaipBench's budget, k or BM25 scorer is not the paper's")
	}
}

// Compare states every row and every fixed name; a departure says why, a
// setting the paper does not state never departs.
func TestCompare(t *testing.T) {
	cases := []struct {
		name  string
		run   map[string]Observed
		check string
		match bool
		why   string
	}{
		{"paper value", map[string]Observed{Temperature: {Value: "0.1"}}, Temperature, true, ""},
		{"flag given", map[string]Observed{Temperature: {Value: "0.7", Why: "--temperature given"}}, Temperature, false, "--temperature given"},
		{"server refusal", map[string]Observed{Temperature: {Value: None, Why: "the server refused temperature"}}, Temperature, false, "the server refused temperature"},
		{"offline default", map[string]Observed{DenseEncoder: {Value: LSA}}, DenseEncoder, false, ElaipBench.Settings[6].Why},
		{"unstated", map[string]Observed{TopP: {Value: "0.9", Why: "--top-p given"}}, TopP, true, "--top-p given"},
		{"not used", map[string]Observed{}, BM25, true, ""},
		{"not in this paper", map[string]Observed{LPFQAMCQ: {Value: "judge"}}, LPFQAMCQ, true, ""},
	}
	for _, tc := range cases {
		rec := ElaipBench.Compare(Base, tc.run)
		names := map[string]bool{}
		var got *Check
		for i, c := range rec.Settings {
			names[c.Name] = true
			if c.Name == tc.check {
				got = &rec.Settings[i]
			}
		}
		for _, f := range Fixed {
			if !names[f] {
				t.Errorf("%s: fixed setting %s is not stated", tc.name, f)
			}
		}
		if got == nil || got.Match != tc.match || got.Why != tc.why {
			t.Errorf("%s: %+v; want match %t, why %q", tc.name, got, tc.match, tc.why)
		}
	}
}
