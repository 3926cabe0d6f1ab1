package extract

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/paperlens/paperlens/eval/mcq"
)

// Method names reported in Result.Method.
const (
	MethodAnswerIs    = "answer-is"
	MethodIsCorrect   = "is-correct"
	MethodBoxed       = "boxed"
	MethodWeakCue     = "weak-cue"
	MethodAnswerColon = "answer-colon"
	MethodMarkdown    = "markdown"
	MethodIsolated    = "isolated"
	MethodLeading     = "leading"
	MethodOptionText  = "option-text"
	MethodMiss        = "miss"
	MethodEmpty       = "empty"
)

// Result is what Extract found.
type Result struct {
	Letters string // sorted unique letters, e.g. "AC"; "" when nothing was found
	Method  string // which rule matched (Method* constants)
	Miss    bool   // nothing was found; scored as wrong
}

// Extract finds the chosen option letters in a reply. letters are the valid
// options ("ABCD"); when empty they are taken from options, and failing that
// A–J are assumed. options give the texts for the option-text fallback; multi
// says whether several letters may be chosen (MA-MCQ). See the package
// documentation for the rule order.
func Extract(reply string, letters string, options []mcq.Option, multi bool) Result {
	return extract(reply, letters, options, multi, replyWindows)
}

func extract(reply string, letters string, options []mcq.Option, multi bool, w windows) Result {
	x := newExtractor(letters, options, multi)
	text := prepare(reply, w)
	if strings.TrimSpace(text) == "" {
		return Result{Method: MethodEmpty, Miss: true}
	}
	lines := strings.Split(text, "\n")
	last := len(lines) - 1
	for last > 0 && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	// Scope 1: the last line; scope 2: the whole reply.
	v := newView(text)
	lastAt := 0
	for _, l := range lines[:last] {
		lastAt += len(l) + 1
	}
	if m, ok := x.scope(v.sub(lastAt, lastAt+len(lines[last])), lines, last, false); ok {
		return m.result()
	}
	if m, ok := x.scope(v, lines, 0, true); ok {
		return m.result()
	}
	for _, s := range []string{lines[last], text} {
		if mask, ok := x.optionText(s); ok {
			return Result{Letters: maskString(mask), Method: MethodOptionText}
		}
	}
	return Result{Method: MethodMiss, Miss: true}
}

// match is one candidate answer: its letters, where it ends (for "last match
// wins") and the rule that found it.
type match struct {
	mask   uint32
	end    int
	method string
}

func (m match) result() Result { return Result{Letters: maskString(m.mask), Method: m.method} }

// later reports whether m should replace best under "the last match wins";
// on a tie the earlier-listed rule keeps it.
func later(best *match, m match) bool { return best.method == "" || m.end > best.end }

type extractor struct {
	valid   uint32 // bit i set: letter 'A'+i is a valid option
	multi   bool
	options []normOption
	optText map[string]bool // upper-cased option texts, to refuse "DC" when it is an option
}

type normOption struct {
	bit  uint32
	norm string
}

func newExtractor(letters string, options []mcq.Option, multi bool) *extractor {
	x := &extractor{multi: multi, optText: map[string]bool{}}
	x.valid = letterMask(letters)
	if x.valid == 0 {
		for _, o := range options {
			x.valid |= letterMask(o.Letter)
		}
	}
	if x.valid == 0 {
		x.valid = letterMask("ABCDEFGHIJ")
	}
	for _, o := range options {
		bit := letterMask(o.Letter)
		if bit == 0 || bit&(bit-1) != 0 || bit&x.valid == 0 {
			continue // not exactly one valid letter
		}
		t := strings.TrimSpace(norm.NFKC.String(o.Text))
		if t == "" {
			continue
		}
		x.optText[strings.ToUpper(t)] = true
		x.options = append(x.options, normOption{bit: bit, norm: normText(t)})
	}
	return x
}

func letterMask(s string) uint32 {
	var m uint32
	for _, r := range strings.ToUpper(s) {
		if r >= 'A' && r <= 'Z' {
			m |= 1 << (r - 'A')
		}
	}
	return m
}

func maskString(m uint32) string {
	var b strings.Builder
	for i := 0; i < 26; i++ {
		if m&(1<<i) != 0 {
			b.WriteByte(byte('A' + i))
		}
	}
	return b.String()
}

// ---------------------------------------------------------------- preparation

var (
	// Zero-width spaces, word joiners and BOMs are dropped: chat templates
	// leave them between "Answer:" and the letter (simple-evals matches
	// "Answer\s*:" followed by six U+200B for Korean), where they would
	// otherwise hide the letter. Joiners (U+200C/D) shape some scripts and stay.
	quotes = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`, "\r\n", "\n", "\r", "\n",
		"\u200b", "", "\u2060", "", "\ufeff", "")
)

// ---------------------------------------------------------------- cues

var (
	// Group 1, "answer-is". The noun "answer" may stand alone; other nouns
	// need an adjective so that "The options are: A) …" is not a cue.
	answerIsRes = []*lazyRegexp{
		lazy(`(?i)\b(?:(?:final|correct|right|best|true|only|most\s+(?:likely|appropriate|accurate|plausible|reasonable))\s+)?answers?(?:\s+(?:to|for)\s+(?:this|the)(?:\s+\w+){0,2}?)?\s*(?:\*\*|__)?\s*(?:is|are|would\s+be|should\s+be|must\s+be|will\s+be|seems\s+to\s+be|appears\s+to\s+be)\b\s*(?:\*\*|__)?\s*:?`),
		lazy(`(?i)\b(?:correct|right|best|true|valid|accurate|appropriate|final|chosen|selected)\s+(?:options?|choices?|statements?|selections?|letters?|ones?)\s*(?:\*\*|__)?\s*(?:is|are|would\s+be|should\s+be|must\s+be|will\s+be)\b\s*(?:\*\*|__)?\s*:?`),
		lazy(`(?:最终|正确)?(?:的)?答案(?:选项)?(?:应该|应当|应|就)?(?:是|为|選)\s*:?`),
		lazy(`正确(?:的)?(?:选项|答案选项)(?:应该|应)?(?:是|为|有)\s*:?`),
		lazy(`选择?\s*:?`),
		lazy(`(?:所以|故|因此|因而)\s*答\s*:?`),
		// "说法错误的是D": the question asks for the wrong statement, and
		// this names it.
		lazy(`(?:说法|表述|叙述|陈述)(?:不正确|错误|正确|不对|对)?的(?:选项)?(?:是|为|有)\s*:?`),
		// Other languages, as lm-evaluation-harness's mmlu_prox prompts
		// ("La réponse est (X)") and OpenCompass's PMMEval extractor ask
		// for them. Only the plain "answer is" phrase: a negated one ("la
		// réponse n'est pas A") does not match.
		lazy(`(?i)\b(?:la\s+)?(?:bonne\s+)?réponse(?:\s+(?:correcte|finale|exacte))?\s+est\s*:?`),
		lazy(`(?i)\b(?:die\s+)?(?:richtige\s+|korrekte\s+)?antwort\s+(?:ist|lautet)\b\s*:?`),
		lazy(`(?i)\b(?:la\s+)?respuesta(?:\s+(?:correcta|final))?\s+es\b\s*:?`),
		lazy(`(?i)\b(?:a\s+)?resposta(?:\s+(?:correta|final))?\s+é\s*:?`),
		lazy(`(?i)\b(?:la\s+)?risposta(?:\s+(?:corretta|giusta|finale))?\s+è\s*:?`),
		lazy(`(?i)\b(?:die\s+)?antwoord\s+is\b\s*:?`),
		lazy(`(?i)\bjawaban(?:nya)?(?:\s+yang\s+benar)?\s+(?:adalah|ialah)\b\s*:?`),
		lazy(`(?i)\bjibu(?:\s+sahihi)?\s+ni\b\s*:?`),
		lazy(`(?i)\b(?:odpověď|odgovor)\s+je\b\s*:?`),
		lazy(`(?i)\ba\s+válasz\s*:?`),
		lazy(`(?i)câu\s+trả\s+lời(?:\s+đúng)?\s+là\s*:?`),
		lazy(`(?i)(?:правильный\s+)?ответ\s*(?:[-–—]\s*(?:это)?|это)\s*:?`),
		lazy(`(?:الإجابة|الجواب)(?:\s+(?:الصحيحة|الصحيح|النهائية|النهائي))?\s+(?:هي|هو)\s*:?`),
		lazy(`उत्तर\s+(?:है|आहे)\s*:?`),
		lazy(`উত্তর\s+হল\s*:?`),
		lazyNFKC(`คำตอบ(?:ที่ถูกต้อง)?คือ\s*:?`),
		lazy(`(?:答え|正解)は\s*:?`),
		lazy(`(?:정답|답변|답)은\s*:?`),
	}
	// Group 1, "boxed".
	boxedRe = lazy(`\\(?:boxed|fbox)\s*\{`)
	// Group 1, "weak-cue": phrases that also introduce ordinary prose, so the
	// letters after them must end their clause.
	weakCueRes = []*lazyRegexp{
		lazy(`(?i)\b(?:it|that|this)(?:'s|\s+is|\s+must\s+be|\s+should\s+be|\s+would\s+be|\s+has\s+to\s+be)\b`),
		lazy(`(?i)\bI\s+(?:think|believe|guess|suspect|reckon|(?:would|'d|will|'ll)\s+say)\b(?:\s+(?:that\s+)?(?:it's|it\s+is))?`),
		lazy(`(?i)\b(?:I|we)(?:'d|'ll|\s+would|\s+will|\s+should|\s+must|\s+can)?\s+(?:choose|select|pick|go\s+with|opt\s+for)\b`),
		lazy(`(?i)\b(?:therefore|thus|hence|so|consequently|overall|finally|in\s+conclusion|in\s+summary)\b\s*[,:]?`),
		lazy(`(?:因此|所以|故而|显然|综上所述|综上)\s*[,:]?`),
	}
	// Group 1, "is-correct" in Chinese: "B是正确的", "选项C正确", "只有选项A是对的",
	// "A和C都正确".
	// "不正确" and "是错误的" do not match: 不 breaks the pattern. 对 must end
	// the clause, as in "A对B的影响" it means "on".
	isCorrectCJKRe = lazy(`(?:^|[^A-Za-z0-9])((?:选项)?[(\[]?[A-Z][)\]]?(?:\s*[、,和与及]\s*(?:选项)?[(\[]?[A-Z][)\]]?)*)\s*(?:选项|项)?\s*(?:都|均|也)?(?:是|为)?(?:正确|对(?:的|[。,;!?\n]|$))`)
	// Group 1, "is-correct": the letters come before the verdict.
	isCorrectRe = lazy(`(?:^|[^A-Za-z0-9])((?i:options?\s+|choices?\s+|statements?\s+|both\s+)?[(\[*]*[A-Z][)\]*]*(?:(?:\s*[,;/&、]\s*(?i:and\s+|or\s+)?|\s+(?i:and|or)\s+|\s+)[(\[*]*[A-Z][)\]*]*)*)\s+(?i:is|are)\s+((?i:both|all|also|indeed|definitely|clearly)\s+)?(?i:the\s+)?(?i:(?:correct|right|true|accurate|valid)\b|(?:(?:correct|right|best|final|most\s+\w+)\s+)?answers?\b|(?:correct|right|best|most\s+\w+)\s+(?:options?|choices?)\b)`)
	// Group 2, "answer-colon".
	answerColonRes = []*lazyRegexp{
		// A quote may close the key: {"answer": "C"} (OpenCompass's PMMEval asks for JSON).
		lazy(`(?i)\b(?:(?:final|correct|right|my|the)\s+)*answers?\s*(?:\*\*|__|"|')?\s*[:=]`),
		lazy(`(?i)\b(?:correct|right|final|selected|chosen|my)\s+(?:options?|choices?|letters?|selections?)\s*(?:\*\*|__)?\s*[:=]`),
		lazy(`(?i)\bans\s*[:.]`),
		lazy(`(?:最终|正确)?答案\s*[:=]`),
		lazy(`(?:正确|最终)选项\s*[:=]`),
		// The labels simple-evals' multilingual MMLU accepts
		// (MULTILINGUAL_ANSWER_REGEXES), and a few more it asks models for.
		lazy(`(?i)\b(?:réponse|respuesta|antwort|risposta|resposta|jawaban|jibu|odpověď|odgovor|antwoord)(?:\s+(?:finale|correcte|final|correcta|richtige|correta|corretta))?\s*[:=]`),
		lazy(`(?i)(?:^|[^\pL\pN])(?:[iì]d[aá]h[uù]n|ответ|відповідь|đáp\s+án|câu\s+trả\s+lời)\s*[:=]`),
		lazy(`(?:答|答复|答曰|答え|回答|解答|正解)\s*[:=]`),
		lazy(`(?:정답|답변|답)\s*[:=]`),
		lazy(`(?:उत्तर|উত্তর)\s*[:=ঃ]`),
		lazy(`(?:الإجابة|الجواب|إجابة)(?:\s+(?:النهائية|الصحيحة|الصحيح|النهائي))?(?:\s+(?:هي|هو))?\s*:`),
	}
	// optionLabelLine spots lines that start with an option label, to tell a
	// walk through the options from a reply that opens with its answer.
	optionLabelLine = lazy(`^\s*(?:[-*•>]\s+)?(?:\*\*)?[(\[]?([A-Z])(?:\*\*)?[.):\]](?:\s|\*|$)`)
)

// lazyNFKC compiles a pattern written in a script that NFKC changes
// (Thai "ำ" becomes "ํา"), so that it matches the prepared text.
func lazyNFKC(p string) *lazyRegexp { return &lazyRegexp{expr: p, nfkc: true} }

// lazyRegexp is a pattern compiled on first use. Compiled at package
// initialisation, this package's ~50 patterns took 6 ms of the start of
// every paperlens process, extraction workers and commands that never read
// an answer included.
type lazyRegexp struct {
	once sync.Once
	expr string
	nfkc bool
	re   *regexp.Regexp
	pre  prefilter // for findAll
}

func lazy(expr string) *lazyRegexp { return &lazyRegexp{expr: expr} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() {
		expr := l.expr
		if l.nfkc {
			expr = norm.NFKC.String(expr)
		}
		l.re = regexp.MustCompile(expr)
		l.pre = newPrefilter(expr)
	})
	return l.re
}

// negators make a following cue hypothetical or negative.
var negators = map[string]bool{
	"if": true, "whether": true, "suppose": true, "supposing": true, "assume": true, "assuming": true,
	"unless": true, "not": true, "never": true, "wrong": true, "incorrect": true, "false": true,
	"invalid": true, "bad": true, "doubt": true, "isn't": true, "wasn't": true, "isnt": true,
	"except": true, "excluding": true, "exclude": true, "excludes": true, "eliminate": true,
	"eliminates": true, "eliminating": true, "out": true, "than": true, "against": true,
	"eliminated": true, "excluded": true, "rejected": true, "discarded": true,
}

// negated reports whether one of the three words before i negates the cue,
// or a negating label ends in a colon just before it ("Eliminated: (A)").
func negated(s string, i int) bool {
	j := i
	for w := 0; w < 3; w++ {
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '*') {
			j--
		}
		if w == 0 && j > 0 && s[j-1] == ':' {
			j--
			for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '*') {
				j--
			}
			k := j
			for k > 0 && isASCIIAlnum(s[k-1]) {
				k--
			}
			return k < j && negators[strings.ToLower(s[k:j])]
		}
		k := j
		for k > 0 && (isASCIIAlnum(s[k-1]) || s[k-1] == '\'') {
			k--
		}
		if k == j {
			return false // punctuation or start: the clause began here
		}
		if negators[strings.ToLower(s[k:j])] {
			return true
		}
		j = k
	}
	return false
}

// negatedCJK reports whether a Chinese cue at i is preceded by a negation.
func negatedCJK(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r == '不' || r == '非' || r == '没'
}

// ---------------------------------------------------------------- scopes

// scope tries groups 1–3 on v. lines and from locate v for the line-based
// rules: the last line is lines[from]; the whole reply is lines[0:].
func (x *extractor) scope(v view, lines []string, from int, whole bool) (match, bool) {
	if m, ok := x.standard(v); ok {
		return m, true
	}
	if m, ok := x.simplified(v); ok {
		return m, true
	}
	return x.isolated(lines, from, whole)
}

// standard is group 1: the match that ends last wins.
func (x *extractor) standard(v view) (match, bool) {
	var best match
	x.eachStandard(v, func(m match, _ int) {
		if later(&best, m) {
			best = m
		}
	})
	return best, best.method != ""
}

// eachStandard calls visit with every group-1 match in v, rule by rule in
// the order of the package documentation, with where its cue starts (the
// letter list's start for "is-correct"). Negated cues are skipped here.
func (x *extractor) eachStandard(v view, visit func(m match, cue int)) {
	s := v.s
	loose := parseOpts{lower: true, concat: x.multi, term: termLoose}
	for _, re := range answerIsRes {
		for _, loc := range re.findAll(v) {
			if negated(s, loc[0]) || negatedCJK(s, loc[0]) {
				continue
			}
			if mask, end, ok := x.list(s, loc[1], loose); ok {
				visit(match{mask, end, MethodAnswerIs}, loc[0])
			}
		}
	}
	var chain uint32
	for _, sub := range isCorrectRe.findAllSubmatch(v) {
		start, stop := sub[2], sub[3]
		seg := strings.TrimRight(s[start:stop], " \t")
		toks := x.scan(seg, 0, parseOpts{concat: x.multi, term: termLoose})
		if len(toks) == 0 || toks[len(toks)-1].end != len(seg) {
			continue // the regex's letter list is looser than a real one
		}
		mask := toks[len(toks)-1].mask
		// "A is correct. C is also correct." names two answers; without
		// "also" a later verdict replaces the earlier one.
		if x.multi && sub[4] >= 0 && strings.EqualFold(strings.TrimSpace(s[sub[4]:sub[5]]), "also") {
			mask |= chain
		}
		chain = mask
		visit(match{mask, start + len(seg), MethodIsCorrect}, start)
	}
	for _, sub := range isCorrectCJKRe.findAllSubmatch(v) {
		if negatedCJK(s, sub[2]) {
			continue
		}
		var mask uint32
		for _, c := range []byte(s[sub[2]:sub[3]]) {
			if c >= 'A' && c <= 'Z' {
				mask |= 1 << (c - 'A')
			}
		}
		if mask&^x.valid != 0 || mask == 0 {
			continue // a letter outside the options: not an answer list
		}
		visit(match{mask, sub[3], MethodIsCorrect}, sub[2])
	}
	for _, loc := range boxedRe.findAll(v) {
		if mask, end, ok := x.list(s, loc[1], parseOpts{lower: true, concat: true, term: termLoose, boxed: true}); ok {
			visit(match{mask, end, MethodBoxed}, loc[0])
		}
	}
	for _, re := range weakCueRes {
		for _, loc := range re.findAll(v) {
			if negated(s, loc[0]) {
				continue
			}
			if mask, end, ok := x.list(s, loc[1], parseOpts{concat: x.multi, term: termClause}); ok {
				visit(match{mask, end, MethodWeakCue}, loc[0])
			}
		}
	}
}

// simplified is group 2: the match that ends last wins.
func (x *extractor) simplified(v view) (match, bool) {
	var best match
	x.eachSimplified(v, func(m match, _ int) {
		if later(&best, m) {
			best = m
		}
	})
	return best, best.method != ""
}

// eachSimplified calls visit with every group-2 match in v and where its
// cue starts, as eachStandard does.
func (x *extractor) eachSimplified(v view, visit func(m match, cue int)) {
	s := v.s
	for _, re := range answerColonRes {
		for _, loc := range re.findAll(v) {
			if negated(s, loc[0]) || negatedCJK(s, loc[0]) {
				continue
			}
			if mask, end, ok := x.list(s, loc[1], parseOpts{lower: true, concat: x.multi, term: termLoose, newline: true}); ok {
				visit(match{mask, end, MethodAnswerColon}, loc[0])
			}
		}
	}
}

// isolated is group 3 over lines[from:], plus the leading-label rule on the
// whole reply.
func (x *extractor) isolated(lines []string, from int, whole bool) (match, bool) {
	var best match
	offset := 0
	for i := 0; i < from; i++ {
		offset += len(lines[i]) + 1
	}
	// run holds the letters of the consecutive letter-only lines just before
	// line i, merged for multi ("- A" / "- C").
	var run uint32
	if x.multi {
		for j := from - 1; j >= 0; j-- {
			prev, _, ok := x.lineOnly(lines[j])
			if !ok {
				break
			}
			run |= prev
		}
	}
	for i := from; i < len(lines); i++ {
		line := lines[i]
		if mask, bold, ok := x.lineOnly(line); ok {
			if x.multi {
				mask |= run
				run = mask
			}
			m := match{mask, offset + len(line), MethodIsolated}
			if bold {
				m.method = MethodMarkdown
			}
			if later(&best, m) {
				best = m
			}
		} else {
			run = 0
			for _, m := range x.marked(line) {
				m.end += offset
				if later(&best, m) {
					best = m
				}
			}
		}
		offset += len(line) + 1
	}
	if best.method == "" && whole {
		return x.leading(lines)
	}
	return best, best.method != ""
}

// stripMarkers removes list bullets and heading marks that precede a line's
// content ("- A", "> B", "## C").
func stripMarkers(line string) string {
	s := strings.TrimSpace(line)
	for {
		t := s
		// ":" is what remains when a model answers a prompt that ended in
		// "Answer" (lm-evaluation-harness's bare-letter fallback, ": B").
		for _, p := range []string{"- ", "• ", "> ", "* ", "+ ", "•", ">", ":"} {
			t = strings.TrimPrefix(t, p)
		}
		t = strings.TrimLeft(t, "#")
		t = strings.TrimSpace(t)
		if t == s {
			return s
		}
		s = t
	}
}

// lineOnly reports whether a line holds nothing but a letter list.
func (x *extractor) lineOnly(line string) (uint32, bool, bool) {
	s := stripMarkers(line)
	// "B选项" and "选项B" alone on a line name the option as "option B" does.
	if t := strings.TrimSuffix(s, "选项"); t != s {
		s = t
	} else {
		s = strings.TrimPrefix(s, "选项")
	}
	if s == "" {
		return 0, false, false
	}
	toks := x.scan(s, 0, parseOpts{lower: true, concat: true, term: termLoose})
	if len(toks) == 0 {
		return 0, false, false
	}
	t := toks[len(toks)-1]
	if strings.Trim(s[t.end:], " \t.。!！:;") != "" {
		return 0, false, false
	}
	bold := false
	for _, tk := range toks {
		bold = bold || tk.bold
	}
	return t.mask, bold, true
}

// marked finds letter lists that are bracketed, bold, boxed or introduced by
// "option", and that end their sentence.
func (x *extractor) marked(line string) []match {
	var out []match
	o := parseOpts{concat: x.multi, term: termSentence, needMark: true}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '(' && c != '[' && c != '*' && c != '_' && c != '\\' && c != '$' && c != 'o' && c != 'O' && c != 'c' && c != 'C' && c != '"' && c != '\'' {
			continue
		}
		if i > 0 && isASCIIAlnum(line[i-1]) {
			continue
		}
		toks := x.scan(line, i, o)
		if len(toks) == 0 {
			continue
		}
		if negated(line, i) {
			i = toks[len(toks)-1].end - 1
			continue // "rules out (B)."
		}
		for k := len(toks) - 1; k >= 0; k-- {
			if x.terminated(line, toks[k], o.term) {
				m := match{toks[k].mask, toks[k].end, MethodIsolated}
				for _, tk := range toks[:k+1] {
					if tk.bold {
						m.method = MethodMarkdown
					}
				}
				out = append(out, m)
				break
			}
		}
		i = toks[len(toks)-1].end - 1 // never rescan inside a list: keeps this linear
	}
	return out
}

// leading is the label rule: the reply opens with "B. …", "(C) …", "A, C: …".
func (x *extractor) leading(lines []string) (match, bool) {
	first := -1
	labels := map[string]bool{}
	offset, firstOff := 0, 0
	for i, l := range lines {
		if first < 0 && strings.TrimSpace(l) != "" {
			first, firstOff = i, offset
		}
		if m := optionLabelLine.get().FindStringSubmatch(l); m != nil {
			labels[m[1]] = true
		}
		offset += len(l) + 1
	}
	if first < 0 || len(labels) > 1 {
		return match{}, false // blank, or a walk through the options
	}
	line := lines[first]
	s := stripMarkers(line)
	skip := strings.Index(line, s)
	toks := x.scan(s, 0, parseOpts{concat: x.multi, term: termLoose})
	for k := len(toks) - 1; k >= 0; k-- {
		t := toks[k]
		if t.closed || t.end == len(s) || isLabelPunct(s, t.end) || labelThenName(s, t) {
			return match{t.mask, firstOff + skip + t.end, MethodLeading}, true
		}
	}
	return match{}, false
}

// labelThenName reports whether the letter is followed by a space and a
// capitalised word, as in "C Cecile" (lighteval's gold answers take that
// form). "A" and "I" are left out: "A Peter …" and "I Think …" read as
// prose.
func labelThenName(s string, t tok) bool {
	if t.run == "A" || t.run == "I" || len(t.run) != 1 || t.run[0] < 'A' || t.run[0] > 'Z' {
		return false
	}
	if t.end >= len(s) || s[t.end] != ' ' {
		return false
	}
	w := asciiWord(s, t.end+1)
	return w != "" && w[0] >= 'A' && w[0] <= 'Z'
}

func isLabelPunct(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '.':
		return i+1 >= len(s) || !isASCIIAlnum(s[i+1])
	case ')', ']', ':', '-', '–', '—', '、', '。':
		return true
	}
	return false
}

// ---------------------------------------------------------------- option text

// normText lower-cases s and turns every run of non-letters/digits into one
// space, so "OPT-1.3B" and "opt 1.3b" compare equal.
func normText(s string) string {
	var b strings.Builder
	space := true
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}

const maxOccurrences = 32

type occurrence struct {
	bit        uint32
	start, end int
}

// optionText finds options whose text the reply quotes.
func (x *extractor) optionText(s string) (uint32, bool) {
	n := normText(s)
	if n == "" || len(x.options) == 0 {
		return 0, false
	}
	var occ []occurrence
	for _, o := range x.options {
		if utf8.RuneCountInString(o.norm) < 2 {
			continue // a one-character option would match anywhere
		}
		var mine []occurrence
		for i := 0; i <= len(n)-len(o.norm); {
			j := strings.Index(n[i:], o.norm)
			if j < 0 {
				break
			}
			st, en := i+j, i+j+len(o.norm)
			if bounded(n, st, en) {
				mine = append(mine, occurrence{o.bit, st, en})
			}
			i = st + 1
		}
		// The last few occurrences decide; keeping all of them would make
		// the containment test below quadratic on repetitive replies.
		if len(mine) > maxOccurrences {
			mine = mine[len(mine)-maxOccurrences:]
		}
		occ = append(occ, mine...)
	}
	var mask, lastBit uint32
	lastEnd := -1
	for i, a := range occ {
		inside := false
		for j, b := range occ {
			if i != j && a.bit != b.bit && b.start <= a.start && a.end <= b.end && b.end-b.start > a.end-a.start {
				inside = true // "Paris" within "Paris, France"
				break
			}
		}
		if inside {
			continue
		}
		mask |= a.bit
		if a.end > lastEnd {
			lastEnd, lastBit = a.end, a.bit
		}
	}
	if mask == 0 {
		return 0, false
	}
	var all uint32
	for _, o := range x.options {
		all |= o.bit
	}
	if mask == all && len(x.options) >= 2 {
		return 0, false // every option quoted: the reply restates the question
	}
	if !x.multi {
		return lastBit, true
	}
	return mask, true
}

// bounded reports whether n[st:en] is not part of a longer word.
func bounded(n string, st, en int) bool {
	if st > 0 {
		prev, _ := utf8.DecodeLastRuneInString(n[:st])
		first, _ := utf8.DecodeRuneInString(n[st:])
		if prev != ' ' && !isCJK(prev) && !isCJK(first) {
			return false
		}
	}
	if en < len(n) {
		next, _ := utf8.DecodeRuneInString(n[en:])
		last, _ := utf8.DecodeLastRuneInString(n[:en])
		if next != ' ' && !isCJK(next) && !isCJK(last) {
			return false
		}
	}
	return true
}

// ---------------------------------------------------------------- letter lists

type termRule int

const (
	termLoose    termRule = iota // after a strong cue: anything but prose continuing the letter
	termClause                   // weak cue: the clause ends (. ! ? ; , : or "because")
	termSentence                 // isolated marked letter: the sentence ends
)

type parseOpts struct {
	lower    bool     // accept lower-case letters
	concat   bool     // accept runs such as "AC"
	term     termRule // how the list must end
	newline  bool     // the first letter may be on a following line ("Answer:\n\nC")
	needMark bool     // every letter must be bracketed/bold/boxed or follow "option"
	boxed    bool     // inside \boxed{: the letters are marked
}

// tok is the list parsed so far, up to and including one letter token.
type tok struct {
	mask   uint32 // letters up to here
	end    int    // just after the token and its closing marks
	run    string // the token's letters as written
	closed bool   // closing marks followed the letter: ")", "**", "}", "$", …
	bold   bool
}

// list parses a letter list at i and returns the longest prefix that ends
// acceptably.
func (x *extractor) list(s string, i int, o parseOpts) (uint32, int, bool) {
	toks := x.scan(s, i, o)
	for k := len(toks) - 1; k >= 0; k-- {
		if k > 0 && newSubject(s, toks[k].end) {
			continue // "The answer is A, B is wrong": B starts a new clause
		}
		if x.terminated(s, toks[k], o.term) {
			return toks[k].mask, toks[k].end, true
		}
	}
	return 0, 0, false
}

// newSubject reports whether a singular verb follows position i, which makes
// the letter before it the subject of a new clause rather than the last item
// of a list.
func newSubject(s string, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	switch strings.ToLower(asciiWord(s, i)) {
	case "is", "was", "seems", "appears", "has", "does", "looks":
		return true
	}
	return false
}

var firstFillers = map[string]bool{
	"option": true, "options": true, "choice": true, "choices": true, "letter": true, "letters": true,
	"statement": true, "statements": true, "both": true, "likely": true, "probably": true, "clearly": true,
	"definitely": true, "actually": true, "indeed": true, "therefore": true, "thus": true, "then": true,
	"just": true, "only": true, "still": true, "simply": true, "obviously": true, "hence": true,
	"either": true, "for": true, "sure": true, "surely": true, "certainly": true, "undoubtedly": true,
	"most": true,
}

var laterFillers = map[string]bool{"option": true, "options": true, "choice": true, "choices": true, "statement": true, "statements": true}

var openers = []string{`\boxed{`, `\fbox{`, `\textbf{`, `\textit{`, `\text{`, `\mathrm{`, `\mathbf{`, `\(`, `\[`, "**", "__", "*", "`", "$", "(", "[", "{", "【", "「", `"`, "'", "<"}
var closers = []string{"**", "__", "*", "`", "$", `\)`, `\]`, "}", ")", "]", "】", "」", `"`, "'", ">"}

// scan reads letter tokens at i separated by commas, "and", "or", "、", …
// and returns the list after each token.
func (x *extractor) scan(s string, i int, o parseOpts) []tok {
	var out []tok
	var mask uint32
	pos := i
	for n := 0; n < 64; n++ {
		p := pos
		if n > 0 {
			p = separator(s, p)
		}
		t, ok := x.token(s, p, o, n == 0)
		if !ok {
			break
		}
		mask |= t.mask
		t.mask = mask
		out = append(out, t)
		pos = t.end
	}
	return out
}

// separator skips what may stand between two letters of a list.
func separator(s string, p int) int {
	for {
		q := p
		for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
			q++
		}
		switch {
		case q < len(s) && strings.IndexByte(",;/&+", s[q]) >= 0:
			q++
		case strings.HasPrefix(s[q:], "、"):
			q += len("、")
		case strings.HasPrefix(s[q:], "和"), strings.HasPrefix(s[q:], "与"), strings.HasPrefix(s[q:], "及"), strings.HasPrefix(s[q:], "或"):
			q += 3
		case strings.HasPrefix(s[q:], "以及"):
			q += 6
		default:
			if w := asciiWord(s, q); w == "and" || w == "or" || w == "plus" {
				q += len(w)
			}
		}
		if q == p {
			return p
		}
		p = q
	}
}

// token reads one letter token at i: fillers ("option"), opening marks,
// the letter(s), closing marks. Each stage is a step below; the token is
// refused when the letters are part of a word, or when a mark is needed
// (o.needMark) and neither a filler nor a closing mark gave one.
func (x *extractor) token(s string, i int, o parseOpts, first bool) (tok, bool) {
	k, marked := skipFillers(s, i, o, first)
	k, bold := skipOpeners(s, k)
	if k >= len(s) || afterWord(s, k) {
		return tok{}, false
	}
	run, j := letterRun(s, k)
	if j == k {
		return tok{}, false
	}
	mask, ok := x.runMask(run, o)
	if !ok || wordGoesOn(s, j) {
		return tok{}, false
	}
	j, closed, boldClose := skipClosers(s, j)
	if o.needMark && !marked && !closed {
		return tok{}, false
	}
	return tok{mask: mask, end: j, run: run, closed: closed, bold: bold || boldClose}, true
}

// skipBlanks skips spaces and tabs at k, and line breaks too when
// newlines is set.
func skipBlanks(s string, k int, newlines bool) int {
	for k < len(s) && (s[k] == ' ' || s[k] == '\t' || (newlines && (s[k] == '\n' || s[k] == '\r'))) {
		k++
	}
	return k
}

// skipFillers skips blanks and up to three filler words before a letter:
// any of firstFillers before a list's first letter ("clearly option"),
// only "option" and its kin before a later one. It reports the position
// after them and whether the letter is marked as an option (o.boxed, or a
// filler "option…"/"choice…"). The first token may start on a new line
// when o.newline allows.
func skipFillers(s string, i int, o parseOpts, first bool) (k int, marked bool) {
	newlines := first && o.newline
	k = skipBlanks(s, i, newlines)
	marked = o.boxed
	fillers := laterFillers
	if first {
		fillers = firstFillers
	}
	for n := 0; n < 3; n++ {
		w := asciiWord(s, k)
		if !fillers[strings.ToLower(w)] || k+len(w) >= len(s) || (s[k+len(w)] != ' ' && s[k+len(w)] != '\t') {
			break
		}
		if lw := strings.ToLower(w); strings.HasPrefix(lw, "option") || strings.HasPrefix(lw, "choice") {
			marked = true
		}
		k = skipBlanks(s, k+len(w), newlines)
	}
	return k, marked
}

// skipOpeners skips the opening marks before a letter and the blanks after
// each, and reports whether one of them was bold ("**", "__"). At most a
// few are taken ("$\boxed{\text{(" is four): a long run of "*" or "(" is
// not a wrapped letter, and scanning it from every position would be
// quadratic.
func skipOpeners(s string, k int) (int, bool) {
	bold := false
	for n, opened := 0, true; opened && n < 6; n++ {
		opened = false
		for _, op := range openers {
			if strings.HasPrefix(s[k:], op) {
				k += len(op)
				bold = bold || op == "**" || op == "__"
				opened = true
				break
			}
		}
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') && opened {
			k++
		}
	}
	return k, bold
}

// afterWord reports a letter at k that ends a word ("xA"): not a token.
// After Chinese it is one ("答案是B"): Chinese has no spaces.
func afterWord(s string, k int) bool {
	if k == 0 {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(s[:k])
	return isWordRune(prev) && !isCJK(prev)
}

// letterRun reads the run of ASCII letters and digits at k, or else one
// native option letter (Arabic, Bengali) as its Latin letter, and returns
// it and where it ends (k when there is none).
func letterRun(s string, k int) (string, int) {
	j := k
	for j < len(s) && isASCIIAlnum(s[j]) {
		j++
	}
	if j > k {
		return s[k:j], j
	}
	run, n := nativeLetter(s[k:])
	return run, k + n
}

// wordGoesOn reports letters that go on as a word at j: "A's", "A-based",
// "A.I.", or a letter of another script.
func wordGoesOn(s string, j int) bool {
	if j >= len(s) {
		return false
	}
	c := s[j]
	switch {
	case (c == '\'' || c == '-' || c == '.') && j+1 < len(s) && isASCIIAlnum(s[j+1]):
		return true
	case c >= utf8.RuneSelf:
		r, _ := utf8.DecodeRuneInString(s[j:])
		return isWordRune(r) && !isCJK(r)
	}
	return false
}

// skipClosers skips the closing marks after a letter, each after optional
// blanks, and reports whether there was one and whether one was bold.
func skipClosers(s string, j int) (end int, closed, bold bool) {
	for {
		q := j
		for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
			q++
		}
		hit := false
		for _, c := range closers {
			if strings.HasPrefix(s[q:], c) {
				j = q + len(c)
				closed, hit = true, true
				bold = bold || c == "**" || c == "__"
				break
			}
		}
		if !hit {
			return j, closed, bold
		}
	}
}

// nativeLetters are the letters Arabic and Bengali MMLU translations label
// options A–D with; simple-evals' normalize_extracted_answer maps them the
// same way.
var nativeLetters = map[rune]string{
	'أ': "A", 'ب': "B", 'ج': "C", 'د': "D",
	'অ': "A", 'ব': "B", 'ড': "C", 'ঢ': "D",
}

// nativeLetter reads one of nativeLetters standing alone (not followed by a
// letter or a vowel sign of its word) and returns its Latin letter and byte
// length.
func nativeLetter(s string) (string, int) {
	r, n := utf8.DecodeRuneInString(s)
	l, ok := nativeLetters[r]
	if !ok {
		return "", 0
	}
	if next, _ := utf8.DecodeRuneInString(s[n:]); n < len(s) && (unicode.IsLetter(next) || unicode.IsMark(next)) {
		return "", 0
	}
	return l, n
}

// runMask turns a run of ASCII letters/digits into option letters, or
// refuses it.
func (x *extractor) runMask(run string, o parseOpts) (uint32, bool) {
	if len(run) == 1 {
		c := run[0]
		if o.lower && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c < 'A' || c > 'Z' {
			return 0, false
		}
		bit := uint32(1) << (c - 'A')
		return bit, bit&x.valid != 0
	}
	if !o.concat || len(run) > 26 || x.optText[strings.ToUpper(run)] {
		return 0, false
	}
	if o.lower && strings.ToLower(run) == run {
		run = strings.ToUpper(run) // "answer: ac"
	}
	var m uint32
	for i := 0; i < len(run); i++ {
		c := run[i]
		if c < 'A' || c > 'Z' {
			return 0, false
		}
		bit := uint32(1) << (c - 'A')
		if bit&x.valid == 0 || bit <= m {
			// Answers are written in order ("ACD"); a run out of order or
			// repeating a letter is a word ("BAD", "ADD", "CAB").
			return 0, false
		}
		m |= bit
	}
	return m, true
}

// connectors may follow an answer letter in prose without making it a word
// ("the answer is A because …", "C and D", "A is correct"). Words that follow
// the article "a" ("given", "rather", "one", "new", …) are left out.
var connectors = map[string]bool{
	"because": true, "since": true, "as": true, "and": true, "or": true, "is": true, "are": true,
	"was": true, "were": true, "which": true, "for": true, "due": true, "with": true, "from": true,
	"here": true, "there": true, "only": true, "alone": true, "both": true, "respectively": true,
	"seems": true, "appears": true, "fits": true, "matches": true, "correctly": true, "according": true,
	"based": true, "in": true, "on": true, "at": true, "by": true, "then": true, "too": true, "also": true,
	"not": true, "but": true, "whereas": true, "although": true, "though": true, "instead": true,
	"option": true, "options": true, "choice": true, "that": true, "so": true, "hence": true,
	"therefore": true, "thus": true, "if": true, "should": true, "would": true, "must": true,
}

// foreignConnectors follow a letter in the languages the multilingual cues
// cover ("C non A", "B und D", "A porque …").
var foreignConnectors = map[string]bool{
	"non": true, "et": true, "ou": true, "car": true, "und": true, "oder": true, "weil": true,
	"nicht": true, "y": true, "o": true, "e": true, "porque": true, "pois": true, "perché": true,
	"dan": true, "atau": true, "karena": true, "na": true, "au": true, "kwa": true,
}

var clauseConnectors = map[string]bool{"because": true, "since": true, "as": true}

// terminated reports whether the list ending with t may end here.
func (x *extractor) terminated(s string, t tok, rule termRule) bool {
	q := t.end
	for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	if q >= len(s) || s[q] == '\n' || s[q] == '\r' {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[q:])
	if sentenceEnd(s, q) {
		return true
	}
	if rule == termSentence {
		return false
	}
	if isCJK(r) {
		// After a weak cue the letter must end its clause: "因此A。" is an
		// answer, "因此A选项不对" is not.
		return rule != termClause
	}
	if rule == termClause {
		if strings.ContainsRune(",:)]，：、\"'", r) {
			return true
		}
		return clauseConnectors[strings.ToLower(asciiWord(s, q))]
	}
	if !isWordRune(r) {
		return r != '.' // "." here is "A.x", not a sentence end
	}
	if t.closed {
		return true // "(A) A model …": the bracket settles it
	}
	w := asciiWord(s, q)
	if w == "" {
		return false // digit or non-ASCII letter
	}
	if connectors[strings.ToLower(w)] {
		return true
	}
	if foreignConnectors[strings.ToLower(w)] && t.run[0] >= 'A' && t.run[0] <= 'Z' {
		return true // "réponse est C non A"; upper-case only, as "a non-trivial" is English
	}
	// "The answer is C The …" is a letter; "A Bayesian …" is an article.
	upperTok := t.run[0] >= 'A' && t.run[0] <= 'Z'
	return w[0] >= 'A' && w[0] <= 'Z' && upperTok && t.run != "A" && t.run != "I"
}

// sentenceEnd reports whether s[q] ends a sentence.
func sentenceEnd(s string, q int) bool {
	switch r, _ := utf8.DecodeRuneInString(s[q:]); r {
	case '.':
		return q+1 >= len(s) || !isASCIIAlnum(s[q+1])
	case '!', '?', ';', '。', '！', '？', '；', '…':
		return true
	}
	return false
}

// ---------------------------------------------------------------- characters

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// asciiWord returns the run of ASCII letters (and apostrophes inside) at i.
func asciiWord(s string, i int) string {
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || (s[j] == '\'' && j > i && j+1 < len(s) && isASCIIAlnum(s[j+1]))) {
		j++
	}
	return s[i:j]
}
