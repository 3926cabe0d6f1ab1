package main

import (
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/internal/measure/scale"
)

func newMeasureScaleCmd(g *globalOptions) *cobra.Command {
	var o measureOptions[scale.Options]
	cmd := &cobra.Command{Use: "scale", Short: "Index build memory and CPU, search start and latency at 10k to 1M passages, against Xapian",
		Long: helpText("measure-scale"), Example: helpText("measure-scale.example"), Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMeasureScale(cmd, g, o) }}
	o.opt.AddFlags(cmd.Flags())
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the figures as one JSON object")
	return cmd
}

// runMeasureScale measures this program (or --paperlens) at each size.
func runMeasureScale(cmd *cobra.Command, g *globalOptions, o measureOptions[scale.Options]) error {
	o.opt.Progress = g.errOut
	r, err := scale.Run(cmd.Context(), o.opt)
	if err != nil {
		return err
	}
	return printReport(g.stdout, o.asJSON, r)
}
