package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/inspector"
)

func newServeCmd(g *globalOptions) *cobra.Command {
	var addr, data string
	cmd := &cobra.Command{
		Use:     "serve [--home DIR] [--data FILE] [--addr 127.0.0.1:7575] RUN_DIR...",
		Short:   "Browse runs in a read-only web inspector: per question, every mode side by side",
		Long:    helpText("serve"),
		Example: helpText("serve.example"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt := inspector.Options{Log: g.errOut, Data: data}
			if cmd.Flags().Changed("home") {
				opt.Home = g.homeDir()
			}
			return runServe(cmd.Context(), g, addr, opt, args)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "the runs' dataset, when config.json's path no longer finds it")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:7575", "address to listen on (127.0.0.1 keeps it to this machine; port 0 picks a free one)")
	return cmd
}

// runServe serves the runs read-only at addr until ctx ends.
func runServe(ctx context.Context, g *globalOptions, addr string, opt inspector.Options, args []string) error {
	site, err := inspector.Load(args, opt)
	if err != nil {
		return err
	}
	return site.ListenAndServe(ctx, addr, g.stdout, g.errOut)
}
