package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/ingest/corpus"
)

func newPapersCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "papers",
		Short: "List the documents stored under --home",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := corpus.Open(homeDir(cmd), true)
			if err != nil {
				return err
			}
			defer st.Close()
			docs, err := st.Docs()
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(os.Stdout)
				for _, d := range docs {
					if err := enc.Encode(d); err != nil {
						return err
					}
				}
				return nil
			}
			tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "PAPER_ID\tKIND\tPAGES\tTOKENS\tPASSAGES\tTITLE")
			for _, d := range docs {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", d.PaperID, d.Kind, d.Pages, d.Tokens, d.Passages, truncate(d.Title, 70))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per document")
	return cmd
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
