package modeltest

import (
	"crypto/sha256"
	"encoding/binary"
	"strings"
)

// The stand-in judges of PairJudge.
const (
	JudgeAlwaysA   = "always-A"   // the answer shown first, always
	JudgeAlwaysTie = "always-TIE" // a tie, always
	JudgeTruth     = "truth"      // the true verdict, in the order shown
	JudgeRandom    = "random"     // A, B or TIE drawn from the seed and the pair as shown
	JudgeMute      = "mute"       // a reply with no verdict line
)

// Pair is a comparison a PairJudge knows: its two answers, and its true
// verdict with First shown first ("A", "B" or "TIE").
type Pair struct{ First, Second, Truth string }

// PairJudge is a stand-in three-way judge of pairwise comparisons
// (paperlens judge-check): its Answer finds which known pair a prompt
// shows, and in which order (the answer whose text comes first in the
// prompt is the one shown first), and replies with a line of analysis and
// a last line "Verdict: A", "Verdict: B" or "Verdict: TIE" as Mode says.
// A prompt showing no known pair (a preflight call) is answered "OK".
//
//	j := modeltest.PairJudge{Mode: modeltest.JudgeTruth, Pairs: pairs}
//	srv := modeltest.NewServer(t, modeltest.Config{Answer: j.Answer})
type PairJudge struct {
	Mode  string
	Pairs []Pair
	Seed  uint64 // for JudgeRandom
}

// Answer is the reply to r, for Config.Answer.
func (j PairJudge) Answer(r Request) (string, string) {
	first, second, truth, ok := j.Shown(r.Prompt())
	if !ok {
		return "OK", ""
	}
	v := j.Verdict(first, second, truth)
	if v == "" {
		return "Both answers have merits, and I cannot weigh them.", ""
	}
	return "Answer A and answer B both address the question; weighed against the reference:\nVerdict: " + v, ""
}

// Shown finds the known pair prompt shows: its answers in the order shown
// and the true verdict for that order.
func (j PairJudge) Shown(prompt string) (first, second, truth string, ok bool) {
	for _, p := range j.Pairs {
		i, k := strings.Index(prompt, p.First), strings.Index(prompt, p.Second)
		switch {
		case p.First == "" || p.Second == "" || i < 0 || k < 0:
			continue
		case i <= k:
			return p.First, p.Second, p.Truth, true
		}
		return p.Second, p.First, swapVerdict(p.Truth), true
	}
	return "", "", "", false
}

// Verdict is what the judge says of first and second shown in that order,
// truth being the true verdict for that order: "A", "B", "TIE", or "" for
// no verdict (JudgeMute).
func (j PairJudge) Verdict(first, second, truth string) string {
	switch j.Mode {
	case JudgeAlwaysA:
		return "A"
	case JudgeAlwaysTie:
		return "TIE"
	case JudgeTruth:
		return truth
	case JudgeRandom:
		var seed [8]byte
		binary.LittleEndian.PutUint64(seed[:], j.Seed)
		h := sha256.Sum256([]byte(string(seed[:]) + first + "\x00" + second))
		return [3]string{"A", "B", "TIE"}[binary.LittleEndian.Uint64(h[:8])%3]
	}
	return ""
}

func swapVerdict(v string) string {
	switch v {
	case "A":
		return "B"
	case "B":
		return "A"
	}
	return v
}
