package model

import (
	"errors"
	"io"
)

// DefaultConcurrency is Stack's limit on calls in flight when
// StackOptions.Concurrency is 0.
const DefaultConcurrency = 8

// StackOptions configure Stack. The zero value is retries with the
// defaults, DefaultConcurrency calls at once, no rate limit and no cache.
type StackOptions struct {
	// CachePath is the bbolt cache file; empty means no cache.
	CachePath string
	// Endpoint is the API root for cache keys; empty means base's BaseURL()
	// when base has one (*OpenAI does).
	Endpoint string
	// Retry configures WithRetry.
	Retry RetryOptions
	// RPM and TPM configure WithRateLimit; 0 means unlimited.
	RPM, TPM int
	// Concurrency is the most calls in flight: 0 means DefaultConcurrency,
	// negative means unlimited.
	Concurrency int
	// Flights, when set, counts the calls at the server (WithFlights
	// right above base), for progress reports.
	Flights *Flights
}

// Stack wraps base as Cache → Retry → RateLimit → Concurrency → [Flights
// →] base. The
// cache is outermost, so a hit skips the limits and the queue; retries sit
// above the limits, so every attempt is counted against RPM and TPM and
// waits for a slot like any other call. The Closer closes the cache (a
// no-op without one) and must be called when done.
func Stack(base Chat, o StackOptions) (Chat, io.Closer, error) {
	if base == nil {
		return nil, nil, errors.New("model: Stack needs a base Chat")
	}
	n := o.Concurrency
	if n == 0 {
		n = DefaultConcurrency
	}
	c := WithConcurrency(WithFlights(base, o.Flights), n)
	c = WithRateLimit(c, o.RPM, o.TPM)
	c = WithRetry(c, o.Retry)
	if o.CachePath == "" {
		return c, nopCloser{}, nil
	}
	endpoint := o.Endpoint
	if endpoint == "" {
		if b, ok := base.(interface{ BaseURL() string }); ok {
			endpoint = b.BaseURL()
		}
	}
	cached, err := WithCache(c, o.CachePath, endpoint)
	if err != nil {
		return nil, nil, err
	}
	return cached, cached, nil
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
