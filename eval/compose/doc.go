// Package compose writes new benchmarks in the form of Encyclo-K
// ("Evaluating LLMs with Dynamically Composed Knowledge Statements"):
// questions that list numbered statements and ask which are correct (or
// incorrect), each option a combination of statements, drawn afresh from
// a seed (paperlens compose, eval --compose; fixed names).
//
// The statements come from a benchmark whose options have known truth
// (ElaipBench, or paperlens JSONL, loaded by eval/bench): every option of
// every multiple-choice question is a statement, true when its letter is
// in the answer (Banks). An option answers its question's stem and is
// true or false only with it, so the stem stays with it as its context:
// the question lists it as
//
//	I. In answer to "<stem>": <option>
//
// Encyclo-K's statements come from textbooks and are true, or rewritten to
// be false (§3.1.1–3.1.2); here the benchmark's answer key decides, so a
// composed question is as right as its source. Its pieces map to the
// paper as follows:
//
//   - the shape (§3.1.3, §4.1): Spec.Statements per question (8-10),
//     Spec.Options per question (4-8) and Spec.PerOption statements in
//     each option (2-4), each drawn uniformly in its range;
//   - the wording (appendix A.3): QuestionTemplates, its 13 question
//     templates, one drawn per question, its {accuracy} a word drawn from
//     AccuracyWords' correct or incorrect list (Spec.Accuracy: correct,
//     incorrect, or mixed to draw one per question); statements numbered
//     with upper-case Roman numerals (I., II., …, as A.3's example; §4.1's
//     text says lower case), then "Options:" and the options A, B, …,
//     each its statements' numerals in ascending order ("I, II, VIII").
//     A.3's instruction line ("Answer the following multiple choice
//     question. ... end your response with 'Answer: $LETTER'") is not
//     part of the question: eval's prompt templates give every
//     benchmark's instruction, and its extractor reads "Answer: X";
//   - the answer: exactly one option whose statements all have the asked
//     truth (all true for correct, all false for incorrect). It is built
//     so: the key's statements have that truth, and every other option
//     holds a statement of the other truth; and it is checked on each
//     draw (Composition.Keys), which is redone when it fails;
//   - the allocation (§4.1, discipline-proportional): each paper, as a
//     discipline there, gets questions in proportion to its statements,
//     by largest remainder so that Spec.Questions is the total exactly
//     (the paper rounds each share up);
//   - the seed (§5.2, dynamic evaluation): every draw comes from one
//     SplitMix64 stream seeded with Spec.Seed, written out here so that a
//     seed gives the same file on any Go release.
//
// Every question's statements come from one paper, which stays its
// paper_id, so every eval mode (closed-book, full, retrieval, oracle)
// applies. Each statement carries its source question's gold evidence;
// the question's evidence is their union (one excerpt a line), so
// evidence recall and the oracle mode work, and Used.Evidence says which
// lines came from which statement. A paper too small for the shape (fewer
// statements than a question needs, or too few true or false ones for the
// key) is left out with a Skip saying what it lacks.
//
// Set.WriteJSONL writes paperlens JSONL (eval --bench jsonl): the options
// inline in the question, a breakdown of "statements" and "options" (the
// summaries and reports give accuracy by each) and the Composition under
// "compose", which the loader ignores. ForRuns composes eval --compose's
// questions, a fresh set per run (run r: Spec.ForRun(r), seed Seed + r),
// each marked with its run (bench.Question.Run).
package compose
