package cliflags

import "github.com/spf13/pflag"

// labelsFile says what --labels's FILE holds.
const labelsFile = "a file of labels joined to the questions (CSV with a header, TSV, or JSON Lines): each row names its question by question_id, question_sha256 (SHA-256 of its text, NFKC-normalised, lower-cased, white space collapsed) or question (the text), and every other column is a breakdown field such as difficulty or discipline"

// AddLabels declares eval's --labels FILE (fixed name): the labels go into
// each question's breakdown, and so into the records, the summary's
// accuracy and reasoning length by breakdown, and the report's Table 2
// columns. A row that matches no question is reported with its line.
func (f *Eval) AddLabels(fl *pflag.FlagSet) {
	fl.StringVar(&f.Config.Labels, "labels", "", labelsFile+"; a row that matches no question is reported with its line number")
}

// AddReportLabels declares report's --labels FILE (fixed name) into
// *path: the labels are joined to every run's records by question (the
// text hash needs the run's dataset), over the labels the runs were made
// with, and the runs are summarised again.
func AddReportLabels(fl *pflag.FlagSet, path *string) {
	fl.StringVar(path, "labels", "", labelsFile+", joined to every run's records over the labels it was made with; a row that matches no question of any run is reported with its line number")
}
