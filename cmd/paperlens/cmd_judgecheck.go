package main

import (
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/spf13/cobra"
)

func newJudgeCheckCmd(g *globalOptions) *cobra.Command {
	var f cliflags.JudgeCheck
	cmd := &cobra.Command{Use: "judge-check FILE | --lpfqa RUN", Short: "Check an LLM judge against LFQA-E's expert labels (A, B or tie), beside the length and ROUGE-L baselines",
		Long: helpText("judge-check"), Example: helpText("judge-check.example"), Args: cobra.MaximumNArgs(1), RunE: func(cmd *cobra.Command, args []string) error {
			failed, err := f.Run(cmd.Context(), args, g.invocation(), cmd.Flags().Changed, g.stdout, g.out)
			if failed > 0 {
				return &exitError{code: 1, msg: err.Error()}
			}
			return err
		}}
	f.Add(cmd.Flags())
	return cmd
}
