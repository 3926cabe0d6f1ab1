package httpx

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// The error family below is what every remote client returns for a failed
// call, so that one classification (Retryable) and one retry loop (Retry)
// serve all of them. Each type says through a Retryable method whether the
// same request may succeed later. Clients with an older error type of their
// own wrap these and unwrap to them, so errors.As reaches the shared type
// from any client.

// HTTPError is a non-2xx answer from the server.
type HTTPError struct {
	StatusCode int
	// URL is the endpoint called, without user info or query, so that it
	// can be printed.
	URL string
	// Body is a short single-line excerpt of what the server said, with
	// secrets removed should the server echo them back.
	Body string
	// RetryAfter is what the server asked for in Retry-After (or
	// retry-after-ms); 0 when it did not say.
	RetryAfter time.Duration
	// Hint says what to check, for errors retrying cannot fix.
	Hint string
	// Param is the request parameter a 400 or 422 says the model or server
	// does not accept ("temperature", "max_tokens", "reasoning_effort", …);
	// empty for other errors. Such a request fails the same way every time.
	Param string
	// quota marks a 429 that is an exhausted account, not a rate limit.
	quota bool
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s from %s", e.StatusCode, http.StatusText(e.StatusCode), e.URL)
	if e.Body != "" {
		b.WriteString(": ")
		b.WriteString(e.Body)
	}
	if e.Hint != "" {
		b.WriteString(": ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// Retryable reports whether the same request may succeed later: 408, 409,
// 425, 429 (but not an exhausted quota) and 5xx other than 501. 400, 401,
// 402, 403, 404, 413 and 422 describe the request or the account and come
// back the same however often they are asked.
func (e *HTTPError) Retryable() bool {
	switch e.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly:
		return true
	case http.StatusTooManyRequests:
		return !e.quota
	case http.StatusNotImplemented:
		return false
	}
	return e.StatusCode >= 500
}

// Quota reports whether e is a 429 for an exhausted account or spending
// limit (OpenAI's insufficient_quota), which waiting does not fix.
func (e *HTTPError) Quota() bool { return e.quota }

// isQuota recognises OpenAI's (and its imitators') exhausted-quota 429 by
// its body; the status alone is the same as a rate limit's.
func isQuota(status int, raw []byte) bool {
	if status != http.StatusTooManyRequests {
		return false
	}
	low := strings.ToLower(string(raw))
	return strings.Contains(low, "insufficient_quota") || strings.Contains(low, "exceeded your current quota")
}

// MalformedError is a 2xx answer that is not usable: cut off, not JSON, not
// the expected shape. Proxies and overloaded servers produce these now and
// then, so they are retried.
type MalformedError struct {
	URL     string
	Reason  string
	Excerpt string // start of the body, secrets removed
}

func (e *MalformedError) Error() string {
	s := "malformed response from " + e.URL + ": " + e.Reason
	if e.Excerpt != "" {
		s += ": " + e.Excerpt
	}
	return s
}

// Retryable is true: see MalformedError.
func (e *MalformedError) Retryable() bool { return true }

// TransportError is a failure to get any HTTP answer: connection refused or
// reset, DNS, TLS. Err has had secrets removed.
type TransportError struct {
	// Method is the HTTP method; empty reads as POST, which is what the
	// model and embedding clients send.
	Method string
	URL    string
	Err    error
}

func (e *TransportError) Error() string {
	m := e.Method
	if m == "" {
		m = http.MethodPost
	}
	s := m + " " + e.URL + ": " + e.Err.Error()
	if isRefused(e.Err) {
		s += ": is the server running?"
	}
	return s
}

func (e *TransportError) Unwrap() error { return e.Err }

// Retryable is false for certificate errors, which a retry cannot fix, and
// true otherwise: a dropped connection or a server still starting is worth
// another try.
func (e *TransportError) Retryable() bool {
	var ue x509.UnknownAuthorityError
	var he x509.HostnameError
	var ce x509.CertificateInvalidError
	var ve *tls.CertificateVerificationError
	return !(errors.As(e.Err, &ue) || errors.As(e.Err, &he) || errors.As(e.Err, &ce) || errors.As(e.Err, &ve))
}

func isRefused(err error) bool {
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial" && strings.Contains(oe.Err.Error(), "refused")
}

// TimeoutError is a call that got no complete answer in time: a client's
// per-call Timeout, a retry loop's per-attempt limit, or a body that
// stopped coming (Call.IdleTimeout). A stalled server looks like this.
type TimeoutError struct {
	URL   string        // may be empty when the limit is not an HTTP client's
	After time.Duration // the limit that ran out
	What  string        // which limit: "Timeout", "AttemptTimeout", or the idle limit's name
	// Idle is true when the body had started and then no byte came for
	// After (Call.IdleTimeout), false when the whole call took too long.
	Idle bool
}

func (e *TimeoutError) Error() string {
	s := fmt.Sprintf("no complete response within %v (%s)", e.After, e.What)
	if e.Idle {
		s = fmt.Sprintf("no byte for %v while reading the reply (%s)", e.After, e.What)
	}
	if e.URL != "" {
		s += " from " + e.URL
	}
	return s
}

// Retryable is true: a stall is usually one overloaded replica.
func (e *TimeoutError) Retryable() bool { return true }

// Is makes errors.Is(err, context.DeadlineExceeded) true, as for any other
// timeout.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// Retryable reports whether err is worth another attempt: an error in its
// chain says so through a Retryable() bool method (every type above does),
// or it is a network error. Everything else, including context
// cancellation and errors nobody classified, is final.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	var r interface{ Retryable() bool }
	if errors.As(err, &r) {
		return r.Retryable()
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// The caller's context ended (context.DeadlineExceeded is itself
		// a net.Error, hence the check comes first).
		return false
	}
	var ne net.Error
	return errors.As(err, &ne)
}

// Permanent marks err as not worth retrying whatever it wraps (a response
// that contradicts earlier ones, say), for Retryable and Retry.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanent{err}
}

type permanent struct{ err error }

func (p *permanent) Error() string   { return p.err.Error() }
func (p *permanent) Unwrap() error   { return p.err }
func (p *permanent) Retryable() bool { return false }
