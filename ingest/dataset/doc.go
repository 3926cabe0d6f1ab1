// Package dataset reads benchmark data files (ElaipBench, LPFQA and the
// like) as generic rows, so that field names are configuration rather than
// code.
//
// Three formats are read, chosen by the file extension and, for JSON, by the
// first character:
//
//   - .jsonl / .ndjson: JSON Lines, one object per line, streamed with no
//     line-length limit (ElaipBench's elabench.jsonl repeats a whole paper on
//     every line). Row.Line is the 1-based line number; blank lines are
//     skipped.
//   - .json: an array of objects, or an object wrapping one (the single
//     array field, or the one named data/rows/records/examples/items/
//     questions/test/train). Row.Line is the 1-based element index in the
//     array, and messages also give the line where the element starts. A
//     .json file that is really JSON Lines is read as such.
//   - .parquet: every column of the file's own schema, via parquet-go.
//     Row.Line is the 1-based row number across row groups.
//
// JSON numbers are kept as json.Number, so long ids and exact decimals are
// not rounded through float64. String reads any scalar field as text.
//
// A malformed row never stops reading: Read and Papers pass it to a bad
// callback as a *RowError naming the file and row
// ("elabench.jsonl:17: invalid JSON: ...") and go on. The exceptions are
// errors after which the rest cannot be found: a syntax error inside a JSON
// array, and an unreadable parquet page.
//
// Papers extracts the distinct (id, content) pairs, e.g. ElaipBench's
// paper_id and paper_content, which repeat on every question of a paper
// (reportedly 403 rows over 137 papers). The first occurrence wins; a later
// row that gives the same id a different content is reported, as are rows
// missing either field (with the list of fields they do have).
package dataset
