package web

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
	"golang.org/x/sync/errgroup"
)

// Searcher runs a query against a Provider, fetches results until enough
// pages are usable and records everything in a Cache; with Replay it answers
// from the cache only.
type Searcher struct {
	Provider Provider
	Fetcher  *Fetcher // nil: NewFetcher(FetchOptions{})
	Cache    *Cache   // nil: nothing stored (Replay then always fails)
	Replay   bool
	Results  int // usable pages kept per query; default 5
	// Candidates bounds the search results considered per query; default
	// 3×Results. Results are fetched in rank order, a few at a time, until
	// Results pages are usable (status "ok", not the own paper), so a dead
	// link or the paper itself costs a fetch, not a result. The providers
	// of this package are asked for the next page of results only when the
	// ones at hand run out, so no quota is spent on pages never read.
	Candidates int
	// Retry is the number of provider calls in all, the first included
	// (default 3): httpx.Policy's MaxAttempts (internal/httpx compares the
	// three clients' retry knobs). Retried, by the rule every remote client shares
	// (internal/httpx): HTTP 408, 409, 425, 429 and 5xx, timeouts, dropped
	// connections and answers that are not JSON.
	Retry int
	// Backoff is the ceiling of the wait before the second try, doubled
	// for each further try up to maxBackoff, each wait drawn at random
	// below its ceiling (full jitter); default 1 s. A provider's
	// Retry-After is a floor, and one longer than maxRetryAfter fails the
	// search at once rather than stall the run.
	Backoff time.Duration
}

// ErrNotCached is wrapped by the replay-miss error.
var ErrNotCached = errors.New("not in the web cache")

// maxPages bounds the provider calls of one query (Brave serves ten pages,
// Google a hundred results).
const maxPages = 10

// Search is SearchExcluding with no own paper.
func (s *Searcher) Search(ctx context.Context, query string) ([]Doc, error) {
	return s.SearchExcluding(ctx, query, Own{})
}

// SearchExcluding returns, in rank order, every result it looked at up to
// and including the Results-th usable page: usable ones have Status "ok",
// the others say why they were passed over (StatusOwn, "http 404",
// "blocked", ...). Fewer usable pages, or none, is not an error: it is what
// the search found. An error is a provider that failed after its retries
// (or a replay miss).
func (s *Searcher) SearchExcluding(ctx context.Context, query string, own Own) ([]Doc, error) {
	n := s.Results
	if n <= 0 {
		n = 5
	}
	budget := s.Candidates
	if budget <= 0 {
		budget = 3 * n
	}
	if s.Replay {
		return s.replay(query, n, own)
	}
	if s.Provider == nil {
		return nil, errors.New("web search: no provider")
	}
	f := s.Fetcher
	if f == nil {
		f = NewFetcher(FetchOptions{})
	}
	var (
		cands  []Result
		seen   = map[string]bool{}
		raws   [][]byte
		docs   []Doc
		pages  []Page
		usable int
		calls  int
		done   bool // the provider has no more results, or may not be asked again
	)
	for usable < n {
		if len(docs) == len(cands) {
			if done || len(cands) >= budget || calls >= maxPages {
				break
			}
			rs, raw, err := s.search(ctx, query, budget, calls)
			if err != nil {
				return nil, err
			}
			calls++
			if raw != nil {
				raws = append(raws, raw)
			}
			added := 0
			for _, r := range rs {
				r.URL = strings.TrimSpace(r.URL)
				if r.URL == "" || seen[r.URL] || len(cands) >= budget {
					continue
				}
				seen[r.URL] = true
				r.Rank = len(cands) + 1
				cands = append(cands, r)
				added++
			}
			_, paged := s.Provider.(pager)
			done = added == 0 || !paged
			continue
		}
		// Only as many as are still missing, so a search whose results are
		// all good fetches no more pages than it keeps.
		batch := cands[len(docs):min(len(cands), len(docs)+n-usable)]
		bd, bp := make([]Doc, len(batch)), make([]Page, len(batch))
		// Every page of the batch at once: the batch is at most n pages.
		// A fetch never fails (its failure is the Doc's Status), so the
		// group has no error and cancels nothing; each result goes to its
		// own slot, so the order is the rank order whatever finishes first.
		var g errgroup.Group
		g.SetLimit(n)
		for i, r := range batch {
			if own.Matches(r) {
				bd[i] = Doc{URL: r.URL, Title: r.Title, Rank: r.Rank, Status: StatusOwn}
				bp[i] = Page{URL: r.URL, Time: time.Now().UTC(), Status: StatusOwn}
				continue
			}
			g.Go(func() error {
				d, p := f.fetch(ctx, r)
				if d.Status == StatusOK && own.matchTitle(d.Title) {
					d = Doc{URL: d.URL, Title: d.Title, Rank: d.Rank, Status: StatusOwn}
				}
				bd[i], bp[i] = d, *p
				return nil
			})
		}
		g.Wait()
		for i := range bd {
			if bd[i].Status == StatusOK {
				usable++
			}
		}
		docs, pages = append(docs, bd...), append(pages, bp...)
	}
	if s.Cache != nil {
		if err := s.store(query, cands, raws, pages, docs); err != nil {
			return docs, err
		}
	}
	return docs, nil
}

// store writes a live search to the cache: the raw responses and page
// bodies as content files, and the entry naming them.
func (s *Searcher) store(query string, cands []Result, raws [][]byte, pages []Page, docs []Doc) error {
	e := &Entry{Query: query, Provider: s.Provider.Name(), Time: time.Now().UTC(),
		Results: cands, Pages: pages, Docs: docs}
	for i, raw := range raws {
		sum, err := s.Cache.PutBlob(raw)
		if err != nil {
			return err
		}
		if i == 0 {
			e.ResponseSHA256 = sum
		} else {
			e.MoreResponses = append(e.MoreResponses, sum)
		}
	}
	for i := range e.Pages {
		if b := e.Pages[i].body; b != nil {
			sum, err := s.Cache.PutBlob(b)
			if err != nil {
				return err
			}
			e.Pages[i].SHA256 = sum
		}
	}
	return s.Cache.Put(e)
}

func (s *Searcher) replay(query string, n int, own Own) ([]Doc, error) {
	if s.Cache == nil {
		return nil, fmt.Errorf("%w: %s (no cache configured)", ErrNotCached, query)
	}
	e, ok, err := s.Cache.Get(query)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotCached, query)
	}
	if s.Provider != nil && e.Provider != s.Provider.Name() {
		return nil, fmt.Errorf("%w: %s (cached from %s, not %s)", ErrNotCached, query, e.Provider, s.Provider.Name())
	}
	// The same cut as a live search, so a replay with the same Results gives
	// the same Docs; an entry written before results were over-fetched
	// simply has fewer to choose from.
	var docs []Doc
	usable := 0
	for _, d := range e.Docs {
		if usable >= n {
			break
		}
		if d.Status == StatusOK && (own.Matches(Result{URL: d.URL}) || own.matchTitle(d.Title)) {
			d = Doc{URL: d.URL, Title: d.Title, Rank: d.Rank, Status: StatusOwn}
		}
		if d.Status == StatusOK {
			usable++
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// Limits on Searcher's waits between provider calls.
const (
	maxBackoff    = time.Minute
	maxRetryAfter = time.Minute
)

// search asks the provider for page p of query's results, pages of n,
// retrying what httpx.Retryable says is worth it. A Provider from outside
// this package cannot page: it is asked once, for n.
func (s *Searcher) search(ctx context.Context, query string, n, p int) ([]Result, []byte, error) {
	tries := s.Retry
	if tries <= 0 {
		tries = 3
	}
	wait := s.Backoff
	if wait <= 0 {
		wait = time.Second
	}
	var rs []Result
	var raw []byte
	out, err := httpx.Retry(ctx, httpx.Policy{MaxAttempts: tries, MinBackoff: wait, MaxBackoff: max(wait, maxBackoff),
		Jitter: 1, MaxRetryAfter: maxRetryAfter,
	}, func(ctx context.Context) error {
		var err error
		if pp, ok := s.Provider.(pager); ok {
			rs, raw, err = pp.page(ctx, query, n, p)
		} else {
			rs, err = s.Provider.Search(ctx, query, n)
		}
		return err
	})
	switch {
	case err == nil:
		return rs, raw, nil
	case out.Cancelled && !errors.Is(err, context.Cause(ctx)):
		return nil, nil, fmt.Errorf("%w (gave up waiting to retry: %v)", err, context.Cause(ctx))
	case out.TooLong > 0:
		return nil, nil, fmt.Errorf("%w (the provider asks to wait %v, more than %v)", err, out.TooLong, maxRetryAfter)
	case !out.Final && !out.Cancelled && out.Attempts > 1:
		return nil, nil, fmt.Errorf("%w (after %d tries)", err, out.Attempts)
	}
	return nil, nil, err
}
