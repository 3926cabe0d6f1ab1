// Package study runs the RAG study of the ElaipBench paper end to end, in
// process: it ingests the papers a benchmark needs, scores each retriever
// against the gold evidence (recall, hit, complete@k, MRR), evaluates each
// model in every mode, and writes the report as it goes.
//
// The command `paperlens study` is flag parsing plus one call to Run. Each
// model's evaluation is an eval/session request, the same one `paperlens
// eval` makes, with the model's name and run folder filled in; the study
// calls eval/session itself for every evaluation, its retrieval table and
// its sweep, so that a study can be driven and tested without a
// subprocess:
//
//	res, err := study.Run(ctx, study.Config{
//		Eval: session.Request{Config: run.Config{Bench: "elaipbench", Data: "bench.jsonl",
//			Papers: "papers/", Home: home}},
//		Models: []string{"gpt-4o-mini"},
//		Out:    os.Stdout,
//	}, questions)
package study
