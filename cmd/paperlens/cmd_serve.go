package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/inspector"
)

// serveOptions are the flags of serve.
type serveOptions struct {
	addr string
	site inspector.Options
}

func newServeCmd(g *globalOptions) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:     "serve [--home DIR] [--data FILE] [--addr 127.0.0.1:7386] RUN_DIR...",
		Short:   "Browse runs in a read-only web inspector: per question, every mode side by side",
		Long:    helpText("serve"),
		Example: helpText("serve.example"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(cmd.Context(), g, o, args)
		},
	}
	cmd.Flags().StringVar(&o.site.Data, "data", "", "the runs' dataset, when config.json's path no longer finds it")
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:7386", "address to listen on (127.0.0.1 keeps it to this machine; port 0 picks a free one)")
	return cmd
}

// runServe serves the runs read-only at the address until ctx ends.
func runServe(ctx context.Context, g *globalOptions, o serveOptions, args []string) error {
	o.site.Log = g.errOut
	o.site.Home = g.home // --home given: the corpus is there now
	site, err := inspector.Load(args, o.site)
	if err != nil {
		return err
	}
	return site.ListenAndServe(ctx, o.addr, g.stdout, g.errOut)
}
