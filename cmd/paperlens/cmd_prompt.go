package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/run"
)

func newPromptCmd(g *globalOptions) *cobra.Command {
	var mode string
	var runN int
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "prompt RUN_DIR QUESTION_ID [--mode M] [--run N]",
		Short:   "Show the exact messages a question was sent (runs made with --log-prompts)",
		Long:    helpText("prompt"),
		Example: helpText("prompt.example"),
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPrompt(g, mode, runN, asJSON, args[0], args[1])
		},
	}
	cmd.Flags().StringVar(&mode, "mode", "", "the mode (default: the first recorded)")
	cmd.Flags().IntVar(&runN, "run", 0, "the run (default: the first recorded)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"question_id","mode","run","messages"}`)
	return cmd
}

// runPrompt prints the messages question id was sent, as logged.
func runPrompt(g *globalOptions, mode string, runN int, asJSON bool, dir, id string) error {
	r, msgs, err := run.Dir(dir).FindPrompt(id, mode, runN)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(g.stdout).Encode(map[string]any{"question_id": id, "mode": r.Mode, "run": r.Run, "messages": msgs})
	}
	fmt.Fprintf(g.out, "# %s, mode %s, run %d (prompt %.12s…)\n", id, r.Mode, r.Run, r.PromptSHA256)
	for _, m := range msgs {
		fmt.Fprintf(g.out, "\n## %s\n\n%s\n", m.Role, m.Content)
	}
	return nil
}
