package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
)

// papersOptions are the flags of papers.
type papersOptions struct{ asJSON bool }

func newPapersCmd(g *globalOptions) *cobra.Command {
	var o papersOptions
	cmd := &cobra.Command{
		Use:   "papers",
		Short: "List the documents stored under --home",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPapers(g, o)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON object per document")
	return cmd
}

// runPapers lists the stored documents, one JSON object a line with
// asJSON, else a table.
func runPapers(g *globalOptions, o papersOptions) error {
	st, err := session.OpenCorpus(g.homeDir())
	if err != nil {
		return err
	}
	defer st.Close()
	docs, err := st.Docs()
	if err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(g.stdout)
		for _, d := range docs {
			if err := enc.Encode(d); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(g.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PAPER_ID\tKIND\tPAGES\tTOKENS\tPASSAGES\tTITLE")
	for _, d := range docs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", d.PaperID, d.Kind, d.Pages, d.Tokens, d.Passages, truncate(d.Title, 70))
	}
	return tw.Flush()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
