package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/ingest/corpus"
	"github.com/paperlens/paperlens/retrieve/web"
)

// remoteWebSearch wires a search provider, the page fetcher and the web
// cache. Keys are checked before the run starts; with --web-replay nothing
// touches the network and no key is needed. st gives each question's paper
// title, by which (and by its id in a URL) the paper's own pages are left
// out of its results.
func remoteWebSearch(c run.Config, f *evalFlags, st *corpus.Store) (run.WebSearch, io.Closer, error) {
	dir := f.webCache
	if dir == "" {
		dir = filepath.Join(c.Out, "web-cache")
	}
	cache, err := web.OpenCache(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("web cache %s: %w", dir, err)
	}
	// Pages are parsed in worker processes: a hostile page then costs its
	// own result, not the run, and every resume after it.
	fo := web.FetchOptions{Tokens: c.WebTokens, AllowPrivate: f.allowPrivate}
	var closer io.Closer
	if !c.WebReplay {
		x, err := ingest.NewPageExtractor(nil, runtime.GOMAXPROCS(0), isolation.timeout)
		if err != nil {
			return nil, nil, err
		}
		if x != nil {
			fo.Extract, closer = x.Extract, x
		}
	}
	s := &web.Searcher{Cache: cache, Replay: c.WebReplay, Results: c.WebResults, Fetcher: web.NewFetcher(fo)}
	if !c.WebReplay {
		p, err := remoteProvider(c.WebProvider, f.searxngURL)
		if err != nil {
			if closer != nil {
				closer.Close()
			}
			return nil, nil, err
		}
		s.Provider = p
	}
	search := func(ctx context.Context, query, paperID string) ([]run.WebDoc, error) {
		own := web.Own{ID: paperID}
		if st != nil {
			if d, err := st.Doc(paperID); err == nil {
				own.Title = d.Title
			}
		}
		docs, err := s.SearchExcluding(ctx, query, own)
		if err != nil {
			return nil, err
		}
		out := make([]run.WebDoc, len(docs))
		for i, d := range docs {
			out[i] = run.WebDoc{URL: d.URL, Title: d.Title, Text: d.Text, Status: d.Status, Rank: d.Rank, Tokens: d.Tokens}
		}
		return out, nil
	}
	return search, closer, nil
}

// remoteProvider is the search engine named by --web-provider (google,
// brave or searxng, which --searxng-url overrides), with its key from the
// environment; nil for any other name.
func remoteProvider(name, searxngURL string) (web.Provider, error) {
	switch name {
	case "google":
		return web.GoogleFromEnv()
	case "brave":
		return web.BraveFromEnv()
	case "searxng":
		if searxngURL != "" {
			return web.NewSearXNG(searxngURL, nil), nil
		}
		return web.SearXNGFromEnv()
	}
	return nil, nil
}
