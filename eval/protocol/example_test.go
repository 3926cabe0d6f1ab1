package protocol_test

import (
	"fmt"

	"github.com/paperlens/paperlens/eval/protocol"
)

// A run at the paper's settings but for a temperature the server refused
// states that one departure, and why.
func Example() {
	t := protocol.For("elaipbench")
	fmt.Println("paper temperature:", *t.Float(protocol.Temperature, protocol.Reasoning), "max tokens:", t.Int(protocol.MaxTokens, protocol.Reasoning))
	rec := t.Compare(protocol.Reasoning, map[string]protocol.Observed{
		protocol.Temperature: {Value: protocol.None, Why: "the server refused temperature"},
		protocol.MaxTokens:   {Value: "4096"},
	})
	for _, c := range rec.Departures() {
		fmt.Printf("%s: %s here, %s in the paper (%s)\n", c.Name, c.Run, c.Paper, c.Why)
	}
	// Output:
	// paper temperature: 0.1 max tokens: 4096
	// temperature: none here, 0.1 in the paper (the server refused temperature)
}
