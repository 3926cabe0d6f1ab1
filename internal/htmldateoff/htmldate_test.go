package htmldate

import (
	"strings"
	"testing"
	"time"
)

// Asking for a date is a mistake that must not pass silently: both entry
// points panic with the message that says where the stand-in comes from.
func TestExtractionPanicsWithReason(t *testing.T) {
	for name, f := range map[string]func(){
		"FromDocument": func() { _, _ = FromDocument(nil, Options{}) },
		"FromReader":   func() { _, _ = FromReader(strings.NewReader("<p>1 May 2020</p>"), Options{}) },
	} {
		func() {
			defer func() {
				if r := recover(); r != NotBuilt {
					t.Errorf("%s: recovered %v, want the NotBuilt message", name, r)
				}
			}()
			f()
			t.Errorf("%s returned", name)
		}()
	}
}

func TestResult(t *testing.T) {
	if !(Result{}).IsZero() {
		t.Error("the zero Result is not zero")
	}
	r := Result{DateTime: time.Date(2021, 3, 12, 10, 0, 0, 0, time.UTC)}
	if r.IsZero() || r.Format("2006-01-02") != "2021-03-12" {
		t.Errorf("Result %+v: IsZero %v, Format %q", r, r.IsZero(), r.Format("2006-01-02"))
	}
}
