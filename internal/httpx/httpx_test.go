package httpx

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestRedactor(t *testing.T) {
	const key = `sk-proj-SECRET/abc+def<0>"q"`
	r := NewRedactor(key, "", "gw-token")
	for _, in := range []string{
		"raw " + key,
		`json "sk-proj-SECRET/abc+def\u003c0\u003e\"q\""`,
		`slashes sk-proj-SECRET\/abc+def<0>"q"`,
		`both sk-proj-SECRET\/abc+def\u003c0\u003e\"q\"`,
		"header gw-token",
	} {
		out := r.Redact(in)
		if strings.Contains(out, "SECRET") || strings.Contains(out, "gw-token") || !strings.Contains(out, Redacted) {
			t.Errorf("%q → %q", in, out)
		}
	}
	// A secret inside another goes after it, or the long one's tail stays.
	r = NewRedactor("abcd", "xxabcdyy")
	if got := r.Redact("[xxabcdyy]"); got != "["+Redacted+"]" {
		t.Errorf("nested secrets: %q", got)
	}
	if got := (Redactor{}).Redact("nothing"); got != "nothing" {
		t.Errorf("zero Redactor changed text: %q", got)
	}
	// Cut after removing, so no prefix of a secret survives the cut.
	ex := NewRedactor("0123456789").Excerpt([]byte(strings.Repeat("a", 295)+" 0123456789 tail"), 300)
	if strings.Contains(ex, "01234") || !strings.HasSuffix(ex, "…") {
		t.Errorf("excerpt %q", ex)
	}
	base := errors.New("wrapped")
	if got := NewRedactor("k3y!").Err(base); got != base {
		t.Errorf("an error without secrets must keep its chain")
	}
	if got := NewRedactor("k3y!").Err(errors.New("bad k3y!")); got.Error() != "bad "+Redacted {
		t.Errorf("Err: %v", got)
	}
	// With does not change its receiver.
	one := NewRedactor("first")
	_ = one.With("second")
	if one.Redact("second") != "second" {
		t.Errorf("With changed its receiver")
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		h    map[string]string
		want time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": " 1.5 "}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "0"}, 0},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "NaN"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{map[string]string{"Retry-After": now.Add(-time.Hour).Format(http.TimeFormat)}, 0},
		{map[string]string{"Retry-After-Ms": "150"}, 150 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "150", "Retry-After": "9"}, 150 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "0", "Retry-After": "9"}, 9 * time.Second},
		{map[string]string{"Retry-After-Ms": "x", "Retry-After": "9"}, 9 * time.Second},
	}
	for _, tc := range cases {
		h := http.Header{}
		for k, v := range tc.h {
			h.Set(k, v)
		}
		if got := retryAfterAt(h, now); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestRetryableFamily(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{&HTTPError{StatusCode: 429}, true},
		{&HTTPError{StatusCode: 429, quota: true}, false},
		{&HTTPError{StatusCode: 503}, true},
		{&HTTPError{StatusCode: 501}, false},
		{&HTTPError{StatusCode: 408}, true},
		{&HTTPError{StatusCode: 404}, false},
		{&MalformedError{}, true},
		{&TimeoutError{}, true},
		{&TransportError{Err: errors.New("reset")}, true},
		{Permanent(&HTTPError{StatusCode: 503}), false},
		{context.Canceled, false},
		{context.DeadlineExceeded, false},
		{&net.OpError{Op: "read", Err: errors.New("reset")}, true},
		{errors.New("bug"), false},
		{nil, false},
	}
	for _, tc := range cases {
		if got := Retryable(tc.err); got != tc.want {
			t.Errorf("Retryable(%#v) = %v", tc.err, got)
		}
	}
}

// Timings run in a synctest bubble, whose clock jumps while every goroutine
// waits, so schedules are checked exactly and at once.
func TestRetry(t *testing.T) {
	p := Policy{MaxAttempts: 4, MinBackoff: time.Second, MaxBackoff: 3 * time.Second, MaxRetryAfter: time.Minute}
	errs := func(es ...error) func(context.Context) error {
		n := 0
		return func(context.Context) error {
			n++
			if n <= len(es) {
				return es[n-1]
			}
			return nil
		}
	}
	h := func(code int, ra time.Duration) error { return &HTTPError{StatusCode: code, RetryAfter: ra} }
	cases := []struct {
		name    string
		attempt func(context.Context) error
		want    Outcome
		wantErr bool
	}{
		{"doubling, capped", errs(h(500, 0), h(500, 0), h(500, 0)), Outcome{Attempts: 4, Elapsed: 6 * time.Second}, false},
		{"Retry-After is a floor", errs(h(429, 10*time.Second)), Outcome{Attempts: 2, Elapsed: 10 * time.Second}, false},
		{"Retry-After beyond the cap ends it", errs(h(429, time.Hour)), Outcome{Attempts: 1, Final: true, TooLong: time.Hour}, true},
		{"final error", errs(h(400, 0)), Outcome{Attempts: 1, Final: true}, true},
		{"attempts run out", errs(h(500, 0), h(500, 0), h(500, 0), h(500, 0)), Outcome{Attempts: 4, Elapsed: 6 * time.Second}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				out, err := Retry(t.Context(), p, tc.attempt)
				if out != tc.want || (err != nil) != tc.wantErr {
					t.Errorf("%+v %v, want %+v", out, err, tc.want)
				}
			})
		})
	}
	t.Run("cancel ends a wait at once", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(2*time.Second, cancel)
			out, err := Retry(ctx, p, errs(h(429, 30*time.Second)))
			if !out.Cancelled || out.Elapsed != 2*time.Second || err == nil {
				t.Errorf("%+v %v", out, err)
			}
		})
	})
	t.Run("full jitter stays under the ceiling", func(t *testing.T) {
		q := Policy{MinBackoff: time.Second, MaxBackoff: time.Minute, Jitter: 1}
		for n := 1; n < 100; n++ {
			if d := q.Backoff(n); d < 0 || d > time.Minute || (n == 1 && d > time.Second) {
				t.Fatalf("Backoff(%d) = %v", n, d)
			}
		}
	})
}

func TestDo(t *testing.T) {
	const key = "k-SECRET-123"
	srv := httptest.NewServer(http.HandlerFunc(doTestServer))
	defer srv.Close()
	sec := NewRedactor(key)

	rep, err := Do(t.Context(), nil, Call{URL: srv.URL + "/ok", Body: []byte(`{}`), UserAgent: "ua/1",
		Header: http.Header{"X-Extra": {"v"}}, Secrets: sec})
	if err != nil || string(rep.Body) != `{"ok":true}` || rep.StatusCode != 200 {
		t.Fatalf("%v %+v", err, rep)
	}
	checkDoQuota(t, srv.URL, key, sec)
	checkDoMalformed(t, srv.URL)
	checkDoTimeoutAndCancel(t, srv.URL)
	checkDoRefused(t, key, sec)
}

// doTestServer serves TestDo's paths: /ok (when the headers are right),
// /quota (a 429 that echoes the key), /big, /slow, /cut (a body shorter
// than its Content-Length).
func doTestServer(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/ok":
		if r.Header.Get("Content-Type") != "application/json" || r.Header.Get("User-Agent") != "ua/1" || r.Header.Get("X-Extra") != "v" {
			http.Error(w, "headers "+r.Header.Get("User-Agent"), 400)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	case "/quota":
		w.Header().Set("Retry-After", "3")
		http.Error(w, `{"error":{"code":"insufficient_quota","message":"echo `+r.URL.Query().Get("key")+`"}}`, http.StatusTooManyRequests)
	case "/big":
		w.Write([]byte(strings.Repeat("x", 100)))
	case "/slow":
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	case "/cut":
		w.Header().Set("Content-Length", "100")
		w.Write([]byte(`{"partial`))
	}
}

// checkDoQuota checks a quota 429: an HTTPError, not retryable, with its
// Retry-After, and the key redacted from the message and the URL.
func checkDoQuota(t *testing.T, url, key string, sec Redactor) {
	t.Helper()
	_, err := Do(t.Context(), nil, Call{Method: http.MethodGet, URL: url + "/quota?key=" + key, Secrets: sec})
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 429 || !he.Quota() || Retryable(err) || he.RetryAfter != 3*time.Second ||
		strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "?") || !strings.Contains(err.Error(), Redacted) {
		t.Errorf("quota: %v", err)
	}
}

// checkDoMalformed checks a body past MaxBody and one cut off are
// MalformedErrors, the first retryable.
func checkDoMalformed(t *testing.T, url string) {
	t.Helper()
	_, err := Do(t.Context(), nil, Call{URL: url + "/big", MaxBody: 10})
	var me *MalformedError
	if !errors.As(err, &me) || !Retryable(err) {
		t.Errorf("big: %v", err)
	}
	_, err = Do(t.Context(), nil, Call{URL: url + "/cut"})
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "body cut off") {
		t.Errorf("cut: %v", err)
	}
}

// checkDoTimeoutAndCancel checks a call past its Timeout is a
// TimeoutError, and a cancelled one context.Canceled, not retryable.
func checkDoTimeoutAndCancel(t *testing.T, url string) {
	t.Helper()
	_, err := Do(t.Context(), nil, Call{URL: url + "/slow", Timeout: 20 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(err, &te) || te.What != "Timeout" || !strings.HasPrefix(te.URL, url) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err = Do(ctx, nil, Call{URL: url + "/slow"})
	if !errors.Is(err, context.Canceled) || Retryable(err) {
		t.Errorf("cancelled: %v", err)
	}
}

// checkDoRefused checks a refused connection is a retryable
// TransportError naming the call without its query (the key) and asking
// whether the server runs.
func checkDoRefused(t *testing.T, key string, sec Redactor) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = Do(t.Context(), nil, Call{Method: http.MethodGet, URL: "http://" + addr + "/x?key=" + key, Secrets: sec})
	var tre *TransportError
	if !errors.As(err, &tre) || !Retryable(err) || strings.Contains(err.Error(), key) ||
		!strings.HasPrefix(err.Error(), "GET http://"+addr+"/x: ") || !strings.Contains(err.Error(), "is the server running?") {
		t.Errorf("refused: %v", err)
	}
}

// Bodies as Google, Brave, SearXNG's proxies and plain servers send them;
// the key is echoed in some, as misconfigured gateways do.
func TestErrorMessage(t *testing.T) {
	r := NewRedactor("k3y/secret")
	cases := []struct{ body, want string }{
		{`{"error":{"code":403,"message":"API key not valid. Please pass a valid API key.","status":"PERMISSION_DENIED"}}`,
			"API key not valid. Please pass a valid API key."},
		{`{"error":{"message":"bad key=k3y\/secret"}}`, "bad key=" + Redacted},
		{`{"error":{"detail":"quota"}}`, "quota"},
		{`{"message":"unauthorized"}`, "unauthorized"},
		{`{"error":"plain string"}`, `{"error":"plain string"}`},
		{"<html>\n  <b>502</b> Bad Gateway\n</html>", "<html> <b>502</b> Bad Gateway </html>"},
		{"", ""},
	}
	for _, tc := range cases {
		if got := r.ErrorMessage([]byte(tc.body), 0); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.body, got, tc.want)
		}
	}
	if got := r.ErrorMessage([]byte(`{"message":"`+strings.Repeat("x", 50)+`"}`), 10); got != strings.Repeat("x", 10)+"…" {
		t.Errorf("cut: %q", got)
	}
}
