// Package prompts renders the prompts paperlens sends to models, from
// text/template files rather than Go strings, so that the wording can be
// read, diffed against the papers and changed without a rebuild.
//
// The built-in templates live in templates/*.tmpl and are embedded in the
// binary; templates/README.md says where each one's wording comes from
// (ElaipBench, arXiv 2510.10549; LPFQA, arXiv 2511.06346) and what was
// chosen where the papers are silent. Load(dir) takes a directory (the
// --prompt-dir flag) whose NAME.tmpl files replace the built-ins of the
// same name; every template is tried on sample data at load time, so a
// typo fails the run before its first question, naming the file.
//
// There are four kinds of template, each rendered with its own data type:
//
//   - mcq_base, mcq_cot, mcq_reasoning (the ElaipBench paradigms) and
//     lpfqa_answer: MCQData. Context holds a rendered context block, or ""
//     for closed-book.
//   - context_full, context_rag, context_full_rag, context_web,
//     context_full_web, context_oracle: ContextData.
//   - lpfqa_judge: JudgeData. RenderJudge prefers a dataset row's own judge
//     template when it has one.
//   - lfqae_judge (paperlens judge-check): PairData.
//
// A question's prompt is thus rendered in two steps: its context block, then
// the question template with that block as Context. Templates may use the
// functions add, trim and letters (see README.md).
package prompts
