// Package session is paperlens's composition root: the one place where a
// run's config becomes running resources. It derives what the modes need
// (mode.NeedsOf), ingests the papers and opens the corpus and its index,
// builds the web search, the answer, judge and reranker clients (each
// through model.Stack), the preflight, takes the run folder's lock, names
// the default run folder and fills the provenance.
//
// The commands (eval, study, ask, eval retrieval, search, index) parse
// their flags into a Request and make one call here; eval/study calls the
// same functions for each model it evaluates. Nothing here knows a flag's
// name beyond the words of an error message that tells the user what to
// change: the command maps its flags to Request fields, and run.Overrides
// carries the request settings the user gave.
package session
