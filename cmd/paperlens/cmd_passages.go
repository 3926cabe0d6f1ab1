package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/ingest/corpus"
)

func newPassagesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "passages PAPER_ID",
		Short: "Print one stored paper's passages in order",
		Long: `passages prints the passages of one paper with their token counts, their
byte offsets into the cleaned text (start, end), their kind (body,
references, table...; see 'paperlens ingest --help') and the section they
start in.
'paperlens papers' lists the ids.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := corpus.Open(homeDir(cmd), true)
			if err != nil {
				return err
			}
			defer st.Close()
			ps, err := st.Passages(args[0])
			if errors.Is(err, corpus.ErrNotFound) {
				return fmt.Errorf("no paper %q in %s; 'paperlens papers' lists the stored ids", args[0], st.Home)
			}
			if err != nil {
				return err
			}
			enc := json.NewEncoder(os.Stdout)
			for _, p := range ps {
				if asJSON {
					if err := enc.Encode(p); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(stdout, "── %s  %s  %d tokens  [%d:%d]  %s\n%s\n\n", p.PassageID, p.KindOf(), p.Tokens, p.Start, p.End, p.Section, p.Text)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per passage")
	return cmd
}
