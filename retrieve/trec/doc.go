// Package trec reads and writes the two files of TREC-style retrieval
// evaluation, as trec_eval, pyserini and ir_measures read them:
//
//   - a run file, one line per retrieved passage:
//     "qid Q0 docid rank score tag" (question id, the literal Q0,
//     passage id, rank from 1, the retriever's score, the run's tag);
//   - a qrels file, one line per judged passage: "qid 0 docid rel"
//     (rel 1: the passage holds gold evidence; 0: judged, and does not).
//
// In paperlens a qid is a question id (question_id in the records) and a
// docid a passage id ("PAPER#ORDINAL", passage_id in the records, the
// corpus's). Columns are separated by white space, so ids holding any are
// refused when written.
//
// trec_eval ranks a question's lines by score, not by the rank column
// (ties broken by docid, descending), and scores one run per file.
// WriteRun therefore writes scores that strictly fall with the rank (see
// its doc for the one adjustment it makes), and ParseRun refuses a file
// whose scores rise with the rank or that mixes tags, naming the line.
//
// Retriever serves a run file as the retriever of the evaluation mode
// run:NAME (eval --retrieved NAME=FILE): the passages come from the file
// instead of an index, checked against the corpus when opened.
package trec
