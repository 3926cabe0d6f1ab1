// Package model calls chat models over the OpenAI-compatible
// /v1/chat/completions protocol (OpenAI, vLLM, Ollama, llama.cpp,
// DeepSeek, OpenRouter) for the evaluation runs: thousands of paid calls
// over days, which must survive rate limits, overloaded and stalled
// servers, and a killed process, without paying twice for an answer.
//
// Everything is one interface, Chat, and decorators over it, each in its
// own file, in the style of restic's backends:
//
//	base, err := model.NewOpenAI(model.Options{
//		BaseURL:   "https://api.deepseek.com/v1",
//		APIKey:    os.Getenv("DEEPSEEK_API_KEY"),
//		APIKeyEnv: "$DEEPSEEK_API_KEY", // named in 401 hints
//	})
//	chat, closer, err := model.Stack(base, model.StackOptions{
//		CachePath: filepath.Join(home, "responses.db"),
//		RPM: 500, TPM: 2_000_000, Concurrency: 16,
//	})
//	defer closer.Close()
//	resp, err := chat.Complete(ctx, model.Request{Model: "deepseek-reasoner", Messages: msgs, Run: 2})
//
// Stack builds Cache → Retry → RateLimit → Concurrency → OpenAI: a cache
// hit skips every limit; each retry is rate-limited and queued like a
// first call. The layers can be composed by hand (WithCache, WithRetry,
// WithRateLimit, WithConcurrency) and over any Chat (ChatFunc adapts a
// function).
//
// # The client
//
// NewOpenAI is plain net/http and encoding/json on internal/httpx, the
// transport the embedding client (retrieve/embed/openai) and the web search
// providers (retrieve/web) share: one call function, one error family, one
// redaction, one Retry-After parser and one retry loop (which WithRetry
// drives). It is not the openai-go SDK. Measured against v3.96.0: its
// NewClient sent OPENAI_API_KEY and OPENAI_ORG_ID from the environment to a
// loopback server that was given neither (here the user's OpenAI key would
// reach a local vLLM); its typed message has no reasoning_content or
// reasoning field (only raw ExtraFields) and returns content sent as text
// parts as the raw JSON array; it retries on its own (3 calls on a 503
// unless WithMaxRetries(0)); it cannot serve the search providers, which
// would keep a second base; and it grows the paperlens binary from 62 to
// 91 MB. The README's "One transport for remote clients" has the numbers.
//
// The client reads no environment variable (only net/http's standard
// HTTPS_PROXY and NO_PROXY apply, through the default transport). It sends
// the key only in the Authorization header and removes it (raw,
// JSON-escaped, or with "\/" slashes) from every error, body excerpt and
// answer, in case a server or proxy echoes headers back. Errors are typed,
// as aliases of internal/httpx's, so that WithRetry (or a caller) can tell
// what to do, the same way for every remote client:
//
//   - *HTTPError: a non-2xx status with a 300-character excerpt of the
//     body, Retry-After, and for final statuses a Hint, e.g.
//     "401 Unauthorized from https://api.deepseek.com/v1/chat/completions:
//     {…}: check the API key in $DEEPSEEK_API_KEY".
//   - *MalformedError: a 2xx that is not a usable completion (cut-off body,
//     bad JSON, no choices): retryable.
//   - *TransportError: no answer at all (refused, reset, DNS): retryable
//     except certificate errors.
//   - *TimeoutError: no complete answer within Options.Timeout (default 10
//     minutes, since reasoning models think for minutes before a
//     non-streamed answer's first byte) or WithRetry's AttemptTimeout; or
//     a body that began and then stopped for Options.ReadIdleTimeout
//     (default 60 s, counted from the headers, Idle set): retryable.
//
// A reply longer than Options.MaxReplyBytes (default 4 MiB) is no error:
// it is cut while read, the content and reasoning before the cut are
// recovered from the cut JSON, and the Response says Cut (the cache keeps
// the flag). The client never streams (it sends "stream": false), so the
// cap is on the one body.
//
// Reasoning comes from "reasoning_content" (DeepSeek, vLLM, Qwen) or
// "reasoning" (newer vLLM, Ollama), or from an inline "<think>…</think>"
// block that the client moves out of Content (SplitThink); usage from
// "usage", with completion_tokens_details.reasoning_tokens and
// prompt_tokens_details.cached_tokens.
//
// Request fields that are unset are not sent, so reasoning models that
// refuse sampling parameters get none. o-series and GPT-5 models need
// MaxTokensParam = "max_completion_tokens"; ReasoningEffort,
// ExtraBody (merged into the JSON body: chat_template_kwargs for Qwen3 on
// vLLM, thinking budgets for gateways) and Header (gateway headers, whose
// values are redacted like the key) cover the rest. A 400 or 422 that names
// a refused parameter is an *HTTPError with Param set (UnsupportedParam),
// which no retry can fix.
//
// # Retries
//
// WithRetry (on httpx.Retry, the loop the embedding client and the web
// Searcher use too) retries HTTP 408, 409, 425, 429 and 5xx but 501,
// malformed replies, dropped connections and timeouts, up to MaxAttempts
// (6) calls, waiting
// min(MaxBackoff, MinBackoff·2ⁿ) with full jitter (1 s, 2 s, 4 s … 60 s
// ceilings) and never less than the server's Retry-After or
// retry-after-ms. A 429 that is an exhausted quota, 400, 401, 402, 403, 404,
// 413 and 422 fail at once. The final error is a *RetryError: "gpt-4o: gave
// up after 6 attempts in 41.2s; last error: 503 …". A cancelled context
// ends any wait at once.
//
// A stalled server (connection open, no bytes) is cut at AttemptTimeout.
// The timer stops while the call is queued in WithRateLimit or
// WithConcurrency (see Queued), so 400 questions behind 16 slots do not
// time out waiting for their turn. The timer belongs to the attempt, not
// the shared loop, which hands each attempt its context untouched.
//
// # Rate limits
//
// WithRateLimit keeps requests and estimated tokens (bytes/4 of the
// messages plus MaxTokens, charged before the call as OpenAI does) under
// per-minute limits with token buckets holding one second's worth: a
// burst gets one second's worth through at once, then calls are paced
// evenly, so no 60-second window sees more than RPM + RPM/60 requests.
// Calls go first come, first served; a request estimated above the TPM
// bucket goes alone once it is full, leaving a debt, and is never refused.
// The buckets are golang.org/x/time/rate Limiters.
//
// # Cache
//
// WithCache stores every successful response in a bbolt file under the
// SHA-256 of the canonical JSON of (endpoint, model, messages,
// temperature, top_p, max_tokens and its wire name, reasoning_effort, seed,
// extra body, extra header names, run index); the API key and header values
// are not part of the key and never stored. Each answer is committed and fsynced
// before Complete returns it (answers arriving together share a commit),
// so SIGKILL right after a paid call loses nothing. Request.Run makes
// repeated samples of one prompt distinct entries. Failures are not
// cached.
//
// # Tool calling
//
// Request.Tools and Request.ToolChoice are sent as OpenAI's "tools" and
// "tool_choice"; Response.ToolCalls holds the calls the model asked for
// (finish_reason "tool_calls"). The turn that answers them is an assistant
// Message carrying those ToolCalls (content sent as null when empty)
// followed by one "tool" Message per call, ToolCallID set. The tool fields
// enter the cache key only when set, so the keys of plain requests, and
// the caches holding them, are unchanged; tool calls are cached like any
// answer. A server without tool support answers a request with tools by a
// 400 naming "tools" or "tool_choice" (or, from vLLM, Ollama and
// llama.cpp, saying so in words), which the client turns into an
// HTTPError whose Param is that name and whose Hint says the model or
// server does not support tool calling (ToolsUnsupported reports it);
// CheckTools, meant for a run's preflight, also catches servers that drop
// the tools and answer in text. The loop that runs the tools is package
// eval/agent.
//
// Package modeltest is a loopback fake of the protocol with deterministic
// fault injection, for tests here and in the packages that use this one.
package model
