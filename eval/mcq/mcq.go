// Package mcq parses multiple-choice questions whose options are inline in
// the question text, as ElaipBench and LPFQA publish them, and normalises
// answer keys.
package mcq

import (
	"sort"
	"strings"

	"github.com/paperlens/paperlens/third_party/lazyregexp"
)

// Option is one lettered choice.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// Question is a stem with its options.
type Question struct {
	Stem    string   `json:"stem"`
	Options []Option `json:"options"`
}

// OptionLines renders the options one per line as "A. text".
func (q Question) OptionLines() []string {
	out := make([]string, len(q.Options))
	for i, o := range q.Options {
		out[i] = o.Letter + ". " + o.Text
	}
	return out
}

// Letters lists the option letters in order.
func (q Question) Letters() string {
	var b strings.Builder
	for _, o := range q.Options {
		b.WriteString(o.Letter)
	}
	return b.String()
}

// optionStart matches an option label at the start of a line: "A.", "A)",
// "(A)", "A:", "A．", "A、", with optional markdown bold.
var optionStart = lazyregexp.MustCompile(`(?m)^[ \t]*(?:\*\*)?\(?([A-J])(?:\*\*)?[.):．、：](?:\*\*)?[ \t]*`)

// inlineOption finds labels inside one line: " B. ", " (C) ".
var inlineOption = lazyregexp.MustCompile(`(?:^|\s)\(?([A-J])[.)](?:\s+)`)

// Parse splits a question into stem and options. Options are expected on
// their own lines; when none are, labels inside the text ("... A. x B. y")
// are tried, accepting them only as a consecutive run A, B, C, ...
func Parse(text string) Question {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if q, ok := split(text, optionStart.FindAllStringSubmatchIndex(text, -1)); ok {
		return q
	}
	if q, ok := split(text, inlineOption.FindAllStringSubmatchIndex(text, -1)); ok {
		return q
	}
	return Question{Stem: strings.TrimSpace(text)}
}

// split accepts label matches that run A, B, C... from the first A and cuts
// the text at them.
func split(text string, ms [][]int) (Question, bool) {
	start := -1
	for i, m := range ms {
		if text[m[2]:m[3]] == "A" {
			start = i
			break
		}
	}
	if start < 0 {
		return Question{}, false
	}
	var picked [][]int
	want := byte('A')
	for _, m := range ms[start:] {
		if text[m[2]] == want {
			picked = append(picked, m)
			want++
		}
	}
	if len(picked) < 2 {
		return Question{}, false
	}
	q := Question{Stem: strings.TrimSpace(text[:picked[0][0]])}
	for i, m := range picked {
		end := len(text)
		if i+1 < len(picked) {
			end = picked[i+1][0]
		}
		q.Options = append(q.Options, Option{Letter: text[m[2]:m[3]], Text: strings.TrimSpace(text[m[1]:end])})
	}
	return q, true
}

// NormalizeAnswer turns an answer key such as "A, C", "ca" or "(B)" into
// sorted unique upper-case letters ("AC"); ok is false when it holds
// anything but option letters.
func NormalizeAnswer(s string) (string, bool) {
	var letters []string
	seen := map[rune]bool{}
	for _, r := range strings.ToUpper(s) {
		switch {
		case r >= 'A' && r <= 'J':
			if !seen[r] {
				seen[r] = true
				letters = append(letters, string(r))
			}
		case r == ',' || r == ' ' || r == '(' || r == ')' || r == ';' || r == '、' || r == '，' || r == '\t':
		default:
			return "", false
		}
	}
	sort.Strings(letters)
	return strings.Join(letters, ""), len(letters) > 0
}
