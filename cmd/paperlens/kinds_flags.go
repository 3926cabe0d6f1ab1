package main

import (
	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/run"
)

// excludeKindsUsage is --exclude-kinds' help in every command that
// retrieves.
const excludeKindsUsage = "passage kinds retrieval leaves out, comma-separated (e.g. references,front-matter; kinds: see 'paperlens ingest --help'), or none; k passages of the other kinds are still returned"

// addExcludeKinds declares --exclude-kinds.
func addExcludeKinds(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "exclude-kinds", "", excludeKindsUsage)
}

// parseExcludeKinds reads --exclude-kinds, with errors that name the flag.
func parseExcludeKinds(list string) ([]kind.Kind, error) {
	canon, err := run.ParseExcludeKinds(list)
	if err != nil {
		return nil, err
	}
	return kind.Parse(canon)
}
