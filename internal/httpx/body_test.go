package httpx

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// With CutOK a body over MaxBody is its first MaxBody bytes, marked Cut,
// and no error; without it, the error it always was. The server offers
// far more than it is let send: how much it managed to write shows the
// client stopped reading near the limit instead of draining the rest.
func TestDoCutsLongBody(t *testing.T) {
	const limit = 1 << 10
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 4<<10)
		for range 8 << 10 { // 32 MiB offered
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer srv.Close()

	rep, err := Do(t.Context(), nil, Call{URL: srv.URL, MaxBody: limit, CutOK: true})
	if err != nil || !rep.Cut || len(rep.Body) != limit || rep.StatusCode != 200 {
		t.Fatalf("cut: %v, Cut %v, %d bytes", err, rep.Cut, len(rep.Body))
	}
	srv.Close() // waits for the handler, which returns once the connection is gone
	// Socket buffers hold a few MiB at most; draining would take all 32.
	if w := written.Load(); w >= 32<<20 {
		t.Errorf("the server wrote all %d bytes: the client drained the body", w)
	}

	small := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(strings.Repeat("y", limit)))
	}))
	defer small.Close()
	rep, err = Do(t.Context(), nil, Call{URL: small.URL, MaxBody: limit, CutOK: true})
	if err != nil || rep.Cut || len(rep.Body) != limit {
		t.Errorf("exactly MaxBody is not cut: %v, Cut %v, %d bytes", err, rep.Cut, len(rep.Body))
	}
	_, err = Do(t.Context(), nil, Call{URL: small.URL, MaxBody: 10})
	var me *MalformedError
	if !errors.As(err, &me) {
		t.Errorf("without CutOK: %v", err)
	}
}

// pipeTransport answers every request with 200 and a body fed by feed,
// in memory, so that it runs inside a synctest bubble (a loopback server
// cannot). Like net/http's transport, it ends the body when the request's
// context ends.
type pipeTransport struct {
	feed func(w io.Writer) // writes the body; returning ends it
}

func (p pipeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	go func() {
		p.feed(pw)
		pw.Close()
	}()
	go func() {
		<-req.Context().Done()
		pw.CloseWithError(req.Context().Err())
	}()
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: pr, Request: req}, nil
}

// The idle limit is checked on the fake clock of a synctest bubble, so
// the instant the call ends is exact: IdleTimeout after the last byte, not
// after the start, and not at all while bytes keep coming.
func TestDoIdleTimeoutClock(t *testing.T) {
	const idle = 200 * time.Millisecond
	t.Run("a body that stops is given up IdleTimeout after its last byte", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			stall := make(chan struct{})
			defer close(stall)
			// The feed runs on the transport's goroutine: nothing but this
			// lock orders its write of last before the read below.
			var mu sync.Mutex
			var last time.Time
			hc := &http.Client{Transport: pipeTransport{feed: func(w io.Writer) {
				for range 3 {
					w.Write([]byte(`{"a":`))
					mu.Lock()
					last = time.Now()
					mu.Unlock()
					time.Sleep(idle / 2)
				}
				<-stall
			}}}
			_, err := Do(t.Context(), hc, Call{URL: "http://model.test/v1", IdleTimeout: idle, IdleName: "--read-idle-timeout"})
			var te *TimeoutError
			if !errors.As(err, &te) || !te.Idle || te.URL != "http://model.test/v1" || !Retryable(err) {
				t.Fatalf("%T %v", err, err)
			}
			mu.Lock()
			got := time.Since(last)
			mu.Unlock()
			if got != idle {
				t.Errorf("ended %v after the last byte, want %v", got, idle)
			}
			if want := "no byte for 200ms while reading the reply (--read-idle-timeout) from http://model.test/v1"; err.Error() != want {
				t.Errorf("%q, want %q", err, want)
			}
		})
	})
	t.Run("a slow but steady body is read whole", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			hc := &http.Client{Transport: pipeTransport{feed: func(w io.Writer) {
				for range 20 { // 20 × 150ms: far past IdleTimeout in all
					w.Write([]byte("x"))
					time.Sleep(idle * 3 / 4)
				}
			}}}
			rep, err := Do(t.Context(), hc, Call{URL: "http://model.test/v1", IdleTimeout: idle})
			if err != nil || len(rep.Body) != 20 {
				t.Fatalf("%v, %d bytes", err, len(rep.Body))
			}
		})
	})
}

// Acceptance against a real loopback server: headers and half a body,
// then silence. The call ends with the idle error, though the caller's
// context and Timeout allow far longer; and a server slow to send its
// headers (a reasoning model thinking) is not cut by the idle limit.
func TestDoIdleTimeoutLoopback(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/think" {
			time.Sleep(500 * time.Millisecond) // longer than the idle limit, before any header
			w.Write([]byte(`{"ok":true}`))
			return
		}
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(200)
		w.Write([]byte(`{"choices":[{"message":{"content":"half`))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)

	ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	_, err := Do(ctx, nil, Call{URL: srv.URL + "/stall", Timeout: time.Hour, IdleTimeout: 100 * time.Millisecond, IdleName: "--read-idle-timeout"})
	var te *TimeoutError
	if !errors.As(err, &te) || !te.Idle || !strings.Contains(err.Error(), "while reading the reply (--read-idle-timeout)") || !Retryable(err) {
		t.Fatalf("stalled body: %T %v", err, err)
	}
	if ctx.Err() != nil {
		t.Fatal("the caller's context ended; the idle limit should have")
	}

	rep, err := Do(ctx, nil, Call{URL: srv.URL + "/think", IdleTimeout: 100 * time.Millisecond})
	if err != nil || string(rep.Body) != `{"ok":true}` {
		t.Errorf("slow headers: %v %q", err, rep.Body)
	}
}

// A secret cut in two at the end of a reply leaves no prefix of itself.
func TestRedactCut(t *testing.T) {
	r := NewRedactor("sk-SECRET-123456")
	cases := map[string]string{
		"echo sk-SECRET-123456 done": "echo " + Redacted + " done",
		"echo sk-SECRET-12":          "echo " + Redacted,
		"echo sk-S":                  "echo " + Redacted,
		"echo sk-":                   "echo sk-", // three bytes name nothing
		"plain text":                 "plain text",
	}
	for in, want := range cases {
		if got := r.RedactCut(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
