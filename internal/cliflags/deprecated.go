package cliflags

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// Deprecated is the annotation of a flag (or a command) that still works
// but warns on stderr when given; its value says what to use instead.
const Deprecated = "paperlens-deprecated"

// WarnDeprecated warns on w of each flag the command line gave that is
// annotated Deprecated. Not pflag's MarkDeprecated, whose warning cobra
// prints to the command's output stream (stdout once a test sets it): the
// warning goes to stderr, as a user has always seen it.
func WarnDeprecated(fl *pflag.FlagSet, w io.Writer) {
	fl.Visit(func(f *pflag.Flag) {
		if note := f.Annotations[Deprecated]; len(note) > 0 {
			fmt.Fprintf(w, "Flag --%s has been deprecated, %s\n", f.Name, note[0])
		}
	})
}
