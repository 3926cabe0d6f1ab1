package judgecheck

import "strings"

// Verdict is a three-way verdict on a comparison: A (the first answer is
// better), B (the second) or TIE. The zero value is no verdict: a reply
// whose verdict could not be read.
type Verdict string

// The three verdicts, and LFQA-E's labels as verdicts (response_a: A,
// response_b: B, same: TIE).
const (
	A   Verdict = "A"
	B   Verdict = "B"
	Tie Verdict = "TIE"
)

// Classes are the verdicts in the order tables show them.
var Classes = [3]Verdict{A, B, Tie}

// index is v's position in Classes; 3 for no verdict.
func (v Verdict) index() int {
	switch v {
	case A:
		return 0
	case B:
		return 1
	case Tie:
		return 2
	}
	return 3
}

// Swapped is v for the answers in the other order: A and B trade places,
// TIE stays. A judge shown the pair swapped says A when it prefers
// response_b.
func (v Verdict) Swapped() Verdict {
	switch v {
	case A:
		return B
	case B:
		return A
	}
	return v
}

// ParseVerdict reads the judge's verdict from the last verdict line of
// its reply: a line "Verdict: A", "Verdict: B" or "Verdict: TIE" (the
// fixed format the prompt asks for). Case, blank space, a full-width
// colon, a final full stop and Markdown emphasis around the line or its
// parts ("**Verdict:** B", "> Verdict: `TIE`") are tolerated; any other
// text on the line makes it no verdict line. ok is false when the reply
// has none: an unparsed verdict. The last line counts because a judge may
// restate the format, or weigh each verdict, before giving its own.
func ParseVerdict(reply string) (v Verdict, ok bool) {
	for end := len(reply); end > 0; {
		start := strings.LastIndexByte(reply[:end], '\n') + 1
		if v, ok := verdictLine(reply[start:end]); ok {
			return v, true
		}
		end = start - 1
	}
	return "", false
}

// verdictLine parses one line as a verdict line.
func verdictLine(line string) (Verdict, bool) {
	const key = "verdict"
	s := trimDecor(line)
	if len(s) < len(key) || !strings.EqualFold(s[:len(key)], key) {
		return "", false
	}
	s = trimDecor(s[len(key):])
	switch {
	case strings.HasPrefix(s, ":"):
		s = s[1:]
	case strings.HasPrefix(s, "："):
		s = s[len("："):]
	default:
		return "", false
	}
	s = trimDecor(strings.TrimSuffix(trimDecor(s), "."))
	switch strings.ToUpper(s) {
	case "A":
		return A, true
	case "B":
		return B, true
	case "TIE":
		return Tie, true
	}
	return "", false
}

// trimDecor trims blank space and Markdown decoration: emphasis, code
// ticks, heading and quote markers, list dashes, brackets.
func trimDecor(s string) string {
	return strings.Trim(s, " \t\r*_`#>-[]")
}
