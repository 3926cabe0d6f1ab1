// Package study runs the RAG study of the ElaipBench paper end to end, in
// process: it ingests the papers a benchmark needs, scores each retriever
// against the gold evidence (recall, hit, complete@k, MRR), evaluates each
// model in every mode, and writes the report as it goes.
//
// The command `paperlens study` is flag parsing plus one call to Run. What
// is specific to a command line (the index flags, the model endpoint, dry
// runs) comes in as functions of Config, so that a study can be driven and
// tested without a subprocess:
//
//	res, err := study.Run(ctx, study.Config{
//		Papers:    study.Papers{Home: home, Data: "bench.jsonl", Dir: "papers/"},
//		Bench:     "elaipbench",
//		Models:    []string{"gpt-4o-mini"},
//		OpenIndex: openIndex,
//		Evaluate:  evaluate,
//		Out:       os.Stdout,
//	}, questions)
package study
