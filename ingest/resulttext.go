package ingest

import (
	"fmt"
	"strings"

	"github.com/paperlens/paperlens/internal/termsafe"
)

// Text is the result as paperlens ingest prints it: a line with the
// document's status, size and passages, and lines for its warning and
// what was stored again. A file's name, its paper id and errors quoting
// them come from the files: escaped, so that a name cannot drive the
// terminal.
func (r Result) Text() string {
	var b strings.Builder
	name := r.PaperID
	if name == "" {
		name = r.Source
	}
	name, src := termsafe.Line(name), termsafe.Line(r.Source)
	switch r.Status {
	case StatusError:
		fmt.Fprintf(&b, "error    %s: %s\n", src, termsafe.Escape(r.Error))
	default:
		pages := ""
		if r.Pages > 0 {
			pages = fmt.Sprintf("%3d pages ", r.Pages)
		}
		fmt.Fprintf(&b, "%-8s %-36s %s%7d chars %6d tokens %4d passages\n", r.Status, name, pages, r.Chars, r.Tokens, r.Passages)
		if r.Warning != "" {
			fmt.Fprintf(&b, "warning  %s: %s\n", src, termsafe.Escape(r.Warning))
		}
		if r.DropChangedFrom != "" && r.Status == StatusOK {
			fmt.Fprintf(&b, "note     %s: stored again: it was stored with --drop %s (its old passages are replaced; runs made before see other passage ids)\n", name, r.DropChangedFrom)
		}
		if r.RechunkedFrom > 0 {
			fmt.Fprintf(&b, "note     %s: re-chunked from passages of at most %d tokens to the size asked for now (its old passages are replaced; runs made before see other passage ids)\n", name, r.RechunkedFrom)
		}
	}
	return b.String()
}
