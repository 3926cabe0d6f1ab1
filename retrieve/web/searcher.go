package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Searcher runs a query against a Provider, fetches the top results and
// records everything in a Cache; with Replay it answers from the cache only.
type Searcher struct {
	Provider Provider
	Fetcher  *Fetcher // nil: NewFetcher(FetchOptions{})
	Cache    *Cache   // nil: nothing stored (Replay then always fails)
	Replay   bool
	Results  int // pages kept per query; default 5
	Retry    int // provider tries on 429/5xx or a network timeout; default 3
	// Backoff is the wait before the second try, doubled for each further
	// try (a provider's Retry-After wins when longer, up to 1 minute);
	// default 1 s.
	Backoff time.Duration
}

// ErrNotCached is wrapped by the replay-miss error.
var ErrNotCached = errors.New("not in the web cache")

// Search returns the Docs of the top results for query in rank order.
// A provider failure (after retries) is an error; a page that cannot be
// fetched is a Doc with a Status other than "ok".
func (s *Searcher) Search(ctx context.Context, query string) ([]Doc, error) {
	n := s.Results
	if n <= 0 {
		n = 5
	}
	if s.Replay {
		return s.replay(query, n)
	}
	if s.Provider == nil {
		return nil, errors.New("web search: no provider")
	}
	results, raw, err := s.search(ctx, query, n)
	if err != nil {
		return nil, err
	}
	f := s.Fetcher
	if f == nil {
		f = NewFetcher(FetchOptions{})
	}
	docs := make([]Doc, len(results))
	pages := make([]Page, len(results))
	var wg sync.WaitGroup
	for i, r := range results {
		wg.Go(func() {
			d, p := f.fetch(ctx, r)
			docs[i], pages[i] = d, *p
		})
	}
	wg.Wait()
	if s.Cache != nil {
		e := &Entry{Query: query, Provider: s.Provider.Name(), Time: time.Now().UTC(),
			Results: results, Pages: pages, Docs: docs}
		if raw != nil {
			if e.ResponseSHA256, err = s.Cache.PutBlob(raw); err != nil {
				return docs, err
			}
		}
		for i := range e.Pages {
			if b := e.Pages[i].body; b != nil {
				if e.Pages[i].SHA256, err = s.Cache.PutBlob(b); err != nil {
					return docs, err
				}
			}
		}
		if err := s.Cache.Put(e); err != nil {
			return docs, err
		}
	}
	return docs, nil
}

func (s *Searcher) replay(query string, n int) ([]Doc, error) {
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
	docs := e.Docs
	if len(docs) > n {
		docs = docs[:n]
	}
	return docs, nil
}

// search calls the provider, retrying 429/5xx answers and timeouts.
func (s *Searcher) search(ctx context.Context, query string, n int) ([]Result, []byte, error) {
	tries := s.Retry
	if tries <= 0 {
		tries = 3
	}
	wait := s.Backoff
	if wait <= 0 {
		wait = time.Second
	}
	var lastErr error
	for try := 1; ; try++ {
		var rs []Result
		var raw []byte
		var err error
		if rp, ok := s.Provider.(rawSearcher); ok {
			rs, raw, err = rp.searchRaw(ctx, query, n)
		} else {
			rs, err = s.Provider.Search(ctx, query, n)
		}
		if err == nil {
			return rs, raw, nil
		}
		lastErr = err
		if try >= tries || !retryable(err) || ctx.Err() != nil {
			break
		}
		d := wait
		var se *StatusError
		if errors.As(err, &se) && se.RetryAfter > d {
			d = min(se.RetryAfter, time.Minute)
		}
		select {
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("%w (gave up waiting to retry: %v)", lastErr, ctx.Err())
		case <-time.After(d):
		}
		wait *= 2
	}
	if tries > 1 && retryable(lastErr) {
		return nil, nil, fmt.Errorf("%w (after %d tries)", lastErr, tries)
	}
	return nil, nil, lastErr
}

func retryable(err error) bool {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Retryable()
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
