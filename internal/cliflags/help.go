package cliflags

import (
	"path/filepath"
	"strings"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/eval/study"
)

// The defaults the help states, from the code that applies them: the
// flags' help here and the placeholders of the commands' help files
// (HelpVars) say the same.
var (
	evalModes  = strings.Join(run.DefaultModes("elaipbench"), ",")
	lpfqaModes = strings.Join(run.DefaultModes("lpfqa"), ",")
	evalOut    = session.DefaultFolder(run.Config{Bench: "<bench>", Model: "<model>", Paradigm: "<paradigm>"})
	studyModes = strings.Join(study.DefaultModes(), ",")
	studyOut   = study.Folder(study.DefaultOutRoot, "MODEL", "PARADIGM")
)

// HelpVars are the placeholders of the commands' help files with the
// values the code gives them, as old, new pairs (strings.NewReplacer):
// {{kinds}} the passage kinds, {{eval-modes}} and {{lpfqa-modes}} eval's
// default modes, {{eval-out}} its default run folder, {{study-modes}}
// the study's default modes, {{study-out}} a model's run folder and
// {{study-root}} the folder that holds them.
func HelpVars() []string {
	return []string{
		"{{kinds}}", kind.Names(kind.All),
		"{{eval-modes}}", evalModes,
		"{{lpfqa-modes}}", lpfqaModes,
		"{{eval-out}}", evalOut,
		"{{study-modes}}", studyModes,
		"{{study-out}}", studyOut,
		"{{study-root}}", study.DefaultOutRoot,
	}
}

// studyFolderIn is the study's run folder of a model under --out DIR, as
// its help writes it.
func studyFolderIn(dir string) string {
	return filepath.Join(dir, filepath.Base(studyOut))
}
