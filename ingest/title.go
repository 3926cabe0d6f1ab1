package ingest

import (
	"strings"
	"unicode"

	"github.com/paperlens/paperlens/internal/lazyregexp"
)

// titleScan is how many paragraphs from the top of a plain-text document
// are looked at for its title.
const titleScan = 15

// maxTitleLen is the longest paragraph taken for a title, in bytes.
const maxTitleLen = 200

// plainTitle is the title of a plain-text or Markdown document (cleaned by
// cleanPlain: paragraphs separated by blank lines). Text saved from a web
// page or converted from LaTeX starts with lines that are no title:
// "Skip to content", menus, breadcrumbs, lines of links, "]ByteDance Seed
// ... \contributionFull author list". So:
//
//   - a Markdown level-1 heading ("# Title") near the top wins;
//   - else the first substantial paragraph (two words or more, mostly
//     letters) that is neither navigation nor markup debris;
//   - leading markup and bracket debris are cut off, Markdown links and
//     inline HTML tags reduced to their text;
//   - a title wrapped over lines (one paragraph a line, as text rendered
//     from a PDF is) takes its next lines while they read as its
//     continuation (see continues).
//
// "" when nothing near the top reads as a title.
func plainTitle(text string) string {
	paras := strings.SplitN(text, "\n\n", titleScan+1)
	if len(paras) > titleScan {
		paras = paras[:titleScan]
	}
	for _, p := range paras {
		if rest, ok := strings.CutPrefix(p, "# "); ok {
			if t := cleanTitleLine(rest); titleLike(rest, t) && !sectionName(t) {
				return t
			}
		}
	}
	at := 0 // the offset of paras[i] in text
	for i, p := range paras {
		if strings.HasPrefix(p, "#") && !strings.HasPrefix(p, "# ") {
			// "## Abstract": a section, not the title; nothing after it is.
			break
		}
		at += len(p) + len("\n\n")
		t := cleanTitleLine(p)
		if !titleLike(p, t) || sectionName(t) {
			continue
		}
		for _, next := range paras[i+1:] {
			at += len(next) + len("\n\n")
			n := cleanTitleLine(next)
			if len(t)+1+len(n) > maxTitleLen || !continues(t, n, text[min(at, len(text)):]) {
				break
			}
			t += " " + n
		}
		return t
	}
	return ""
}

var (
	mdImage   = lazyregexp.MustCompile(`!\[[^\]]*\]\([^)]*\)`)
	mdLink    = lazyregexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	htmlTag   = lazyregexp.MustCompile(`</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>`)
	bareURL   = lazyregexp.MustCompile(`(?i)\b(?:https?://|www\.)\S+`)
	latexCmd  = lazyregexp.MustCompile(`\\[A-Za-z]{2,}`)
	emphasis  = lazyregexp.MustCompile("\\*\\*|__|`")
	emailLike = lazyregexp.MustCompile(`\S+@\S+\.\S+`)
)

// cleanTitleLine reduces a paragraph to the text a title would show:
// Markdown images dropped, links and HTML tags reduced to their text,
// emphasis marks removed, and markup or bracket debris cut from both ends.
func cleanTitleLine(p string) string {
	p = mdImage.ReplaceAllString(p, "")
	p = mdLink.ReplaceAllString(p, "$1")
	p = htmlTag.ReplaceAllString(p, "")
	p = emphasis.ReplaceAllString(p, "")
	p = strings.TrimLeft(p, "#*_>]})|=~-•·:;,. \t")
	p = strings.TrimRight(p, "#*_=~|[{( \t")
	return collapseSpace(p)
}

// titleLike reports whether raw, a paragraph, cleaned to t, can be a title:
// short enough, two words or more, mostly letters, and not navigation,
// links, LaTeX debris, an address or a bare date.
func titleLike(raw, t string) bool {
	if t == "" || len(t) > maxTitleLen || len(strings.Fields(t)) < 2 {
		return false
	}
	if latexCmd.MatchString(raw) || emailLike.MatchString(t) || linkShare(raw) > 0.5 {
		return false
	}
	letters, other := 0, 0
	for _, r := range t {
		switch {
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r):
			other++
		}
	}
	if letters < 6 || letters < 2*other {
		return false
	}
	return !navigation(t)
}

// linkShare is the share of a paragraph's bytes inside Markdown links,
// images and bare URLs: a line of them is a menu or a footer.
func linkShare(p string) float64 {
	if p == "" {
		return 0
	}
	n := 0
	for _, re := range []*lazyregexp.Regexp{mdImage, mdLink, bareURL} {
		for _, m := range re.FindAllStringIndex(p, -1) {
			n += m[1] - m[0]
		}
		p = re.ReplaceAllString(p, "")
	}
	return float64(n) / float64(n+len(p))
}

// navWords are lines of a saved web page's chrome, lowercased.
var navWords = map[string]bool{
	"skip to content": true, "skip to main content": true, "skip to main": true,
	"jump to content": true, "skip navigation": true, "menu": true, "main menu": true,
	"open menu": true, "close menu": true, "toggle navigation": true, "navigation": true,
	"sign in": true, "sign up": true, "log in": true, "login": true, "log out": true,
	"register": true, "sign in / register": true, "sign in or register": true,
	"search": true, "home": true, "back": true, "back to top": true, "close": true,
	"share": true, "share this": true, "print": true, "subscribe": true,
	"accept cookies": true, "cookie settings": true, "view pdf": true, "download pdf": true,
	"table of contents": true, "on this page": true, "in this article": true,
}

// venueHeaders start lines printed above a paper's title.
var venueHeaders = []string{"published as a conference paper", "under review as a conference paper",
	"preprint. under review", "arxiv:", "preprint"}

// navigation reports whether a cleaned line is web-page chrome: a known
// menu or sign-in line, a breadcrumb trail ("Home > Papers > ICLR 2026"),
// or a venue header.
func navigation(t string) bool {
	l := strings.ToLower(strings.TrimRight(t, " .:"))
	if navWords[l] {
		return true
	}
	for _, h := range venueHeaders {
		if strings.HasPrefix(l, h) {
			return true
		}
	}
	for _, sep := range []string{" > ", " › ", " » ", " / ", " | ", " · ", " • "} {
		if parts := strings.Split(l, sep); len(parts) >= 3 {
			short := true
			for _, p := range parts {
				short = short && len(strings.Fields(p)) <= 4
			}
			if short {
				return true
			}
		}
	}
	return false
}

// sectionNames are headings that open a paper's body: what comes at or
// after them is no title.
var sectionNames = map[string]bool{
	"abstract": true, "introduction": true, "contents": true, "keywords": true,
	"tl;dr": true, "summary": true, "references": true, "background": true,
}

// sectionName reports whether a cleaned line is a section heading such as
// "Abstract" or "1 Introduction".
func sectionName(t string) bool {
	l := strings.ToLower(strings.TrimRight(t, " .:"))
	l = strings.TrimLeft(l, "0123456789. ")
	return sectionNames[l]
}

// titleJoiners end a line that cannot end a title: the title goes on.
var titleJoiners = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true,
	"for": true, "in": true, "on": true, "to": true, "with": true, "via": true,
	"from": true, "by": true, "at": true, "as": true, "towards": true, "toward": true,
	"through": true, "under": true, "without": true, "beyond": true, "versus": true, "vs": true,
}

// continues reports whether line n goes on the title t, which ended a line;
// rest is the document's text after n. n must be short, hold no author or
// affiliation marks (commas, digits, addresses, superscripts) and be no
// section heading; and either t cannot end where it does (a hyphen, colon
// or joining word at its end, or n starting in lower case) or the phrase
// the line break cuts (t's last word, n's first) occurs in the rest of the
// document, as "Artificial Intelligence" does in ElaipBench's abstract. An
// author's name under a one-line title fails that test: "Optimization John"
// occurs nowhere else.
func continues(t, n, rest string) bool {
	words := strings.Fields(n)
	if len(words) == 0 || len(words) > 10 || len(n) > 90 || sectionName(n) || navigation(n) {
		return false
	}
	if strings.ContainsAny(n, ",;@*†‡§∗0123456789()[]{}<>|\\$") || strings.ContainsAny(t[len(t)-1:], ".!?") {
		return false
	}
	if latexCmd.MatchString(n) || emailLike.MatchString(n) {
		return false
	}
	tw := strings.Fields(t)
	last := strings.ToLower(tw[len(tw)-1])
	if strings.HasSuffix(t, "-") || strings.HasSuffix(t, ":") || titleJoiners[last] || startsLower(n) {
		return true
	}
	seam := last + " " + strings.ToLower(words[0])
	return strings.Contains(strings.ToLower(strings.Join(strings.Fields(rest), " ")), seam)
}

// startsLower reports whether s starts with a lower-case letter.
func startsLower(s string) bool {
	for _, r := range s {
		return unicode.IsLower(r)
	}
	return false
}
