package run

import (
	"math"
	"strconv"
	"strings"
)

// parseVerdict reads the LPFQA judge's score from its reply: the number
// of the last `answer_score: x` (the JSON key {"answer_score": x} and the
// forms around it: quoted or not, a full-width colon, a quoted number).
// The last one counts because the judge may think inline, or restate the
// prompt's example, before its verdict. ok is false when there is none,
// or the number is too large for a float64 (a run of hundreds of digits
// made +Inf, which then failed to write as JSON).
//
// It does what FindAllStringSubmatch of
//
//	"?answer_score"?\s*[:：]\s*"?(-?[0-9]+(?:\.[0-9]+)?)
//
// and taking the last match did (verdict_test.go checks it against that),
// in time linear in the reply, scanning back from its end: the regexp has
// no literal prefix, so Go ran its NFA over every byte of the reply.
func parseVerdict(content string) (score float64, ok bool) {
	num, ok := lastScore(content)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

const scoreKey = "answer_score"

// lastScore returns the number of the last answer_score whose value
// parses. Matches cannot overlap (what follows the key holds no other
// key), so the last match is after the last key that has a number.
func lastScore(s string) (string, bool) {
	end := len(s)
	for {
		i := strings.LastIndex(s[:end], scoreKey)
		if i < 0 {
			return "", false
		}
		if num, ok := scoreAfter(s[i+len(scoreKey):]); ok {
			return num, true
		}
		end = i
	}
}

// scoreAfter parses `"?\s*[:：]\s*"?(-?[0-9]+(?:\.[0-9]+)?)` at the start of
// s. Every step is forced (a quote, a colon, a sign are taken when there),
// so no backtracking is needed.
func scoreAfter(s string) (string, bool) {
	i := 0
	if i < len(s) && s[i] == '"' {
		i++
	}
	i = skipSpace(s, i)
	switch {
	case strings.HasPrefix(s[i:], ":"):
		i++
	case strings.HasPrefix(s[i:], "："):
		i += len("：")
	default:
		return "", false
	}
	i = skipSpace(s, i)
	if i < len(s) && s[i] == '"' {
		i++
	}
	start := i
	if i < len(s) && s[i] == '-' {
		i++
	}
	d := digitsAt(s, i)
	if d == 0 {
		return "", false
	}
	i += d
	if i < len(s) && s[i] == '.' {
		if f := digitsAt(s, i+1); f > 0 {
			i += 1 + f
		}
	}
	return s[start:i], true
}

// skipSpace skips what \s matches: ASCII space, \t, \n, \f, \r.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	return i
}

func digitsAt(s string, i int) int {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j - i
}
