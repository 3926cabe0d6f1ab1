// Package inspector is the read-only web UI behind 'paperlens serve': it
// shows, per question, what every mode was given and why it scored as it
// did, the way Inspect AI's log viewer reads its sample logs.
//
// A Site is loaded from run folders (config.json and results.jsonl, as
// 'paperlens eval' writes them); question texts come from the dataset the
// run's config names, passages from the corpus home it names (or
// Options.Home). Pages are html/template over embedded templates and one
// embedded stylesheet: nothing is fetched from the network and no script
// runs, and the Content-Security-Policy header forbids scripts outright, so
// paper, question, web and model text can only ever render as text.
//
// Every page is addressed by run number and by ids present in that run:
// requests never name files, and any path with a dot-dot segment, raw or
// percent-encoded, is a 404. The gold evidence highlighted in passages is
// what matched it (evidence.Gold.Spans: the same n-gram coverage that
// scores evidence recall), not a literal search.
package inspector
