package cliflags_test

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/internal/cliflags"
)

// A command declares the shared index flags on its flag set and, once
// parsed, hands the library the settings with the invocation's
// environment.
func ExampleIndex() {
	var ix cliflags.Index
	fl := pflag.NewFlagSet("search", pflag.ContinueOnError)
	ix.Add(fl)
	if err := fl.Parse([]string{"--embedder", "openai", "--rrf-k", "30"}); err != nil {
		fmt.Println(err)
		return
	}
	spec := ix.Spec(map[string]string{"OPENAI_BASE_URL": "http://localhost:8080/v1"})
	fmt.Println(spec.Embedder, spec.EmbedModel, spec.RRFK, spec.Env["OPENAI_BASE_URL"])
	// Output: openai BAAI/bge-m3 30 http://localhost:8080/v1
}
