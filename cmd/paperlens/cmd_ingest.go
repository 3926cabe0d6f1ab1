package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/session"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/internal/cliflags"
	"github.com/paperlens/paperlens/internal/progress"
)

// ingestOptions are the flags of ingest.
type ingestOptions struct {
	ingest  ingest.Options
	asJSON  bool
	maxFile int64
}

func newIngestCmd(g *globalOptions) *cobra.Command {
	o := ingestOptions{maxFile: ingest.DefaultMaxFileSize}
	opt := &o.ingest
	cmd := &cobra.Command{
		Use:     "ingest [flags] PATH...",
		Short:   "Extract, clean and chunk PDF, text, HTML and dataset files into the corpus",
		Long:    helpText("ingest"),
		Example: helpText("ingest.example"),
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIngest(cmd.Context(), g, o, args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print one JSON object per document")
	cliflags.AddPassageTokens(f, &opt.MaxTokens, "max-tokens")
	f.IntVar(&opt.MinTokens, "min-tokens", 0, "flag documents shorter than this many tokens (ElaipBench rejected papers under 4096)")
	f.BoolVar(&opt.RejectShort, "reject-short", false, "with --min-tokens: reject short documents instead of flagging them")
	f.DurationVar(&opt.Timeout, "timeout", 2*time.Minute, "give up on one document after this long (reading, parsing and chunking it)")
	f.IntVar(&opt.Workers, "workers", 0, "documents extracted in parallel (default: number of CPUs)")
	f.BoolVar(&opt.Force, "force", false, "re-extract even unchanged files")
	f.StringVar(&opt.Drop, "drop", kind.Names(kind.DefaultDrop), "passage kinds left out of the stored text, comma-separated ("+kind.Names(kind.All)+"), or none")
	f.StringVar(&opt.IDField, "id-field", "paper_id", "dataset field holding the paper id")
	f.StringVar(&opt.ContentField, "content-field", "paper_content", "dataset field holding the paper's full text")
	f.Var(cliflags.Size(&o.maxFile, 0, nil, 0), "max-file-size", "refuse files larger than this, unread (e.g. 500MB)")
	g.iso.Add(f)
	return cmd
}

// runIngest stores each input's cleaned text and passages, one result a
// line (JSON with --json), and exits 1 when some input failed.
func runIngest(ctx context.Context, g *globalOptions, o ingestOptions, args []string) error {
	opt := o.ingest
	opt.MaxFileSize, opt.Isolation = o.maxFile, g.isolation
	if _, err := ingest.ParseDrop(opt.Drop); err != nil {
		return err
	}
	home := g.homeDir()
	enc := json.NewEncoder(g.stdout)
	rep := progress.NewIngest(g.stderr, !o.asJSON && g.stderrTTY)
	failed, err := session.Ingest(ctx, home, args, opt, func(r ingest.Result) {
		rep.Add(r.Status, func() {
			if o.asJSON {
				_ = enc.Encode(r)
			} else {
				io.WriteString(g.out, r.Text())
			}
		})
	})
	if !o.asJSON {
		rep.Done(g.errOut, home)
	}
	if err != nil {
		return err
	}
	if failed > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d input(s) failed; the others are stored", failed)}
	}
	return nil
}
