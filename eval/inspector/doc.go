// Package inspector is the read-only web UI behind 'paperlens serve': it
// shows, per question, what every mode was given and why it scored as it
// did, the way Inspect AI's log viewer reads its sample logs.
//
// A Site is loaded from run folders (config.json and results.jsonl, as
// 'paperlens eval' writes them); question texts come from the dataset the
// run's config names (or Options.Data), passages from the corpus home it
// names (or Options.Home), both found from any directory as
// run.ReadFolder finds them. A run with records missing (still going, or
// stopped before its summary.json) is summarised from its records and
// marked incomplete with the records present and expected. Pages are html/template over embedded templates and one
// embedded stylesheet: nothing is fetched from the network and no script
// runs, and the Content-Security-Policy header forbids scripts outright, so
// paper, question, web and model text can only ever render as text.
//
// The index shows each run's summary per mode, with replies cut by the
// token limit, the server's tokens per question and the cost when the run
// was priced. The question list filters on flips: by default a retrieval
// mode against full in the same run (flipped=lost, gained or either); with
// vs=K, each mode against the same mode in run K, offered when K is a
// paired run (same model and data, another paradigm: base against
// reasoning). Right is a majority of the scored runs, as in the summary's
// McNemar counts. The question page shows per mode the finish reason, a
// truncated reply, and the server's prompt, cached, completion and
// reasoning tokens.
//
// The question page lays the modes out in a grid that wraps, so any
// number of modes fits the window; a chooser of plain links (?mode=a,b)
// puts the chosen ones side by side. Nothing sets a page's width: an id,
// URL or model output with no place to break wraps inside its own box.
// Accuracy, evidence recall and miss rate are percentages with one
// decimal on every page, as in the summary table; a passage shows a
// score only when its retriever ranked it by one (search_paper's do not).
//
// Every page is addressed by run number and by ids present in that run:
// requests never name files, and any path with a dot-dot segment, raw or
// percent-encoded, is a 404. The gold evidence highlighted in passages is
// what matched it (evidence.Gold.Spans: the same n-gram coverage that
// scores evidence recall), not a literal search.
package inspector
