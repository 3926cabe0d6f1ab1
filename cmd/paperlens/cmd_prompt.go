package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/run"
)

// promptOptions are the flags of prompt.
type promptOptions struct {
	mode   string
	run    int
	asJSON bool
}

func newPromptCmd(g *globalOptions) *cobra.Command {
	var o promptOptions
	cmd := &cobra.Command{
		Use:     "prompt RUN_DIR QUESTION_ID [--mode M] [--run N]",
		Short:   "Show the exact messages a question was sent (runs made with --log-prompts)",
		Long:    helpText("prompt"),
		Example: helpText("prompt.example"),
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPrompt(g, o, args)
		},
	}
	cmd.Flags().StringVar(&o.mode, "mode", "", "the mode (default: the first recorded)")
	cmd.Flags().IntVar(&o.run, "run", 0, "the run (default: the first recorded)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, `print {"question_id","mode","run","messages"}`)
	return cmd
}

// runPrompt prints the messages question id was sent, as logged.
func runPrompt(g *globalOptions, o promptOptions, args []string) error {
	id := args[1]
	r, msgs, err := run.Dir(args[0]).FindPrompt(id, o.mode, o.run)
	if err != nil {
		return err
	}
	if o.asJSON {
		return json.NewEncoder(g.stdout).Encode(map[string]any{"question_id": id, "mode": r.Mode, "run": r.Run, "messages": msgs})
	}
	fmt.Fprintf(g.out, "# %s, mode %s, run %d (prompt %.12s…)\n", id, r.Mode, r.Run, r.PromptSHA256)
	for _, m := range msgs {
		fmt.Fprintf(g.out, "\n## %s\n\n%s\n", m.Role, m.Content)
	}
	return nil
}
