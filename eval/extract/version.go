package extract

import "github.com/paperlens/paperlens/eval/mcq"

// Version names the extraction rules of this package. A run stores it
// with every record it scores by extraction (run.Record's "extractor"),
// so that a run folder says which rules read its answers, and a rescore
// (paperlens rescore) can tell the records read by other rules.
//
// Bump it with every change that can change what Extract returns —
// Letters, Method or Miss — for any reply: a pattern, filler, negator or
// connective added or changed, a step of preparation, the windows of long
// replies, the rule order. A change of speed or structure that returns
// the same Result for every reply keeps it. testdata/golden.version pins
// Version to testdata/golden.txt: rewriting the golden file for a change
// of behaviour fails TestGoldenPinsVersion until Version is bumped (see
// golden_test.go). Versions are compared for equality only.
const Version = "1"

// Extractor is one set of extraction rules with the version that names
// it. Code that scores replies takes an Extractor instead of calling
// Extract, so that a test can score with other rules; the zero Extractor
// stands for Current.
type Extractor struct {
	Version string
	Extract func(reply, letters string, options []mcq.Option, multi bool) Result
}

// Current is this package's rules: Extract, named by Version.
func Current() Extractor { return Extractor{Version: Version, Extract: Extract} }

// OrCurrent is x, or Current when x has no Extract function.
func (x Extractor) OrCurrent() Extractor {
	if x.Extract == nil {
		return Current()
	}
	return x
}
