// Package extract finds the option letters a model chose in a free-form reply
// to a multiple-choice question, following the multi-tier scheme of
// Encyclo-K §4.2 (itself the SuperGPQA extractor): regular-expression groups
// tried on the last line first and then on the whole reply, the last match in
// a group winning, then a search for quoted option text, else a miss that the
// caller scores as wrong.
//
// # Preparation
//
//  1. <think>…</think> (and <thinking>…</thinking>) blocks are removed, so
//     letters weighed during reasoning never count. A block left open (the
//     reply was cut off while thinking) is removed to the end; an orphan
//     closing tag drops everything before it. A reply that is blank after this
//     is a miss with Method "empty".
//  2. The text is NFKC-normalised (full-width "Ａ", "：", "（Ｂ）" become
//     ASCII), curly quotes become straight ones, line ends are unified, and
//     zero-width spaces, word joiners and BOMs are dropped (chat templates
//     leave them between "Answer:" and the letter).
//
// # Long replies
//
// A reply longer than 64 KiB once its reasoning is dropped (a model that
// ran away; replies are capped at 4 MiB) is read in two windows, its first
// 16 KiB and its last 48 KiB, cut at line ends, as if the middle were not
// there: the last line is still the last line, a final answer is still
// found, and so is one the reply opened with, but a cue only in the middle
// is not read. Blank space at either end does not count towards the 64
// KiB. Every reply up to 64 KiB is read whole, as before the windows (see
// window in prepare.go for why the sizes are safe). With the windows and
// the patterns run only on text holding their words (prefilter.go), a 4
// MiB reply takes milliseconds, where the patterns over the whole text
// took seconds:
//
//	go test -run '^$' -bench 'Extract' ./eval/extract/
//
// # Rule order
//
// Each scope — first the last non-blank line, then the whole reply — is
// tried with groups 1 to 3 in order; the first group that matches in a scope
// decides, and within a group the match that ends last in the text wins ("The
// answer is A. Wait, actually it is B." gives B). Only when no group matches
// in either scope is option text tried, again last line before whole reply.
// Scopes outside, groups inside is how the public SuperGPQA extractor, which
// Encyclo-K's description matches, loops; it lets a final "B" on the last line
// override an "answer is A" earlier in the reasoning. Group 3 is kept strict
// for that reason: a letter in ordinary prose on the last line never counts.
//
//  1. Standard forms (Encyclo-K group 1):
//     - "answer-is": "The answer is: A", "the correct answer is (B)", "The
//     correct options are C and D", "答案是B", "正确选项为A、C", "故选C".
//     The noun "answer" may stand alone; "option", "choice", "statement" and
//     "one" need an adjective ("correct options are") so that a restatement
//     like "The options are: A) …" does not match. Lower-case letters count
//     here ("the answer is b"). Fillers may stand before the letter ("the
//     answer is for sure D", "most likely C"). The same phrase in other
//     languages counts, as lm-evaluation-harness's mmlu_prox prompts and
//     OpenCompass's PMMEval ask for it: "La réponse est C", "Die Antwort ist
//     (D)", "La respuesta es B", "A resposta é", "La risposta è", "Câu trả
//     lời là", "Jawabannya adalah", "Jibu ni", "Odpověď je", "Ответ - C",
//     "الإجابة هي", "उत्तर है", "উত্তর হল", "คำตอบคือ", "答えは (D) です",
//     "답은 (A)입니다"; and in Chinese "答案选项为C", "所以答D", "说法错误的是D"
//     (the question asked for the wrong statement).
//     - "is-correct": a letter list followed by "is/are (the) correct …",
//     "is the answer" or "is the best choice" ("Options A and C are
//     correct"). With multi, "A is correct. C is also correct." gives AC:
//     "also" adds to the previous verdict instead of replacing it. In
//     Chinese: "B是正确的", "选项C正确", "只有选项A是对的", "A和C都正确"; "A不正确"
//     does not match.
//     - "boxed": \boxed{C}, \fbox{C}, also inside $…$.
//     - "weak-cue": "it is B.", "I think (B).", "I'd go with C.", "so, C.",
//     "Therefore, A and C.", "因此A。", "显然B". These need upper-case letters
//     that end their clause (end of line, . ! ? ; , : or "because"; not a
//     Chinese character, so "因此A选项不对" does not count), so that "it is A
//     good idea" does not count.
//     A cue preceded within three words by "if", "whether", "suppose",
//     "not", "wrong", "incorrect", … is skipped ("Let me check whether the
//     answer is A"); so is a Chinese cue after 不/非/没, and a letter list
//     right after a negating label ("Eliminated: (A), (C)").
//  2. Simplified forms (group 2), "answer-colon": "Answer: A", "ANSWER: (C)",
//     "**Answer:** B", "Final answer: A, C", "Correct option: D", "答案：B",
//     the JSON key {"answer": "C"}, and the labels of simple-evals'
//     multilingual MMLU: "Réponse : C", "Respuesta:", "Antwort:",
//     "Risposta:", "Resposta:", "Jawaban:", "Jibu:", "Ìdáhùn:", "Відповідь:",
//     "Đáp án:", "答：", "答え：", "回答：", "정답:", "답변:", "उत्तर:",
//     "উত্তর:", "الإجابة:". Lower-case letters count.
//  3. Isolated letters (group 3):
//     - a line that holds nothing but a letter list: "D", "(B).", "A, C",
//     "(A)(C)", "A and C", "AC", "**C**" ("markdown" when bold, else
//     "isolated"), also after a bare colon (": B", what is left when the
//     prompt ended in "Answer") or with 选项 ("B选项"); with multi,
//     consecutive such lines are merged ("- A" / "- C" gives AC);
//     - a letter list that ends its sentence and whose every letter is
//     bracketed, bold or "option"-prefixed: "My pick is **C**.", "… so
//     option B." ("markdown" or "isolated"); "rules out (B)." and other
//     negated mentions are skipped;
//     - "leading" (whole-reply scope only): the first line starts with a
//     letter label, "B. Llama1 is designed …", "(C) …", "A, C: …", "B。…", or
//     a letter and a capitalised word, "C Cecile" (not "A" or "I": "A Peter
//     …" reads as prose), as short base-model replies do. Skipped when other
//     lines also start with option labels, because then the reply is walking
//     through the options.
//  4. "option-text": the reply quotes an option's text (compared after
//     lower-casing and collapsing punctuation, bounded by non-word
//     characters). Text contained in a longer quoted option does not count.
//     Single-answer: the option quoted last; multi: every option quoted. A
//     reply that quotes every option is an echo of the question and counts as
//     no match.
//  5. "miss" (or "empty", see above): Letters is "" and Miss is true.
//
// # What counts as a letter
//
// A letter is one of the valid option letters standing alone as a word: "A
// model is …", "Plan B's", "A-based", "A.I." and "vitamin C is" never count,
// and after a cue a bare letter must be followed by punctuation, the end of
// the line, a connecting word ("because", "and", "is", …) or, except for "A"
// and "I", a capitalised word. Letters wrapped in (), [], **, $, quotes or
// \boxed{} are unambiguous and need no such check. After an upper-case
// letter, connectives of the cue languages count too ("C non A", "B und D").
// The Arabic and Bengali letters that translated MMLU labels options with
// (أ ب ج د, অ ব ড ঢ) count as A–D when they stand alone, as simple-evals
// maps them. Letters outside the valid
// set are ignored: "Answer: E" on an A–D question is a miss, "C, E" gives C.
// A run of several valid letters ("AC", "ACD") counts as a multi-letter
// answer when multi is set or the run is alone on its line, provided its
// letters are in alphabetical order without repeats (answers are written
// "ACD"; "BAD", "ADD" and "CAB" are words) and it is not an option's text (an
// option may be the acronym "DC").
//
// A single-answer reply that names several letters ("A or B") keeps them
// all, so strict scoring marks the hedge wrong rather than the extractor
// picking one.
//
// # Along the reasoning
//
// Along reads every answer a reasoning text commits to, in order, with
// the cues above (groups 1 and 2, and lines holding only letters), where
// Extract keeps only the last: a run follows a reply's changes of mind
// with it, to find harmful verification (ElaipBench §4.3). It reads
// <think> blocks rather than dropping them, takes no windows, and skips
// cues Extract would accept that a reasoning text only weighs: hedged
// ("maybe the answer is B") or asked ("is it B?"). Its documentation
// lists the rules.
//
// # Versions
//
// Version names these rules; a run records it with every answer it
// extracts, and Extractor carries rules and version together so that a
// scorer can be given other rules. Every change that can change a Result
// bumps Version (version.go says when; a golden-file pin enforces it).
//
// # Against the field
//
// field_test.go holds reply shapes from the answer-extraction tests and
// regexes of lm-evaluation-harness, Inspect AI, OpenCompass, lighteval and
// simple-evals, each citing its file and commit, with the answer the reply
// commits to (which is not always what that harness extracts).
// TestFieldAgreement requires 95% agreement and logs each disagreement:
//
//	go test ./eval/extract -run Field -v
package extract
