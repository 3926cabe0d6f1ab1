// Package judgecheck measures how far an LLM judge agrees with experts
// (paperlens judge-check), in the setting of LFQA-E (Fan et al., ICLR
// 2026, arXiv 2410.01945): a question, an expert reference answer and two
// long answers, which experts judged three ways, A better, B better or a
// tie, on factuality and completeness against the reference.
//
// ReadFile reads LFQA-E's comparisons (a JSON array or JSONL). Run sends
// each to the judge with the prompt lfqae_judge (eval/prompts), whose reply
// ends with a line "Verdict: A", "Verdict: B" or "Verdict: TIE"
// (ParseVerdict reads the last such line; a reply without one is an
// unparsed verdict, counted wrong and reported apart), and with the
// answers swapped, for position consistency. Every judgment is appended to
// the output folder's results.jsonl as it ends, so that a check stopped at
// any point resumes without losing one; summary.json holds the figures.
//
// The figures (Figures, Group) are LFQA-E's: accuracy, and macro-F1 over
// A, B and TIE, both computed as the authors' scoring script does (an
// unparsed verdict is wrong, and each of the three classes counts in the
// mean, one never labelled nor predicted as 0); the accuracy on the
// comparisons labelled same (tie accuracy); each overall, by compare_type
// and by topic (type) when the rows have one. Beside them: position
// consistency (Consistency), Cohen's κ with another judge's folder
// (Agreement, Kappa), and two static baselines computed with no model
// (StaticOf): the longer answer wins, and the answer with the higher
// ROUGE-L against the reference wins, equal values being a tie. Both count
// the tokens of eval/stats, each Han character a token of its own: LFQA-E
// does not say how it tokenised Chinese for ROUGE, and character-level
// ROUGE is the usual choice for Chinese.
//
// LPFQA reads an LPFQA eval run made with a judge and compares the
// judge's verdicts on its multiple-choice rows with the letters
// eval/extract reads from the same replies.
//
// The judge's client is built by the composition root (session.JudgeCheck),
// as eval builds its judge: this package takes a model.Chat.
package judgecheck
