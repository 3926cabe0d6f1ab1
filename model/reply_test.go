package model_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// runaway is a reply text far over the 4 MiB default limit, as from a
// model repeating itself until the server's own limit: 30 MB with escapes
// and multi-byte characters, so that the cut can land in either.
func runaway() string {
	unit := "B, because \"§3\" says so; 日本語 \\ "
	return strings.Repeat(unit, 30<<20/len(unit)+1)
}

// The fake stands in for a server sending a 30 MB answer: the client reads
// 4 MiB, recovers the content up to the cut, and returns it as an answer
// marked Cut, not as an error (asking again would bring the same 30 MB).
func TestOpenAICutsRunawayReply(t *testing.T) {
	long := runaway()
	cases := []struct {
		name   string
		answer func(modeltest.Request) (string, string)
		// which field holds the long text
		content bool
	}{
		{"content", func(modeltest.Request) (string, string) { return long, "" }, true},
		{"reasoning, after a short answer", func(modeltest.Request) (string, string) { return "B", long }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Config{Answer: tc.answer})
			c := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: "k"})
			resp, err := c.Complete(t.Context(), ask("q"))
			if err != nil {
				t.Fatal(err)
			}
			got := resp.Content
			if !tc.content {
				if resp.Content != "B" {
					t.Errorf("content %q, want B", resp.Content)
				}
				got = resp.Reasoning
			}
			if !resp.Cut || resp.Attempts != 1 {
				t.Errorf("Cut %v, Attempts %d; want true, 1", resp.Cut, resp.Attempts)
			}
			// The JSON around the text and its escapes take some of the
			// 4 MiB; the text itself is most of it, and a prefix.
			if len(got) > model.DefaultMaxReplyBytes || len(got) < model.DefaultMaxReplyBytes*9/10 || !strings.HasPrefix(long, got) {
				t.Errorf("kept %d bytes, not a prefix of the reply of at most %d", len(got), model.DefaultMaxReplyBytes)
			}
		})
	}
	t.Run("a smaller MaxReplyBytes cuts there", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return long, "" }})
		c := newClient(t, model.Options{BaseURL: srv.BaseURL(), MaxReplyBytes: 1000})
		resp, err := c.Complete(t.Context(), ask("q"))
		if err != nil || !resp.Cut || len(resp.Content) >= 1000 || len(resp.Content) < 500 || !strings.HasPrefix(long, resp.Content) {
			t.Errorf("%v: Cut %v, %d bytes", err, resp.Cut, len(resp.Content))
		}
	})
	t.Run("a reply under the limit is not cut", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{})
		resp, err := newClient(t, model.Options{BaseURL: srv.BaseURL()}).Complete(t.Context(), ask("q"))
		if err != nil || resp.Cut || resp.Content != "answer: q" {
			t.Errorf("%v %+v", err, resp)
		}
	})
}

// A key the model echoes and the cut goes through leaves no prefix of
// itself in the answer, wherever in the key the cut falls.
func TestOpenAICutRedactsPartialKey(t *testing.T) {
	const key = "sk-SECRET-0123456789abcdef"
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) {
		return strings.Repeat("x", 900) + key + strings.Repeat("y", 1000), ""
	}})
	redacted := 0
	// The JSON before the content is some 100 bytes, so these cuts sweep
	// through the key.
	for limit := int64(950); limit < 1100; limit++ {
		c := newClient(t, model.Options{BaseURL: srv.BaseURL(), APIKey: key, MaxReplyBytes: limit})
		resp, err := c.Complete(t.Context(), ask("q"))
		if err != nil || !resp.Cut {
			t.Fatalf("%v, Cut %v", err, resp.Cut)
		}
		for n := 4; n <= len(key); n++ {
			if strings.Contains(resp.Content, key[:n]) {
				t.Fatalf("cut at %d: the content holds %q", limit, key[:n])
			}
		}
		if strings.HasSuffix(resp.Content, "x"+httpx.Redacted) {
			redacted++
		}
	}
	if redacted < len(key)-4 {
		t.Errorf("only %d cuts ended in the redacted key", redacted)
	}
}

// A cut answer goes into the cache like any other and comes out of it
// still marked Cut, so a resumed run says reply_cut too.
func TestCacheKeepsCut(t *testing.T) {
	long := runaway()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) { return long, "" }})
	chat, closer, err := model.Stack(newClient(t, model.Options{BaseURL: srv.BaseURL()}),
		model.StackOptions{CachePath: filepath.Join(t.TempDir(), "cache.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	first, err := chat.Complete(t.Context(), ask("q"))
	if err != nil || !first.Cut || first.Cached {
		t.Fatalf("%v: Cut %v, Cached %v", err, first.Cut, first.Cached)
	}
	again, err := chat.Complete(t.Context(), ask("q"))
	if err != nil || !again.Cut || !again.Cached || again.Content != first.Content || srv.Count() != 1 {
		t.Errorf("%v: Cut %v, Cached %v, same content %v, %d requests", err, again.Cut, again.Cached, again.Content == first.Content, srv.Count())
	}
}

// The fake stands in for a server whose reply stops half-way: headers and
// half the JSON, then nothing for 30 s. The call ends with the idle error
// (the limits that would otherwise end it are an hour away), and WithRetry
// takes it as retryable and gets the answer on the next attempt.
func TestReadIdleTimeout(t *testing.T) {
	stallBody := &modeltest.Fault{Kind: modeltest.StallBody, Stall: 30 * time.Second}
	t.Run("the bare client", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{Inject: firstN(1, stallBody)})
		c := newClient(t, model.Options{BaseURL: srv.BaseURL(), Timeout: time.Hour, ReadIdleTimeout: 200 * time.Millisecond})
		_, err := c.Complete(t.Context(), ask("q"))
		var te *model.TimeoutError
		if !errors.As(err, &te) || !te.Idle || !model.Retryable(err) {
			t.Fatalf("%T %v", err, err)
		}
		if want := "no byte for 200ms while reading the reply (--read-idle-timeout) from http://127.0.0.1:"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q, want it to start %q", err, want)
		}
	})
	t.Run("retried", func(t *testing.T) {
		srv := modeltest.NewServer(t, modeltest.Config{Inject: firstN(1, stallBody)})
		var seen []error
		c := model.WithRetry(newClient(t, model.Options{BaseURL: srv.BaseURL(), Timeout: time.Hour, ReadIdleTimeout: 200 * time.Millisecond}),
			model.RetryOptions{MinBackoff: time.Millisecond, AttemptTimeout: time.Hour,
				OnRetry: func(_ model.Request, _ int, _ time.Duration, err error) { seen = append(seen, err) }})
		resp, err := c.Complete(t.Context(), ask("q"))
		if err != nil || resp.Attempts != 2 || resp.Content != "answer: q" {
			t.Fatalf("%v %+v", err, resp)
		}
		var te *model.TimeoutError
		if len(seen) != 1 || !errors.As(seen[0], &te) || !te.Idle {
			t.Errorf("retried after %v, want one idle timeout", seen)
		}
	})
	t.Run("a negative ReadIdleTimeout is none", func(t *testing.T) {
		// The stall ends (and the rest of the body comes) after 300ms; with
		// no idle limit the call waits for it.
		srv := modeltest.NewServer(t, modeltest.Config{Inject: firstN(1, &modeltest.Fault{Kind: modeltest.StallBody, Stall: 300 * time.Millisecond})})
		c := newClient(t, model.Options{BaseURL: srv.BaseURL(), ReadIdleTimeout: -1})
		resp, err := c.Complete(t.Context(), ask("q"))
		if err != nil || resp.Content != "answer: q" {
			t.Errorf("%v %+v", err, resp)
		}
	})
}

// A long body that holds no chat completion before the cut (a proxy's
// page) is a retryable *MalformedError saying so, as it is uncut.
func TestOpenAICutNonJSON(t *testing.T) {
	page := "<html>" + strings.Repeat("overloaded ", 200) + "</html>"
	srv := modeltest.NewServer(t, modeltest.Config{Inject: raw200(page)})
	_, err := newClient(t, model.Options{BaseURL: srv.BaseURL(), MaxReplyBytes: 1000}).Complete(t.Context(), ask("q"))
	var me *model.MalformedError
	if !errors.As(err, &me) || !model.Retryable(err) || !strings.Contains(err.Error(), "longer than 1000 bytes (--max-reply-bytes) that is not JSON") {
		t.Errorf("%T %v", err, err)
	}
}
