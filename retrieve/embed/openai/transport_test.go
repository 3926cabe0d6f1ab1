package openai_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/httpx"
	"github.com/paperlens/paperlens/internal/testkit/openaitest"
	"github.com/paperlens/paperlens/retrieve/embed"
	"github.com/paperlens/paperlens/retrieve/embed/openai"
)

// The fake stands in for OpenAI refusing an account whose credit is gone:
// the 429 looks like a rate limit but waiting will not help, so the
// client must not retry it, and the error is the shared transport's.
func TestQuotaNotRetried(t *testing.T) {
	s := openaitest.NewServer(t, 4)
	s.Fail = func(int, openaitest.Request) *openaitest.Failure {
		return &openaitest.Failure{Status: 429, Body: `{"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}`}
	}
	c := newClient(t, s, openai.Options{MaxRetries: 3})
	_, err := c.Embed(context.Background(), []string{"x"}, embed.Query)
	var be *openai.BatchError
	var oe *openai.HTTPError
	var he *httpx.HTTPError
	if !errors.As(err, &be) || be.Tries != 1 || len(s.Requests()) != 1 {
		t.Fatalf("want one try, got %v", err)
	}
	if !errors.As(err, &oe) || oe.StatusCode != 429 || !strings.Contains(err.Error(), "quota is exhausted") {
		t.Errorf("package error: %v", err)
	}
	if !errors.As(err, &he) || !he.Quota() || !strings.HasSuffix(he.URL, "/v1/embeddings") {
		t.Errorf("shared error %+v", he)
	}
}

// A proxy quoting the key JSON-escaped, slashes as \/, must not get it
// into an error either.
func TestEscapedKeyRedacted(t *testing.T) {
	const key = "sk-proj-a/b+c_0123456789"
	s := openaitest.NewServer(t, 4)
	s.Fail = func(int, openaitest.Request) *openaitest.Failure {
		return &openaitest.Failure{Status: 400, Body: `{"error":{"message":"bad key sk-proj-a\/b+c_0123456789"}}`}
	}
	c := newClient(t, s, openai.Options{APIKey: key})
	_, err := c.Embed(context.Background(), []string{"x"}, embed.Query)
	if err == nil || strings.Contains(err.Error(), "0123456789") || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("error %v", err)
	}
}
