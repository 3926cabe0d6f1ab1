package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// The report states, per run, where it departs from its paper: from
// summary.json's protocol, or from config.json for an older folder; text
// from a run folder is escaped like the rest of the page.
func TestProtocolSection(t *testing.T) {
	cfg := run.Config{Bench: "elaipbench", Model: "m", Paradigm: "reasoning", Modes: []string{"full"}, PromptDir: "<script>x</script>"}
	cfg.Defaults(nil)
	cfg = cfg.WithDropped(run.Dropped{Param: "temperature", Why: "the server refused temperature"})
	p := run.Protocol(cfg)
	stated := run.Summary{Model: "m", Bench: "elaipbench", Runs: 1, Modes: []string{"full"}, Baseline: "full", Protocol: &p,
		ByMode: map[string]run.ModeStats{"full": {Acc: run.Acc{Accuracy: 0.5, N: 4}}}}
	old := stated
	old.Protocol = nil
	runs := []Run{{Dir: "a", Summary: stated}, {Dir: "b", Summary: old, Config: cfg}}
	var h, md bytes.Buffer
	if err := HTML(&h, runs); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h2>Protocol</h2>", "temperature: none here, 0.1 in the paper (the server refused temperature)", "&lt;script&gt;"} {
		if n := strings.Count(h.String(), want); n < 1 || want != "<h2>Protocol</h2>" && n != 2 {
			t.Errorf("HTML has %q %d times", want, n)
		}
	}
	if strings.Contains(h.String(), "<script>x") {
		t.Error("a prompt folder's name is not escaped")
	}
	if !strings.Contains(md.String(), "## Protocol") || strings.Count(md.String(), "temperature: none here") != 2 {
		t.Errorf("Markdown lacks the protocol of both runs:\n%s", md.String())
	}
}
