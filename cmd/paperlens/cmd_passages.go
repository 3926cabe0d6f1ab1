package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/session"
)

// passagesOptions are the flags of passages.
type passagesOptions struct{ asJSON bool }

func newPassagesCmd(g *globalOptions) *cobra.Command {
	var o passagesOptions
	cmd := &cobra.Command{
		Use:   "passages PAPER_ID",
		Short: "Print one stored paper's passages in order",
		Long:  helpText("passages"),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPassages(g, o, args)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON object per passage")
	return cmd
}

// runPassages prints one paper's passages in order.
func runPassages(g *globalOptions, o passagesOptions, args []string) error {
	id := args[0]
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
		if o.asJSON {
			if err := enc.Encode(p); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(g.out, "── %s  %s  %d tokens  [%d:%d]  %s\n%s\n\n", p.PassageID, p.KindOf(), p.Tokens, p.Start, p.End, p.Section, p.Text)
	}
	return nil
}
