package httpx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// NewHTTPClient is the *http.Client a remote client uses when its caller
// gives none: the default transport (so HTTPS_PROXY and NO_PROXY apply)
// with idle connections kept for idlePerHost calls in flight. The default
// keeps 2 per host, which with many workers means a new TCP and TLS
// handshake for most calls and thousands of sockets in TIME_WAIT over a
// long run.
func NewHTTPClient(idlePerHost int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = max(idlePerHost, 2)
	t.MaxIdleConns = max(t.MaxIdleConns, t.MaxIdleConnsPerHost)
	return &http.Client{Transport: t}
}

// Call is one HTTP request to a remote API.
type Call struct {
	Method string // empty means POST
	URL    string // what is requested; may carry a key in its query
	// Shown is the URL as errors print it; empty means URL without user
	// info, query or fragment (see DisplayURL), so a key in the query
	// (Google's) never reaches a message.
	Shown string
	// Header is set over the defaults: Accept: application/json,
	// Content-Type: application/json when there is a Body, and the
	// User-Agent below.
	Header    http.Header
	UserAgent string
	Body      []byte
	// Secrets are removed from every error and body excerpt.
	Secrets Redactor
	// Timeout bounds the call, connection to last byte; 0 means only the
	// caller's context and the http.Client's own Timeout apply.
	Timeout time.Duration
	// MaxBody is the most response bytes read; a longer body is a
	// *MalformedError, unless CutOK. 0 means 32 MiB.
	MaxBody int64
	// CutOK makes a body longer than MaxBody no error: its first MaxBody
	// bytes are returned with Reply.Cut set, and the rest is never read
	// (the connection is closed rather than drained). For a caller that
	// can use a prefix, as the chat client can (a 30 MB runaway answer is
	// worth its first megabytes, and fetching it again would bring the
	// same 30 MB).
	CutOK bool
	// IdleTimeout ends the call when no byte of the body has arrived for
	// this long, with a retryable *TimeoutError (Idle set), apart from
	// Timeout: a body that stalls half-way is given up in seconds rather
	// than at the end of a long Timeout. It starts when the headers have
	// arrived; the wait for them, which for a reasoning model is all its
	// thinking, is bounded by Timeout alone. 0 means none.
	IdleTimeout time.Duration
	// IdleName is how an idle error names IdleTimeout (the flag or option
	// that sets it, so the message says what to change); empty means
	// "IdleTimeout".
	IdleName string
}

// Reply is a complete HTTP answer.
type Reply struct {
	StatusCode int
	Header     http.Header
	Body       []byte // raw, not redacted: the caller decodes it
	// Latency is from sending the request to the last byte of the body.
	Latency time.Duration
	// Cut is true when the body was longer than Call.MaxBody and Body is
	// its first MaxBody bytes (Call.CutOK only).
	Cut bool
}

// Do makes one call through hc (nil: http.DefaultClient) and reads the
// whole answer. It does not retry: that is Retry's job, one level up, so
// each client decides what an attempt is. Every failure is one of the
// family in errors.go, with secrets removed:
//
//   - a non-2xx answer is an *HTTPError (Body excerpt, RetryAfter, quota),
//     returned together with the Reply so the caller can add a Hint from
//     the raw body;
//   - no answer is a *TransportError, without the URL's query (url.Error
//     would quote it) and with a hint when the connection was refused;
//   - a body cut off, or over MaxBody without CutOK, is a *MalformedError;
//   - Call.Timeout running out is a *TimeoutError, and so is Call.IdleTimeout
//     passing without a byte of the body (Idle set), and so is an enclosing
//     limit whose context cause is one (it gets this call's URL); the
//     caller's own cancellation is wrapped with %w, so errors.Is still
//     sees context.Canceled.
func Do(ctx context.Context, hc *http.Client, c Call) (Reply, error) {
	method := c.Method
	if method == "" {
		method = http.MethodPost
	}
	shown := c.Shown
	if shown == "" {
		shown = DisplayURL(c.URL)
	}
	maxBody := c.MaxBody
	if maxBody <= 0 {
		maxBody = 32 << 20
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	rctx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		rctx, cancel = context.WithTimeoutCause(ctx, c.Timeout, &TimeoutError{URL: shown, After: c.Timeout, What: "Timeout"})
		defer cancel()
	}
	var idle context.CancelCauseFunc
	if c.IdleTimeout > 0 {
		rctx, idle = context.WithCancelCause(rctx)
		defer idle(nil)
	}
	var body io.Reader
	if c.Body != nil {
		body = bytes.NewReader(c.Body)
	}
	req, err := http.NewRequestWithContext(rctx, method, c.URL, body)
	if err != nil {
		// The error quotes the URL; the shown one carries no credentials.
		return Reply{}, fmt.Errorf("build request for %s: %w", shown, c.Secrets.Err(stripURL(err)))
	}
	req.Header.Set("Accept", "application/json")
	if c.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	for name, vals := range c.Header {
		req.Header.Del(name)
		for _, v := range vals {
			req.Header.Add(name, v)
		}
	}

	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		if rctx.Err() != nil {
			return Reply{}, ctxErr(rctx, method, shown)
		}
		return Reply{}, &TransportError{Method: method, URL: shown, Err: c.Secrets.Err(stripURL(err))}
	}
	// Close without draining: after a cut or a stall the rest is not
	// wanted, and net/http then drops the connection instead of reusing it.
	defer resp.Body.Close()
	var src io.Reader = resp.Body
	if idle != nil {
		name := c.IdleName
		if name == "" {
			name = "IdleTimeout"
		}
		ir := newIdleReader(resp.Body, c.IdleTimeout, func() {
			idle(&TimeoutError{URL: shown, After: c.IdleTimeout, What: name, Idle: true})
		})
		defer ir.stop()
		src = ir
	}
	// At most one byte past the limit is read: enough to know the body is
	// longer, never the whole of a runaway one.
	raw, err := io.ReadAll(io.LimitReader(src, maxBody+1))
	if err != nil {
		if rctx.Err() != nil {
			return Reply{}, ctxErr(rctx, method, shown)
		}
		// The connection dropped mid-body: a proxy or server cut it off.
		return Reply{}, &MalformedError{URL: shown,
			Reason:  fmt.Sprintf("body cut off after %d bytes (HTTP %d): %v", len(raw), resp.StatusCode, c.Secrets.Err(err)),
			Excerpt: c.Secrets.Excerpt(raw, 0)}
	}
	rep := Reply{StatusCode: resp.StatusCode, Header: resp.Header, Body: raw, Latency: time.Since(start)}
	if int64(len(raw)) > maxBody {
		if !c.CutOK {
			return Reply{}, &MalformedError{URL: shown, Reason: fmt.Sprintf("body larger than %d bytes", maxBody)}
		}
		rep.Body, rep.Cut = raw[:maxBody], true
	}
	if resp.StatusCode/100 != 2 {
		return rep, &HTTPError{StatusCode: resp.StatusCode, URL: shown, Body: c.Secrets.Excerpt(raw, 0),
			RetryAfter: RetryAfter(resp.Header), quota: isQuota(resp.StatusCode, raw)}
	}
	return rep, nil
}

// idleReader passes reads through and calls fire when no byte has come for
// d. Every read that brings bytes restarts the wait; a read blocked on a
// silent connection is ended by fire cancelling the request's context,
// which makes net/http close the connection under it.
type idleReader struct {
	r io.Reader
	d time.Duration
	t *time.Timer
}

func newIdleReader(r io.Reader, d time.Duration, fire func()) *idleReader {
	return &idleReader{r: r, d: d, t: time.AfterFunc(d, fire)}
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if n > 0 {
		// A Reset after the timer fired re-arms it; the context is then
		// cancelled already, so a second fire changes nothing.
		ir.t.Reset(ir.d)
	}
	return n, err
}

func (ir *idleReader) stop() { ir.t.Stop() }

// stripURL drops url.Error's quoting of the request URL, whose query may
// hold a key; the caller names the shown URL instead.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// ctxErr is the error for a call whose context ended: this call's Timeout,
// an enclosing attempt limit, or the caller's cause.
func ctxErr(ctx context.Context, method, shown string) error {
	cause := context.Cause(ctx)
	var te *TimeoutError
	if errors.As(cause, &te) {
		// A copy naming the URL, which an enclosing attempt timer does
		// not know.
		t := *te
		t.URL = shown
		return &t
	}
	return fmt.Errorf("%s %s: %w", method, shown, cause)
}

// DisplayURL is s without user info, query, fragment or raw path, for
// messages; a string that does not parse is shown as "(invalid URL)" since
// it may hold anything.
func DisplayURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		// "user:key@host" without a scheme parses as scheme "user" with
		// an opaque rest that would carry the key through.
		return "(invalid URL)"
	}
	return displayURL(u)
}

func displayURL(u *url.URL) string {
	v := *u
	v.User = nil
	v.RawQuery = ""
	v.ForceQuery = false
	v.Fragment = ""
	v.RawFragment = ""
	v.RawPath = ""
	return v.String()
}
