package session

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// Rerank is the second stage of retrieval: none (the papers'), api (a
// rerank endpoint) or llm (a chat model ordering passages RankGPT-style).
type Rerank struct {
	Kind, BaseURL, Model, Protocol, KeyEnv string
	Depth                                  int
}

// Check refuses settings that cannot work, before anything is opened.
func (r Rerank) Check() error {
	switch r.Kind {
	case rerank.None, "":
		return nil
	case rerank.API:
		if r.BaseURL == "" {
			return fmt.Errorf("--rerank api needs --rerank-base-url: the rerank server's root, e.g. http://localhost:8080 (TEI) or http://localhost:8000/v1 (vLLM)")
		}
	case rerank.LLM:
	default:
		return fmt.Errorf("--rerank %q: use none, api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model)", r.Kind)
	}
	if r.Depth < 1 {
		return fmt.Errorf("--rerank-depth %d: give at least 1 candidate (30 is the default)", r.Depth)
	}
	switch r.Protocol {
	case "auto", "", rerank.TEI, rerank.Cohere:
	default:
		return fmt.Errorf("--rerank-protocol %q: use auto, tei or cohere", r.Protocol)
	}
	return nil
}

// api builds the API reranker.
func (r Rerank) api(env func(string) string) (*rerank.APIReranker, error) {
	proto := r.Protocol
	if proto == "auto" {
		proto = ""
	}
	key := ""
	if r.KeyEnv != "" {
		key = env(r.KeyEnv)
	}
	rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: r.BaseURL, Protocol: proto, Model: r.Model, APIKey: key})
	if err != nil {
		return nil, fmt.Errorf("--rerank-base-url: %w", err)
	}
	return rr, nil
}

// apply records the reranker in a run's config, defaults resolved: llm
// asks the answering model at its URL unless told otherwise.
func (r Rerank) apply(c *run.Config, env func(string) string) error {
	if err := r.Check(); err != nil {
		return err
	}
	c.Rerank, c.RerankDepth, c.RerankModel, c.RerankBaseURL, c.RerankProtocol = "", 0, "", "", ""
	switch r.Kind {
	case rerank.API:
		rr, err := r.api(env)
		if err != nil {
			return err
		}
		c.RerankProtocol, c.RerankBaseURL, c.RerankModel = rr.Protocol(), r.BaseURL, r.Model
	case rerank.LLM:
		c.RerankModel, c.RerankBaseURL = r.Model, r.BaseURL
		if c.RerankModel == "" && !c.Offline() {
			c.RerankModel = c.Model
		}
		if c.RerankBaseURL == "" {
			c.RerankBaseURL = c.BaseURL
		}
		if c.RerankModel == "" {
			return fmt.Errorf("--rerank llm needs --rerank-model: the answering model %s is an offline baseline and cannot order passages", c.Model)
		}
	default:
		return nil
	}
	c.Rerank, c.RerankDepth = r.Kind, r.Depth
	return nil
}

// forRun builds the reranker of an eval, ask or study run from its
// config. The llm reranker shares the answering model's stack (cache,
// retries, limits) when it asks the same server; otherwise it gets a stack
// of its own, cached in dir/rerank.
func (s *Session) forRun(answer model.Chat, dir string) (rerank.Reranker, error) {
	c, r := s.cfg, s.req.Rerank
	if c.Rerank != rerank.LLM {
		return r.notLLM(c.Rerank, s.req.Getenv)
	}
	req := model.Request{MaxTokens: rerank.DefaultReplyTokens}
	if c.Paradigm != run.Reasoning {
		zero := 0.0
		req.Temperature = &zero
	} else {
		req.MaxTokens, req.MaxTokensParam = c.MaxTokens, c.MaxTokensParam
	}
	// The URL as given (config.json keeps it without user info or query).
	base := r.BaseURL
	if base == "" {
		base = c.BaseURL
	}
	chat := answer
	if answer != nil && model.NormalizeEndpoint(base) == model.NormalizeEndpoint(c.BaseURL) {
		// The same server: its headers and extra body (e.g. Qwen3's
		// chat_template_kwargs) apply too.
		req.Header, req.ExtraBody = s.req.Clients.Header, c.ExtraBody
	} else {
		keyEnv := r.KeyEnv
		if keyEnv == "" {
			keyEnv = c.APIKeyEnv
		}
		if err := s.checkKey(base, keyEnv, "rerank-"); err != nil {
			return nil, err
		}
		var err error
		if chat, err = s.newChat(filepath.Join(dir, "rerank"), base, keyEnv, c.Concurrency); err != nil {
			return nil, err
		}
	}
	log := s.req.log()
	return rerank.NewLLM(rerank.LLMOptions{Chat: chat, Model: c.RerankModel, Request: req,
		Warn: func(msg string) { fmt.Fprintln(log, msg) }})
}

// dryRunNote says what a dry run leaves out: it reranks nothing (that
// would send requests), so its prompts hold the first stage's top k, the
// same number of passages.
func dryRunNote(c run.Config, logw io.Writer) {
	switch c.Rerank {
	case rerank.API:
		fmt.Fprintf(logw, "note: a dry run does not rerank; prompts are counted with the first stage's top %d, and --rerank api would add one request of up to %d passages per question and retriever to %s\n",
			c.K, c.RerankDepth, model.NormalizeEndpoint(c.RerankBaseURL))
	case rerank.LLM:
		fmt.Fprintf(logw, "note: a dry run does not rerank; prompts are counted with the first stage's top %d, and --rerank llm would add up to %d calls to %s per question and retriever (windows of %d over %d candidates), each about %d passages of up to %d words\n",
			c.K, len(rerank.Windows(c.RerankDepth, rerank.DefaultWindow, rerank.DefaultStep)), c.RerankModel,
			rerank.DefaultWindow, c.RerankDepth, rerank.DefaultWindow, rerank.DefaultPassageWords)
	}
}

// Standalone builds the reranker of search and eval retrieval, which have
// no answering model: llm gets a stack of its own, cached under home.
// The Closer closes its cache; warnings and key notes go to logw.
func (r Rerank) Standalone(home string, vars map[string]string, logw io.Writer) (rerank.Reranker, io.Closer, error) {
	env, logw := envOf(vars), logOf(logw)
	if err := r.Check(); err != nil {
		return nil, nil, err
	}
	if r.Kind != rerank.LLM {
		rr, err := r.notLLM(r.Kind, env)
		return rr, noClose{}, err
	}
	if r.Model == "" {
		return nil, nil, fmt.Errorf("--rerank llm needs --rerank-model: the chat model that orders the passages, served at --rerank-base-url")
	}
	base := r.BaseURL
	if base == "" {
		base = env("OPENAI_BASE_URL")
	}
	keyEnv := r.KeyEnv
	if keyEnv == "" {
		keyEnv = "OPENAI_API_KEY"
	}
	if err := checkKey(base, keyEnv, "rerank-", env, logw); err != nil {
		return nil, nil, err
	}
	oa, err := model.NewOpenAI(model.Options{BaseURL: base, APIKey: env(keyEnv), APIKeyEnv: keyEnv, Timeout: 10 * time.Minute})
	if err != nil {
		return nil, nil, fmt.Errorf("--rerank-base-url: %w", err)
	}
	chat, closer, err := stack(oa, filepath.Join(home, "rerank"), model.StackOptions{Endpoint: base,
		Retry: model.RetryOptions{MaxAttempts: 6, AttemptTimeout: 10 * time.Minute}, Concurrency: 4})
	if err != nil {
		return nil, nil, err
	}
	zero := 0.0
	rr, err := rerank.NewLLM(rerank.LLMOptions{Chat: chat, Model: r.Model, Request: model.Request{Temperature: &zero},
		Warn: func(msg string) { fmt.Fprintln(logw, msg) }})
	if err != nil {
		closer.Close()
		return nil, nil, err
	}
	return rr, closer, nil
}

// SweepWrap lets a sweep's rerank setting name the reranker rr that these
// settings built (api or llm): the sweep wraps each retriever with it,
// reranking the top Depth. nil when rr is nil: then only "none" and the
// gold bound can be swept.
func (r Rerank) SweepWrap(rr rerank.Reranker) func(string, retrieve.Retriever) (retrieve.Retriever, error) {
	if rr == nil {
		return nil
	}
	return func(name string, ret retrieve.Retriever) (retrieve.Retriever, error) {
		if name != r.Kind {
			return nil, fmt.Errorf("--sweep-rerank %s: the sweep reranks with what --rerank configures (%s); name that", name, r.Kind)
		}
		return rerank.Wrap(ret, rr, r.Depth), nil
	}
}

// noClose is the Closer of a reranker that holds nothing open.
type noClose struct{}

func (noClose) Close() error { return nil }

// notLLM is the reranker of a kind other than llm: the API reranker for
// api, none otherwise.
func (r Rerank) notLLM(kind string, env func(string) string) (rerank.Reranker, error) {
	if kind != rerank.API {
		return nil, nil
	}
	rr, err := r.api(env)
	if err != nil {
		return nil, err
	}
	return rr, nil
}
