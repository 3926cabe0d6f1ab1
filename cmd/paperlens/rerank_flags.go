package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve/rerank"
)

// rerankFlags are the reranking flags of search, ask, eval, eval retrieval
// and study (fixed names).
type rerankFlags struct {
	kind, baseURL, model, protocol, keyEnv string
	depth                                  int
}

const rerankHelp = `

Reranking (--rerank; default none, which is what ElaipBench did): retrieval
asks for --rerank-depth candidates (30), a second model reorders them, and
the best k are kept.
  none  the first-stage ranking as it is
  api   a cross-encoder behind a rerank endpoint (--rerank-base-url), in the
        protocol its server speaks (--rerank-protocol, auto by default):
          tei     Text Embeddings Inference: POST <url>/rerank with
                  {"query","texts"}; give its root, http://host:8080
          cohere  Cohere, Jina, vLLM, Infinity: POST <url>/rerank with
                  {"model","query","documents","top_n"}; give the
                  versioned root, http://host:8000/v1 (vLLM),
                  https://api.jina.ai/v1, https://api.cohere.com/v2
        auto picks cohere for a URL ending in /v1 or /v2, tei otherwise.
        One request per 32 passages; no key unless --rerank-api-key-env.
  llm   a chat model orders the passages listwise (RankGPT's prompt): a
        window of 20 passages slides from the back of the list to the
        front, 10 at a time, so depth 30 costs 2 calls of up to about 8k prompt
        tokens per question. --rerank-model (default --model, where the
        command has one) at --rerank-base-url (default --base-url, else
        $OPENAI_BASE_URL); answers are cached (in the run folder, or in
        --home for search and eval retrieval).`

func addRerankFlags(cmd *cobra.Command, f *rerankFlags) {
	cmd.Long += rerankHelp
	fl := cmd.Flags()
	fl.StringVar(&f.kind, "rerank", rerank.None, "second-stage reranking: none (the papers'), api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model, RankGPT-style)")
	fl.IntVar(&f.depth, "rerank-depth", rerank.DefaultDepth, "first-stage candidates the reranker reorders before the top k are kept")
	fl.StringVar(&f.baseURL, "rerank-base-url", "", "rerank server root: http://host:8080 (TEI), http://host:8000/v1 (vLLM), https://api.jina.ai/v1; for llm an OpenAI-compatible API root (default --base-url)")
	fl.StringVar(&f.model, "rerank-model", "", "reranker model: sent to cohere-protocol servers (e.g. BAAI/bge-reranker-v2-m3, jina-reranker-v2-base-multilingual); for llm the chat model (default --model)")
	fl.StringVar(&f.protocol, "rerank-protocol", "auto", "api: tei (POST /rerank {query,texts}), cohere (POST /v1/rerank {model,query,documents,top_n}: Cohere, Jina, vLLM, Infinity) or auto (cohere when the URL ends in /v1 or /v2)")
	fl.StringVar(&f.keyEnv, "rerank-api-key-env", "", "environment variable holding the reranker's key (api: none sent by default; llm: default --api-key-env, else OPENAI_API_KEY)")
}

// check refuses settings that cannot work, before anything is opened.
func (f *rerankFlags) check() error {
	switch f.kind {
	case rerank.None, "":
		return nil
	case rerank.API:
		if f.baseURL == "" {
			return fmt.Errorf("--rerank api needs --rerank-base-url: the rerank server's root, e.g. http://localhost:8080 (TEI) or http://localhost:8000/v1 (vLLM)")
		}
	case rerank.LLM:
	default:
		return fmt.Errorf("--rerank %q: use none, api (a /rerank endpoint: TEI, vLLM, Jina, Cohere) or llm (a chat model)", f.kind)
	}
	if f.depth < 1 {
		return fmt.Errorf("--rerank-depth %d: give at least 1 candidate (30 is the default)", f.depth)
	}
	switch f.protocol {
	case "auto", "", rerank.TEI, rerank.Cohere:
	default:
		return fmt.Errorf("--rerank-protocol %q: use auto, tei or cohere", f.protocol)
	}
	return nil
}

// api builds the API reranker.
func (f *rerankFlags) api() (*rerank.APIReranker, error) {
	proto := f.protocol
	if proto == "auto" {
		proto = ""
	}
	key := ""
	if f.keyEnv != "" {
		key = os.Getenv(f.keyEnv)
	}
	rr, err := rerank.NewAPI(rerank.APIOptions{BaseURL: f.baseURL, Protocol: proto, Model: f.model, APIKey: key})
	if err != nil {
		return nil, fmt.Errorf("--rerank-base-url: %w", err)
	}
	return rr, nil
}

// apply records the flags in a run's config, defaults resolved: llm asks
// the answering model at its URL unless told otherwise.
func (f *rerankFlags) apply(c *run.Config) error {
	if err := f.check(); err != nil {
		return err
	}
	c.Rerank, c.RerankDepth, c.RerankModel, c.RerankBaseURL, c.RerankProtocol = "", 0, "", "", ""
	switch f.kind {
	case rerank.API:
		rr, err := f.api()
		if err != nil {
			return err
		}
		c.RerankProtocol, c.RerankBaseURL, c.RerankModel = rr.Protocol(), f.baseURL, f.model
	case rerank.LLM:
		c.RerankModel, c.RerankBaseURL = f.model, f.baseURL
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
	c.Rerank, c.RerankDepth = f.kind, f.depth
	return nil
}

// forRun builds the reranker of an eval, ask or study run from its
// config. The llm reranker shares the answering model's stack (cache,
// retries, limits) when it asks the same server; otherwise it gets a stack
// of its own, cached in dir/rerank.
func (f *rerankFlags) forRun(c run.Config, answer model.Chat, dir string, ef *evalFlags, logw io.Writer) (rerank.Reranker, io.Closer, error) {
	if c.Rerank != rerank.LLM {
		return f.notLLM(c.Rerank)
	}
	req := model.Request{MaxTokens: rerank.DefaultReplyTokens}
	if c.Paradigm != run.Reasoning {
		zero := 0.0
		req.Temperature = &zero
	} else {
		req.MaxTokens, req.MaxTokensParam = c.MaxTokens, c.MaxTokensParam
	}
	// The URL as given (config.json keeps it without user info or query).
	base := f.baseURL
	if base == "" {
		base = c.BaseURL
	}
	chat, closer := answer, io.Closer(noClose{})
	if answer != nil && model.NormalizeEndpoint(base) == model.NormalizeEndpoint(c.BaseURL) {
		// The same server: its headers and extra body (e.g. Qwen3's
		// chat_template_kwargs) apply too.
		req.Header, req.ExtraBody = ef.header, c.ExtraBody
	} else {
		keyEnv := f.keyEnv
		if keyEnv == "" {
			keyEnv = ef.apiKeyEnv
		}
		if err := checkKey(base, keyEnv, "rerank-", logw); err != nil {
			return nil, nil, err
		}
		var err error
		chat, closer, err = newChat(filepath.Join(dir, "rerank"), base, os.Getenv(keyEnv), ef, c.Concurrency)
		if err != nil {
			return nil, nil, err
		}
	}
	rr, err := rerank.NewLLM(rerank.LLMOptions{Chat: chat, Model: c.RerankModel, Request: req,
		Warn: func(msg string) { fmt.Fprintln(logw, msg) }})
	if err != nil {
		closer.Close()
		return nil, nil, err
	}
	return rr, closer, nil
}

// dryRunNote says what a dry run leaves out: it reranks nothing (that
// would send requests), so its prompts hold the first stage's top k, the
// same number of passages.
func (f *rerankFlags) dryRunNote(c run.Config, logw io.Writer) {
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

// standalone builds the reranker of search and eval retrieval, which have
// no answering model: llm gets a stack of its own, cached under home.
func (f *rerankFlags) standalone(home string, logw io.Writer) (rerank.Reranker, io.Closer, error) {
	if err := f.check(); err != nil {
		return nil, nil, err
	}
	if f.kind != rerank.LLM {
		return f.notLLM(f.kind)
	}
	if f.model == "" {
		return nil, nil, fmt.Errorf("--rerank llm needs --rerank-model: the chat model that orders the passages, served at --rerank-base-url")
	}
	base := f.baseURL
	if base == "" {
		base = os.Getenv("OPENAI_BASE_URL")
	}
	keyEnv := f.keyEnv
	if keyEnv == "" {
		keyEnv = "OPENAI_API_KEY"
	}
	if err := checkKey(base, keyEnv, "rerank-", logw); err != nil {
		return nil, nil, err
	}
	dir := filepath.Join(home, "rerank")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	oa, err := model.NewOpenAI(model.Options{BaseURL: base, APIKey: os.Getenv(keyEnv), APIKeyEnv: keyEnv, Timeout: 10 * time.Minute})
	if err != nil {
		return nil, nil, fmt.Errorf("--rerank-base-url: %w", err)
	}
	chat, closer, err := model.Stack(oa, model.StackOptions{CachePath: filepath.Join(dir, "cache.db"), Endpoint: base,
		Retry: model.RetryOptions{MaxAttempts: 6, AttemptTimeout: 10 * time.Minute}, Concurrency: 4})
	if err != nil {
		return nil, nil, err
	}
	zero := 0.0
	rr, err := rerank.NewLLM(rerank.LLMOptions{Chat: chat, Model: f.model, Request: model.Request{Temperature: &zero},
		Warn: func(msg string) { fmt.Fprintln(logw, msg) }})
	if err != nil {
		closer.Close()
		return nil, nil, err
	}
	return rr, closer, nil
}

// noClose is the Closer of a reranker that holds nothing open.
type noClose struct{}

func (noClose) Close() error { return nil }

// notLLM is the reranker of a kind other than llm: the API reranker for
// api, none otherwise.
func (f *rerankFlags) notLLM(kind string) (rerank.Reranker, io.Closer, error) {
	if kind == rerank.API {
		rr, err := f.api()
		return rr, noClose{}, err
	}
	return nil, noClose{}, nil
}
