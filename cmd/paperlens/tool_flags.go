package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve/web"
)

// newWebTools builds what tool-search's web_search and open_page call: the
// engine of --web-provider and the guarded fetcher, its pages parsed in
// worker processes. As in the web modes, the question's own paper is left
// out: st gives its title. Replay comes from the run's tool cache.
func newWebTools(c run.Config, f *evalFlags, st *corpus.Store) (*run.WebTools, io.Closer, error) {
	switch c.WebProvider {
	case "google", "brave", "searxng":
	default:
		return nil, nil, fmt.Errorf("mode tool-search calls a search engine itself: use --web-provider searxng, google or brave (not %q)", c.WebProvider)
	}
	p, err := remoteProvider(c.WebProvider, f.searxngURL)
	if err != nil {
		return nil, nil, err
	}
	fo := web.FetchOptions{Tokens: c.WebTokens, AllowPrivate: f.allowPrivate}
	var closer io.Closer
	x, err := ingest.NewPageExtractor(nil, runtime.GOMAXPROCS(0), isolation.timeout)
	if err != nil {
		return nil, nil, err
	}
	if x != nil {
		fo.Extract, closer = x.Extract, x
	}
	wt := &run.WebTools{Provider: p, Fetcher: web.NewFetcher(fo)}
	if st != nil {
		wt.Title = func(id string) string {
			if d, err := st.Doc(id); err == nil {
				return d.Title
			}
			return ""
		}
	}
	return wt, closer, nil
}
