// Package htmldate stands in for github.com/markusmobius/go-htmldate in
// paperlens's build: paperlens's go.mod replaces that module with this
// directory.
//
// Why: go-trafilatura imports go-htmldate to find a page's publication
// date, and go-htmldate imports go-dateparser, whose package initialisers
// compile about 4,000 regular expressions for 205 locales: 150–200 ms of CPU
// and 84–102 MB allocated before main in every process (measured with
// GODEBUG=inittrace=1 on a program importing go-htmldate v1.9.1 and v1.10.1;
// upstream tracks this as markusmobius/go-dateparser#20). paperlens never
// asks for a date: doctext/htmltext sets trafilatura's HtmlDateMode to
// Disabled, and trafilatura calls FromDocument only in the other modes.
// Linking the libraries anyway would make every paperlens command and
// extraction worker pay for them; copying go-dateparser to defer that work
// would be a fork kept for start-up time (issue 24). This package has the
// part of go-htmldate's API that go-trafilatura compiles against and none
// of its work, so neither go-htmldate nor go-dateparser is in the binary.
//
// The API is v1.9.1's (VERSION), the version go-trafilatura requires;
// .ci/check-vendored fails when go.mod's require line moves away from it, so
// an upgrade of go-trafilatura is checked against this file. Options lacks
// DateParserConfig, which would need go-dateparser.
package htmldate

import (
	"io"
	"time"

	"golang.org/x/net/html"
)

// Options mirrors go-htmldate's Options (without DateParserConfig). No
// field has an effect here.
type Options struct {
	ExtractTime         bool
	UseOriginalDate     bool
	URL                 string
	MinDate             time.Time
	MaxDate             time.Time
	EnableLog           bool
	SkipExtensiveSearch bool
	DeferUrlExtractor   bool
}

// Result mirrors go-htmldate's Result.
type Result struct {
	DateTime    time.Time
	HasTime     bool
	HasTimezone bool
	SrcString   string
}

// IsZero reports whether no date was found.
func (r Result) IsZero() bool { return r.DateTime.IsZero() }

// Format formats the date with a time layout.
func (r Result) Format(layout string) string { return r.DateTime.Format(layout) }

// NotBuilt is the message of the panic raised by FromDocument and
// FromReader.
const NotBuilt = "go-htmldate is not built into paperlens (go.mod replaces it with internal/htmldateoff): " +
	"date extraction would link go-dateparser; keep trafilatura.Options.HtmlDateMode at Disabled"

// FromDocument panics. go-trafilatura ignores an error from it and leaves
// the date empty, so an error would hide a paperlens change that turned date
// extraction on; a panic fails the first test that extracts a page that
// way.
func FromDocument(doc *html.Node, opts Options) (Result, error) { panic(NotBuilt) }

// FromReader panics, as FromDocument does.
func FromReader(r io.Reader, opts Options) (Result, error) { panic(NotBuilt) }
