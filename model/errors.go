package model

import (
	"errors"
	"fmt"
	"time"

	"github.com/paperlens/paperlens/internal/httpx"
)

// The error types of a failed call are the shared transport's
// (internal/httpx), so that the chat client, the embedding client and the
// web search providers classify failures, and are retried, the same way.
// They are aliases: errors.As(err, &he) with he a *model.HTTPError works
// as before, and so do struct literals in tests and fakes.

// HTTPError is a non-2xx answer from the server: StatusCode; URL (the
// endpoint without user info or query); Body, a short single-line excerpt
// with the API key and header values removed; RetryAfter, from Retry-After
// or retry-after-ms (0 when absent); Hint, what to check for errors
// retrying cannot fix; Param, the request parameter a 400 or 422 says the
// model or server does not accept (see UnsupportedParam).
//
// Retryable is true for 408, 409, 425, 429 (but not an exhausted quota,
// see Quota) and 5xx other than 501; 400, 401, 402, 403, 404, 413 and 422
// describe the request or the account and come back the same however
// often they are asked.
type HTTPError = httpx.HTTPError

// MalformedError is a 2xx answer that is not a usable chat completion: cut
// off, not JSON, no choices. Proxies and overloaded servers produce these
// now and then, so they are retried.
type MalformedError = httpx.MalformedError

// TransportError is a failure to get any HTTP answer: connection refused or
// reset, DNS, TLS. Err has had the API key removed. Retryable is false for
// certificate errors only.
type TransportError = httpx.TransportError

// TimeoutError is a call that got no complete answer in time: the client's
// Timeout or WithRetry's AttemptTimeout. A stalled server looks like this.
// errors.Is(err, context.DeadlineExceeded) holds for it.
type TimeoutError = httpx.TimeoutError

// Retryable reports whether err is worth another attempt: an error in its
// chain says so through a Retryable() bool method (HTTPError,
// MalformedError, TransportError, TimeoutError do), or it is a network
// error. Everything else, including context cancellation and errors from
// Chats that do not classify their errors, is final.
//
// A custom Chat opts its errors in by giving them a Retryable() bool
// method.
func Retryable(err error) bool { return httpx.Retryable(err) }

// RetryError is WithRetry's final error: the last attempt's error and how
// many attempts were made.
type RetryError struct {
	Model    string
	Attempts int
	Elapsed  time.Duration
	// Final is true when the last error was not retryable (an HTTP 401,
	// say), false when attempts ran out.
	Final bool
	Err   error
}

func (e *RetryError) Error() string {
	if e.Final {
		if e.Attempts == 1 {
			return fmt.Sprintf("%s: %v (not retried)", e.Model, e.Err)
		}
		return fmt.Sprintf("%s: %v (attempt %d, not retried)", e.Model, e.Err, e.Attempts)
	}
	return fmt.Sprintf("%s: gave up after %s in %v; last error: %v",
		e.Model, attempts(e.Attempts), e.Elapsed.Round(time.Millisecond), e.Err)
}

func (e *RetryError) Unwrap() error { return e.Err }

func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// UnsupportedParam reports the request parameter that err, somewhere in its
// chain, says the server refuses: a 400 or 422 naming it (see
// HTTPError.Param). Every request with that parameter will fail the same
// way, so a caller should stop and have the user change it.
func UnsupportedParam(err error) (string, bool) {
	var he *HTTPError
	if errors.As(err, &he) && he.Param != "" {
		return he.Param, true
	}
	return "", false
}

// ToolsUnsupported reports whether err says the model or server does not
// support tool calling: a 400 or 422 refusing "tools" or "tool_choice"
// (see UnsupportedParam), or a ToolsIgnoredError from a check that sent
// tools and got none of them used.
func ToolsUnsupported(err error) bool {
	if p, ok := UnsupportedParam(err); ok && isToolParam(p) {
		return true
	}
	var ig *ToolsIgnoredError
	return errors.As(err, &ig)
}

// ToolsIgnoredError is a server that took a request with tools and
// tool_choice "required" and answered with text, as servers that drop
// fields they do not know do: tool modes cannot run against it.
type ToolsIgnoredError struct {
	Model   string
	Content string // the start of what it answered instead
}

func (e *ToolsIgnoredError) Error() string {
	return fmt.Sprintf("model %s does not support tool calling here: asked to call a tool (tool_choice \"required\"), it answered in text (%q); use a model and server with function calling (vLLM needs --enable-auto-tool-choice and --tool-call-parser)",
		e.Model, e.Content)
}
