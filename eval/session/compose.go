package session

import (
	"github.com/paperlens/paperlens/eval/compose"
	"github.com/paperlens/paperlens/eval/run"
)

// composeRuns settles eval --compose in the config: the request's shape
// (or the recorded one of a rerun), its seed the run's --seed, and the
// seed of each run (run r: seed + r) listed for config.json.
// run.LoadQuestions then composes each run's questions.
func composeRuns(c *run.Config, asked *compose.Spec) {
	if asked != nil {
		c.Compose = asked
	}
	if c.Compose == nil {
		return
	}
	sp := *c.Compose
	sp.Defaults()
	sp.Seed = c.Seed
	sp = sp.WithRuns(c.Runs)
	c.Compose = &sp
}
