package tokens_test

import (
	"fmt"

	"github.com/paperlens/paperlens/chunk/tokens"
)

func ExampleCount() {
	fmt.Println(tokens.Count("ElaipBench segments each paper into 512-token passages."))
	// Output: 14
}

func ExampleHead() {
	fmt.Printf("%q\n", tokens.Head("Retrieved web pages are truncated to a token budget.", 5))
	// Output: "Retrieved web pages are"
}

func ExampleEncode() {
	ids := tokens.Encode("hello world")
	fmt.Println(ids, tokens.Decode(ids))
	// Output: [15339 1917] hello world
}
