package web

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// Own identifies the paper a question is about. Its own pages are left out
// of the results: the web modes measure what the rest of the web adds to
// the paper (full+web) or gives without it (web), and the query carries the
// paper's title, so the paper itself is often the first hit.
type Own struct {
	// ID is the paper's corpus id. A result whose URL path has it as a whole
	// segment (an arXiv id, with or without a version or ".pdf", a slug) is
	// the paper. Ids shorter than 8 characters, or all digits, are not
	// matched: "17" or "123456" occur in unrelated URLs.
	ID string
	// Title is the paper's title. A result whose search title or page title
	// is that title, give or take three words of decoration ("[2401.01234]",
	// "| OpenReview", "(PDF)"), is the paper; a title cut with an ellipsis
	// matches when at least five words of it begin the paper's title. Titles
	// under three words are not matched.
	Title string
}

// StatusOwn marks a result that is the question's own paper: it is left
// out, and recorded so that one can see it was found.
const StatusOwn = "own paper"

// versionRE is an arXiv version suffix ("2401.01234v2").
var versionRE = lazyregexp.MustCompile(`v\d+$`)

// matchURL reports whether raw points at the paper by its id.
func (o Own) matchURL(raw string) bool {
	id := strings.ToLower(strings.TrimSpace(o.ID))
	if len(id) < 8 || strings.IndexFunc(id, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	for seg := range strings.SplitSeq(strings.ToLower(u.Path), "/") {
		if seg == id {
			return true
		}
		// Not path.Ext: "2401.01234v2" would lose ".01234v2".
		for _, ext := range []string{".pdf", ".html", ".htm", ".xhtml", ".txt", ".md"} {
			seg = strings.TrimSuffix(seg, ext)
		}
		if seg == id || versionRE.ReplaceAllString(seg, "") == id {
			return true
		}
	}
	return false
}

// matchTitle reports whether a result or page title is the paper's.
func (o Own) matchTitle(title string) bool {
	p := titleWords(o.Title)
	if len(p) < 3 {
		return false
	}
	t := strings.TrimSpace(title)
	cut := strings.HasSuffix(t, "...") || strings.HasSuffix(t, "…")
	w := titleWords(strings.TrimRight(t, ".… "))
	if cut && len(w) >= 5 && len(w) <= len(p) {
		if strings.HasPrefix(strings.Join(p, " ")+" ", strings.Join(w, " ")+" ") {
			return true
		}
	}
	if len(w) < len(p) || len(w)-len(p) > 3 {
		return false
	}
	return strings.Contains(" "+strings.Join(w, " ")+" ", " "+strings.Join(p, " ")+" ")
}

// titleWords lowercases s and splits it into runs of letters and digits.
func titleWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Matches reports whether a result is the paper: by its URL, or by its
// title (a search result's title, or a fetched page's).
func (o Own) Matches(r Result) bool {
	return o.matchURL(r.URL) || o.matchTitle(r.Title)
}
