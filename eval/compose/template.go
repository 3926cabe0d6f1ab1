package compose

import (
	"strconv"
	"strings"
)

// QuestionTemplates are Encyclo-K's question templates (appendix A.3,
// QUESTION_TEMPLATES), verbatim. {accuracy} takes a word of
// AccuracyWords; {knowledge_list} the numbered statements, one a line.
var QuestionTemplates = []string{
	"Given the following statements, which ones are {accuracy}? {knowledge_list}",
	"Which of the following statements are {accuracy}? {knowledge_list}",
	"From the statements below, identify the ones that are {accuracy}: {knowledge_list}",
	"Please select all statements that are {accuracy}: {knowledge_list}",
	"Among these statements, which ones are {accuracy}? {knowledge_list}",
	"Review the following statements and identify those that are {accuracy}: {knowledge_list}",
	"Choose all statements that are {accuracy} from the following: {knowledge_list}",
	"Examine these statements and select the {accuracy} ones: {knowledge_list}",
	"Which statements in the following list are {accuracy}? {knowledge_list}",
	"Identify all {accuracy} statements from the following: {knowledge_list}",
	"From the options below, select all {accuracy} statements: {knowledge_list}",
	"Looking at these statements, which can be considered {accuracy}? {knowledge_list}",
	"Read the following statements and determine which are {accuracy}: {knowledge_list}",
}

// AccuracyWords are A.3's ACCURACY_TEMPLATES: the words a question may
// use for what it asks, by Correct and Incorrect.
var AccuracyWords = map[string][]string{
	Correct:   {"correct", "accurate", "true", "valid", "right", "factual", "precise", "exact", "proper", "sound"},
	Incorrect: {"incorrect", "false", "invalid", "wrong", "inaccurate", "erroneous", "mistaken", "flawed", "faulty", "imprecise"},
}

// optionsHeading is the line between the statements and the options, as
// in A.3's template ("Options:").
const optionsHeading = "Options:"

// Numeral is n (from 1) in upper-case Roman numerals, as A.3's example
// numbers statements: I, II, III, IV, ...
func Numeral(n int) string {
	if n <= 0 || n >= 4000 {
		return strconv.Itoa(n)
	}
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

// oneLine collapses the whitespace of text (line breaks included) to
// single spaces, so that a statement is one line of the question.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// statementLine is a statement as the question lists it. A statement
// that answers its source question's stem keeps the stem as its context:
// the option alone ("The reservoir's highest-scored tokens") says nothing
// true or false without the question it answers.
func statementLine(numeral string, st Statement) string {
	if st.Context == "" {
		return numeral + ". " + st.Text
	}
	return numeral + `. In answer to "` + st.Context + `": ` + st.Text
}

// stem renders the question before its options: the template's sentence
// with its accuracy word, the numbered statements, then "Options:".
func stem(template int, word string, lines []string) string {
	sentence := strings.ReplaceAll(QuestionTemplates[template], "{accuracy}", word)
	sentence = strings.TrimSpace(strings.ReplaceAll(sentence, "{knowledge_list}", ""))
	return sentence + "\n" + strings.Join(lines, "\n") + "\n" + optionsHeading
}
