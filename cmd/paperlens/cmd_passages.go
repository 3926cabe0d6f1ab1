package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/ingest/corpus"
)

func newPassagesCmd(g *globalOptions) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "passages PAPER_ID",
		Short: "Print one stored paper's passages in order",
		Long:  helpText("passages"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPassages(g, asJSON, args[0])
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per passage")
	return cmd
}

// runPassages prints one paper's passages in order.
func runPassages(g *globalOptions, asJSON bool, id string) error {
	st, err := session.OpenCorpus(g.homeDir())
	if err != nil {
		return err
	}
	defer st.Close()
	ps, err := st.Passages(id)
	if errors.Is(err, corpus.ErrNotFound) {
		return fmt.Errorf("no paper %q in %s; 'paperlens papers' lists the stored ids", id, st.Home)
	}
	if err != nil {
		return err
	}
	enc := json.NewEncoder(g.stdout)
	for _, p := range ps {
		if asJSON {
			if err := enc.Encode(p); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(g.out, "── %s  %s  %d tokens  [%d:%d]  %s\n%s\n\n", p.PassageID, p.KindOf(), p.Tokens, p.Start, p.End, p.Section, p.Text)
	}
	return nil
}
