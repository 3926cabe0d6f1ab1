package inspector

import (
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/run"
)

// The run's page shows its Protocol block: each setting that departs from
// the paper, with why, open when there is any.
func TestProtocolBlock(t *testing.T) {
	// (The fixture is a base run of the jsonl format, stated against
	// ElaipBench's table.)
	srv, _ := serve(t, run.Config{SharePrompts: true, FlagsSet: []string{"share-identical-prompts"}})
	_, body, _ := get(t, srv, "/r/1/")
	for _, want := range []string{`<details class="protocol" open>`, "cache_sharing: identical here, per mode in the paper (--share-identical-prompts given)"} {
		if !strings.Contains(body, want) {
			t.Errorf("run page lacks %q", want)
		}
	}
}
