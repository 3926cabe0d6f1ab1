package run

import (
	"strconv"
	"strings"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// citeLabel is the short label a passage is cited by: "p3" for passage
// paper#3, "p3-p5" for the merged block paper#3-5 (--expand); "" for an
// id that is not a paper passage (a web page).
func citeLabel(id string) string {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return ""
	}
	from, to, ok := strings.Cut(id[i+1:], "-")
	if _, err := strconv.Atoi(from); err != nil {
		return ""
	}
	if ok {
		return "p" + from + "-p" + to
	}
	return "p" + from
}

// bracketed finds what a reply puts in square brackets.
var bracketed = lazyregexp.MustCompile(`\[([^\[\]\n]{1,120})\]`)

// citeRef is one cited passage or range: [p3], [P 3], [p3-p5], [p3–5],
// [paper#3], [#3], [paper#3-5].
var citeRef = lazyregexp.MustCompile(`(?i)^(?:p\s*|[^\s,;#\[\]]*#)([0-9]+)(?:\s*[-–—]\s*(?:p\s*|[^\s,;#\[\]]*#)?([0-9]+))?$`)

// parseCited returns the passage ids the reply cites in square brackets
// that were in its context, each once, in citing order. A bracket may
// hold several references ([p3, p5], [p3; p7 and p9]) and ranges, which
// name each passage in the range the context holds. Bare numbers ([3])
// are not read: the prompt numbers passages by rank, and papers quote
// their own references that way.
func parseCited(reply string, ctx []ContextItem) []string {
	byOrd := map[int]string{}
	for _, c := range ctx {
		i := strings.LastIndexByte(c.PassageID, '#')
		if i < 0 {
			continue
		}
		if o, err := strconv.Atoi(c.PassageID[i+1:]); err == nil {
			byOrd[o] = c.PassageID
		}
	}
	if len(byOrd) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(o int) {
		if id, ok := byOrd[o]; ok && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, m := range bracketed.FindAllStringSubmatch(reply, -1) {
		inner := strings.NewReplacer(";", ",", " and ", ",").Replace(m[1])
		for _, part := range strings.Split(inner, ",") {
			sm := citeRef.FindStringSubmatch(strings.TrimSpace(part))
			if sm == nil {
				continue
			}
			from, _ := strconv.Atoi(sm[1])
			to := from
			if sm[2] != "" {
				to, _ = strconv.Atoi(sm[2])
			}
			if to < from || to-from > 64 {
				to = from
			}
			for o := from; o <= to; o++ {
				add(o)
			}
		}
	}
	return out
}
