package session

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"time"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/ingest"
	"github.com/paperlens/paperlens/retrieve/web"
)

// Web is how the web modes and tool-search reach the web.
type Web struct {
	SearXNGURL string // --web-provider searxng's server; "": $SEARXNG_URL
	// Cache holds search responses and pages; "": RUN/web-cache.
	Cache        string
	AllowPrivate bool          // let the fetcher reach private addresses (tests, intranets)
	DocTimeout   time.Duration // parsing one fetched page
}

// openWeb builds the web search of the web modes: the indexed corpus
// (offline), or a search engine, the page fetcher and the web cache.
func (s *Session) openWeb() (run.WebSearch, error) {
	c := s.cfg
	switch c.WebProvider {
	case "corpus":
		if s.opt.Index == nil {
			return nil, fmt.Errorf("--web-provider corpus needs the retrieval index")
		}
		return run.CorpusWeb(s.opt.Index, s.opt.Corpus, c.WebResults, c.WebTokens), nil
	case "google", "searxng", "brave":
		return s.remoteWebSearch()
	}
	return nil, fmt.Errorf("--web-provider %q: use google, searxng, brave or corpus", c.WebProvider)
}

// pageExtractor parses fetched pages in worker processes: a hostile page
// then costs its own result, not the run, and every resume after it. nil
// when isolation is off.
func (s *Session) pageExtractor() (func(context.Context, string, []byte, string) (string, string, error), error) {
	x, err := ingest.NewPageExtractor(s.isolation(), runtime.GOMAXPROCS(0), s.req.Web.DocTimeout)
	if err != nil || x == nil {
		return nil, err
	}
	s.onClose(x.Close)
	return x.Extract, nil
}

// isolation is the request's, never ingest's package default: a session
// says for itself how it parses untrusted pages.
func (s *Session) isolation() *ingest.Isolation {
	if s.req.Isolation == nil {
		return &ingest.Isolation{Off: true}
	}
	return s.req.Isolation
}

// remoteWebSearch wires a search provider, the page fetcher and the web
// cache. Keys are checked before the run starts; with replay nothing
// touches the network and no key is needed. The corpus gives each
// question's paper title, by which (and by its id in a URL) the paper's
// own pages are left out of its results.
func (s *Session) remoteWebSearch() (run.WebSearch, error) {
	c, st := s.cfg, s.opt.Corpus
	dir := s.req.Web.Cache
	if dir == "" {
		dir = filepath.Join(c.Out, "web-cache")
	}
	cache, err := web.OpenCache(dir)
	if err != nil {
		return nil, fmt.Errorf("web cache %s: %w", dir, err)
	}
	fo := web.FetchOptions{Tokens: c.WebTokens, AllowPrivate: s.req.Web.AllowPrivate}
	searcher := &web.Searcher{Cache: cache, Replay: c.WebReplay, Results: c.WebResults}
	if !c.WebReplay {
		if fo.Extract, err = s.pageExtractor(); err != nil {
			return nil, err
		}
		if searcher.Provider, err = s.provider(); err != nil {
			return nil, err
		}
	}
	searcher.Fetcher = web.NewFetcher(fo)
	return func(ctx context.Context, query, paperID string) ([]run.WebDoc, error) {
		own := web.Own{ID: paperID}
		if st != nil {
			if d, err := st.Doc(paperID); err == nil {
				own.Title = d.Title
			}
		}
		docs, err := searcher.SearchExcluding(ctx, query, own)
		if err != nil {
			return nil, err
		}
		out := make([]run.WebDoc, len(docs))
		for i, d := range docs {
			out[i] = run.WebDoc{URL: d.URL, Title: d.Title, Text: d.Text, Status: d.Status, Rank: d.Rank, Tokens: d.Tokens}
		}
		return out, nil
	}, nil
}

// openWebTools builds what tool-search's web_search and open_page call: the
// engine of the web provider and the guarded fetcher, its pages parsed in
// worker processes. As in the web modes, the question's own paper is left
// out: the corpus gives its title. Replay comes from the run's tool cache.
func (s *Session) openWebTools() (*run.WebTools, error) {
	c := s.cfg
	switch c.WebProvider {
	case "google", "brave", "searxng":
	default:
		return nil, fmt.Errorf("mode tool-search calls a search engine itself: use --web-provider searxng, google or brave (not %q)", c.WebProvider)
	}
	p, err := s.provider()
	if err != nil {
		return nil, err
	}
	fo := web.FetchOptions{Tokens: c.WebTokens, AllowPrivate: s.req.Web.AllowPrivate}
	if fo.Extract, err = s.pageExtractor(); err != nil {
		return nil, err
	}
	wt := &run.WebTools{Provider: p, Fetcher: web.NewFetcher(fo)}
	if st := s.opt.Corpus; st != nil {
		wt.Title = func(id string) string {
			if d, err := st.Doc(id); err == nil {
				return d.Title
			}
			return ""
		}
	}
	return wt, nil
}

// provider is the search engine the web provider names (google, brave or
// searxng, whose server the request may give), with its key from the
// environment; nil for any other name.
func (s *Session) provider() (web.Provider, error) {
	switch s.cfg.WebProvider {
	case "google":
		return web.GoogleFromEnv()
	case "brave":
		return web.BraveFromEnv()
	case "searxng":
		if u := s.req.Web.SearXNGURL; u != "" {
			return web.NewSearXNG(u, nil), nil
		}
		return web.SearXNGFromEnv()
	}
	return nil, nil
}
