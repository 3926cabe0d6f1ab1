package session

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// checkKey says when the key variable is empty: an error for OpenAI's own
// API, which always needs one, a note otherwise (local servers need none).
func checkKey(baseURL, keyEnv, prefix string, env func(string) string, logw io.Writer) error {
	if env(keyEnv) != "" {
		return nil
	}
	if baseURL == "" || strings.Contains(strings.ToLower(model.NormalizeEndpoint(baseURL)), "api.openai.com") {
		return fmt.Errorf("$%s is empty and the %sbase URL is OpenAI's API, which needs a key: export %s=..., or pass --%sapi-key-env NAME, or --%sbase-url for a local server",
			keyEnv, prefix, keyEnv, prefix, prefix)
	}
	fmt.Fprintf(logw, "note: $%s is empty, so no API key is sent to %s (fine for a local server; set it or --%sapi-key-env otherwise)\n",
		keyEnv, model.NormalizeEndpoint(baseURL), prefix)
	return nil
}

func (s *Session) checkKey(baseURL, keyEnv, prefix string) error {
	return checkKey(baseURL, keyEnv, prefix, s.req.Getenv, s.req.log())
}

// stack builds a client through model.Stack with its response cache in
// dir/cache.db (the one way paperlens stacks a chat client).
func stack(base model.Chat, dir string, o model.StackOptions) (model.Chat, io.Closer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("create the response cache's folder: %w", err)
	}
	o.CachePath = filepath.Join(dir, "cache.db")
	return model.Stack(base, o)
}

// newChat stacks a model client: response cache (in dir) → retry with
// backoff → rate limit → concurrency gate → HTTP. The session closes it.
func (s *Session) newChat(dir, baseURL, keyEnv string, concurrency int) (model.Chat, error) {
	// 401 hints name the answering model's variable, as they always have.
	o, err := s.modelOptions(baseURL, keyEnv, s.cfg.APIKeyEnv)
	if err != nil {
		return nil, err
	}
	base, err := model.NewOpenAI(o)
	if err != nil {
		return nil, err
	}
	cl := s.req.Clients
	chat, closer, err := stack(base, dir, model.StackOptions{
		Endpoint: baseURL,
		Retry:    model.RetryOptions{MaxAttempts: cl.MaxAttempts, AttemptTimeout: cl.AttemptTimeout},
		RPM:      s.cfg.RPM, TPM: s.cfg.TPM, Concurrency: concurrency, Flights: s.flights,
	})
	if err != nil {
		return nil, err
	}
	s.onClose(closer.Close)
	return chat, nil
}

// modelOptions are a model client's options: the key read from keyEnv
// (never shown; shownEnv names it in 401 hints), the reply limits and
// time-outs.
func (s *Session) modelOptions(baseURL, keyEnv, shownEnv string) (model.Options, error) {
	cl := s.req.Clients
	if cl.MaxReplyBytes < 0 || cl.ReadIdleTimeout < 0 {
		return model.Options{}, fmt.Errorf("reply limits %d bytes, %v idle: give a positive size (0: the default, 4 MiB) and a duration (0: none)", cl.MaxReplyBytes, cl.ReadIdleTimeout)
	}
	idle := cl.ReadIdleTimeout
	if idle == 0 {
		idle = -1 // the session's 0 is off; model.Options' 0 is the default
	}
	return model.Options{BaseURL: baseURL, APIKey: s.req.Getenv(keyEnv), APIKeyEnv: shownEnv, Timeout: cl.AttemptTimeout,
		MaxReplyBytes: cl.MaxReplyBytes, ReadIdleTimeout: idle}, nil
}

// preflight makes one small call before the run, through a client of its
// own (no cache, two attempts), so that a dead endpoint, a rejected key, an
// unknown model or a refused request field stops the run before anything is
// written.
func (s *Session) preflight(ctx context.Context, baseURL, keyEnv, modelName string, sm run.Sampling, header http.Header, prefix string) error {
	o, err := s.modelOptions(baseURL, keyEnv, "$"+keyEnv)
	if err != nil {
		return err
	}
	base, err := model.NewOpenAI(o)
	if err != nil {
		return err
	}
	chat, _, err := model.Stack(base, model.StackOptions{Concurrency: -1, Flights: s.flights,
		Retry: model.RetryOptions{MaxAttempts: 2, MinBackoff: 200 * time.Millisecond, MaxBackoff: time.Second, AttemptTimeout: s.req.Clients.AttemptTimeout}})
	if err != nil {
		return err
	}
	return run.Preflight(ctx, chat, modelName, sm, header, prefix)
}
