// Package export writes run folders in the formats other tools read
// (paperlens export RUN... --format csv|parquet|jsonl|trec|qrels
// [--out FILE]; fixed names).
//
//   - csv and parquet: one row per record, that is per question × mode ×
//     run of each folder (Row: the run folder, question id and type,
//     paper, mode, run, model, paradigm, extracted and gold answers,
//     correct, the judge or ROUGE-L score of a short answer, error, the
//     server's token counts, cost at the run's --price and latency).
//     Parquet's score and cost_usd columns are optional (null without
//     one); CSV leaves their cells empty.
//   - jsonl: the same rows (Line), each with the question, its options,
//     its gold evidence, the passages of its prompt with their ids,
//     ranks, scores and texts, and the reply and reasoning; and the same
//     again under RAGAS's names: user_input, retrieved_contexts,
//     response, reference (the gold answer) and reference_contexts (the
//     gold evidence's excerpts). Older RAGAS and ARES-style tools call
//     them question, contexts, answer and ground_truth(s): map them when
//     loading.
//   - trec: each question's retrieved passages as a TREC run file ("qid
//     Q0 passage_id rank score tag", package retrieve/trec). A file holds
//     one run, the retrieval of one mode in one folder, tagged with the
//     mode (FOLDER/MODE with several folders); Write refuses more than
//     one (keep one with Options.Modes), WriteFiles writes one file per
//     run. The scores are the retriever's, lowered by the least step
//     where they tie (trec.WriteRun), so that trec_eval ranks as
//     paperlens did.
//   - qrels: each question's gold passages ("qid 0 passage_id rel"):
//     every passage of its paper, rel 1 when it holds gold evidence by
//     eval retrieval's rule and threshold (Options.Evidence), 0
//     otherwise (retrieval.Qrels).
//
// # Scoring an export with trec_eval
//
// For a run folder of mode bm25 at k passages, `trec_eval -c -m
// recall.1,3,5 -m success.1,3,5 -m recip_rank qrels run` gives what
// paperlens eval retrieval reports for retriever bm25 with the same
// query form and passages: recall_k is passage_recall@k (the share of
// the question's gold passages in its top k), success_k is hit@k and
// recip_rank is mrr, each averaged over the questions with locatable
// gold evidence. eval retrieval's recall@k, the share of gold words the
// top k cover together, has no per-passage form and so no TREC
// equivalent. -c counts a question without a line in the run (its
// retrieval failed) as retrieving nothing, as eval retrieval does.
//
// # Where the parts come from
//
// A run folder keeps each record's answers, tokens and the ids, ranks
// and scores of its passages, but not the question's text, options or
// gold evidence, nor the passages' texts. jsonl and qrels read the
// questions from the dataset config.json names (data; a note is logged
// when its SHA-256 differs from the run's) and the passages from the
// corpus of config.json's home; a question the dataset no longer holds,
// a passage the corpus no longer has, or a paper now cut at another
// passage size than the run's is an error naming it. Both paths are found
// as report finds them: as recorded, else next to a moved run folder, or
// where Options.Data and Options.Home (--data, --home) say. A web mode's
// pages are listed by URL without text: the folder does not keep it.
package export
