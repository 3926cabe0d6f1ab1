// Package report turns one or more run folders (config.json, results.jsonl,
// summary.json, summary.md as written by eval/run) into a comparison report.
//
// Load reads the folders; HTML writes one self-contained HTML file (inline
// CSS, charts as inline SVG generated here, no external URLs or scripts) and
// Markdown writes the same tables as Markdown. Both contain:
//
//  1. a Table-2-style accuracy table: model × mode rows, one column per
//     question type plus overall (mean ± std over runs), n and miss rate;
//  2. the RAG effect per model: each mode's accuracy difference against the
//     baseline with its 95% bootstrap interval (chart like ElaipBench
//     Figure 6) and McNemar p;
//  3. evidence recall against accuracy for retrieval modes;
//  4. accuracy by reasoning length (characters of Reasoning, fixed buckets
//     0–1k, 1–2k, 2–4k, 4–8k, 8k+; like ElaipBench Figure 4);
//  5. miss rate per model and mode.
//
// Every string taken from the files is escaped: html/template for HTML, and
// pipes and angle brackets for Markdown.
package report
