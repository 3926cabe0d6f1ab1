// Package report turns one or more run folders (config.json, results.jsonl,
// summary.json, summary.md as written by eval/run) into a comparison report.
//
// Load reads the folders; HTML writes one self-contained HTML file (inline
// CSS, charts as inline SVG generated here, no external URLs or scripts) and
// Markdown writes the same tables as Markdown (the charts' data as tables).
// Both contain:
//
//  1. a Table-2-style accuracy table: model × mode rows, one column per
//     question type plus overall (mean ± std over runs), n, miss rate %,
//     evidence recall %, replies truncated by the token limit, the server's
//     tokens per question (prompt · completion (reasoning)) and, when the
//     run was given --price, its cost in US$; for composed questions
//     (eval/compose) also accuracy by number of statements and by number
//     of options, from the summaries' by_breakdown (compose.go);
//  2. the RAG effect per model: each mode's accuracy difference against the
//     baseline with its 95% bootstrap interval (chart like ElaipBench
//     Figure 6) and McNemar p;
//  3. accuracy against mean prompt tokens per question, one labelled point
//     per (run, mode) on a log axis: the server-reported count
//     (tokens.prompt / records) where there is one, else the prompt size
//     paperlens assembled (cl100k); the axis label says which, and when
//     both occur the assembled points are hollow;
//  4. evidence recall against accuracy for retrieval modes;
//  5. accuracy by reasoning length (characters of Reasoning, fixed buckets
//     0–1k, 1–2k, 2–4k, 4–8k, 8k+; like ElaipBench Figure 4), leaving out
//     the offline baselines random and ir, which do not reason (ir keeps
//     its option scores in the reasoning field);
//  6. mean reasoning length (server tokens, characters) per breakdown value,
//     e.g. by difficulty, from summary.json's reasoning_by;
//  7. reasoning flips: for every reasoning run beside a base or cot run of
//     the same model on the same data (config.json's model and data), per
//     mode the questions right without reasoning and wrong with it, and the
//     reverse, by per-question majority correctness over runs (the rule of
//     the summary's McNemar counts and the inspector's flipped filter); the
//     right→wrong ids are listed, at most 30 per mode;
//  8. miss rate per model and mode;
//  9. the accuracy–cost frontier, per model: accuracy with its 95% Wilson
//     interval against mean prompt tokens per question (log scale), and
//     against mean cost per question when the run had --price, one point
//     per (run, mode) labelled by the mode and the config.json settings
//     that differ between the model's runs (k, passage size, query form,
//     order, expand, rerank, …). The Pareto frontier (no other point has ≥
//     accuracy for ≤ tokens, one strictly) is joined by a step line; oracle
//     is drawn but kept off it. A sentence names the cheapest configuration
//     within full's 95% interval: by the paired bootstrap interval of the
//     difference from full where the two can be paired question by
//     question (section 2's interval), else by full's Wilson interval.
//     FrontierSVG writes these figures alone as a standalone SVG file;
//  10. tool calls per question in the tool modes;
//  11. with WriteOptions.Published (paperlens report --paper-table), the
//     published numbers: each run beside the row of the papers' tables
//     (package eval/published) naming its model on its bench, under its
//     paradigm for ElaipBench, column by column where the run has the
//     breakdown (question type, difficulty, discipline, domain): the
//     published value, the measured accuracy with its 95% Wilson interval
//     over the run's questions, and whether the interval covers the
//     published value. ComparePublished computes it, PaperMarkdown writes
//     it alone.
//
// A run folder without summary.json (eval killed before the end) is
// summarised from its records; the runs table gives records present and
// expected, and a note under it marks the run incomplete. run.ReadFolder finds
// the dataset and corpus home config.json names from any directory (see
// its doc); the inspector and 'paperlens inspect' use it too.
//
// Accuracy, evidence recall and miss rate are percentages with one decimal
// throughout, the unit in the column heading ("miss rate %"), as in the
// inspector.
//
// The figures are laid out before a browser sees them (layout.go): text
// is measured from a table of glyph widths (the wider of DejaVu Sans and
// Arial's metrics); point labels are placed greedily in a fixed order of
// candidate places beside the point, then further out on leader lines,
// never over another label or marker, and listed under the figure when no
// place is left; points drawn at one spot share one label ("bm25 = hybrid
// = agent"); each run has its own marker shape as well as colour, and
// runs with equal values are drawn side by side; legends widen to their
// longest name (wrapping past a limit) and category labels stand upright
// when they would not fit side by side. TestFiguresInBrowser renders the
// sample study's report (what the README tour gives) and a crowded one in
// Chromium and checks that no two texts of a figure intersect and none
// leaves its figure; with $PAPERLENS_SCREENSHOTS set it also writes
// docs/img/report.png.
//
// Every string taken from the files is escaped: html/template for HTML, and
// pipes and angle brackets for Markdown.
package report
