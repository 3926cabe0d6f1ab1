package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/eval/run"
)

// Rerun is a recorded run as the parts of a Request (eval --config
// RUN/config.json, fixed): a command starts from them and applies the
// flags the user gave on top, then calls Eval. Prepared, an unchanged
// Rerun gives the recorded config.json back but for its provenance (the
// command line, the build, the data hash of the file now).
type Rerun struct {
	// Config and Overrides are run.RerunOf of config.json: every setting
	// as recorded, the request fields as overrides (flags_set kept, so
	// the protocol block says what the first run's user asked for; a
	// flag given now adds its name).
	Config    run.Config
	Overrides run.Overrides
	// Index carries the BM25 scorer recorded (Prepare records
	// Index.Scorer); the embedder and vector store are the home's index
	// settings, which config.json records only by name.
	Index Index
	// Rerank is the reranker recorded. Its key variable was never
	// recorded: give it again (--rerank-key-env) when the server needs
	// one.
	Rerank Rerank
}

// ReadRerun reads a run folder's config.json (written by any paperlens;
// fields an older one lacks take their defaults) as a Rerun. path is the
// file, as --config names it (RUN/config.json), or the folder.
func ReadRerun(path string) (Rerun, error) {
	dir := path
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		if filepath.Base(path) != "config.json" {
			return Rerun{}, fmt.Errorf("--config %s: give a run folder's config.json (RUN/config.json)", path)
		}
		dir = filepath.Dir(path)
	}
	c, err := run.Dir(dir).ReadConfig()
	if err != nil {
		return Rerun{}, err
	}
	rr := run.RerunOf(c)
	return Rerun{
		Config: rr.Config, Overrides: rr.Overrides,
		Index:  Index{BM25: c.BM25},
		Rerank: Rerank{Kind: c.Rerank, Depth: c.RerankDepth, Model: c.RerankModel, BaseURL: c.RerankBaseURL, Protocol: c.RerankProtocol},
	}, nil
}

// CheckHeaders says which header the recorded run sent (its names are in
// config.json, never their values) that cl does not give: a rerun must
// send them too.
func (r Rerun) CheckHeaders(cl Clients) error {
	if err := missingHeaders(r.Config.HeaderNames, cl.Header, ""); err != nil {
		return err
	}
	if r.Config.JudgeModel == "" {
		return nil
	}
	return missingHeaders(r.Config.Judge.HeaderNames, cl.JudgeHeader, "judge-")
}
