// Package published holds the results tables the ElaipBench and LPFQA
// papers print, as data, so a paperlens run can be set beside the number
// the paper reports for the same model and setting.
//
// The tables are transcribed from the papers into CSV files under data/
// (embedded in the binary): ElaipBench Table 2 (§4.2, accuracy per model
// and paradigm, full paper in context), LPFQA Table 2 (§4.1, accuracy per
// primary domain, no tools) and LPFQA Table 4 (§4.3, no tools against
// Jupyter code interpreter and search). Values are percentages as printed;
// LPFQA Table 4's Δ columns are the relative change the paper prints
// ("18.20%↓" is -18.20). A cell the paper prints as something other than a
// number (ElaipBench's human Hard "0.00/100.00*") is absent from
// Row.Values and explained in Row.Note.
//
// Each table says which paperlens bench it is about and, per column, which
// paperlens mode measures the same thing (Table.Modes): ElaipBench Table 2
// is the full mode (the paper in context), LPFQA Table 2 closed-book, and
// LPFQA Table 4's score columns closed-book, tool-python and tool-search.
// ElaipBench rows carry the paperlens --paradigm they were measured under:
// "Base Models" is base, "CoTs" cot (the " + CoT" dropped from the model
// name) and "LRMs" reasoning.
//
// Model names match leniently (Normalize): case, punctuation, spaces and a
// provider prefix ("openai/", "deepseek-ai/") are ignored, but the rest of
// the name must be equal, so "gpt-5" matches GPT-5 and never
// GPT-5-thinking-all. A few rows also carry aliases, the API names of the
// model the paper names differently (gpt-4o-2024-08-06 for GPT-4o-0806).
// Rows that are not a model (Human, All Models Avg, Average) are
// Reference rows: listed, never matched.
package published
