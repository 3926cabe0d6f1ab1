// Package httpx is the one HTTP base of paperlens's remote clients: the
// chat client (model.NewOpenAI), the embedding client
// (retrieve/embed/openai) and the web search providers (retrieve/web).
//
// Each client builds its own request body and decodes its own answer; what
// they share lives here, so that it is written, tested and fixed once:
//
//   - Do makes one call and reads the whole answer, turning every failure
//     into the error family (HTTPError, MalformedError, TransportError,
//     TimeoutError), each with a Retryable method, with secrets removed
//     and the URL shown without its query; a caller that can use a
//     prefix takes a body over its limit cut (Call.CutOK), and one that
//     must not wait out a stalled body sets Call.IdleTimeout;
//   - Redactor removes API keys and header values from text, also
//     JSON-escaped and with `\/` slashes, as servers echo them;
//   - RetryAfter reads Retry-After (seconds or an HTTP date) and
//     retry-after-ms;
//   - Redactor.Excerpt and Redactor.ErrorMessage are the only renderings
//     of a body for a message: one line, secrets removed before the cut;
//   - Retry is the retry loop: exponential backoff with jitter, never
//     shorter than Retry-After, a cap on Retry-After, MaxAttempts, and
//     classification through Retryable.
//
// # Retry knobs
//
// The three clients name their retry settings differently, for historical
// reasons, and the names are kept; each maps onto one Policy:
//
//	client                        knob                     Policy.MaxAttempts     default
//	model.RetryOptions            MaxAttempts: calls in    MaxAttempts            6 calls
//	                              all, first included
//	retrieve/embed/openai.Options MaxRetries: retries      MaxRetries + 1         5 retries = 6 calls
//	                              after the first call;
//	                              negative means none
//	retrieve/web.Searcher         Retry: calls in all,     Retry                  3 calls
//	                              first included
//
// Zero means the default everywhere. The rest of each Policy is the
// client's own: model takes MinBackoff, MaxBackoff, Jitter and
// MaxRetryAfter from RetryOptions (1 s to 60 s, full jitter, Retry-After up
// to 10 min); the embedding client takes MinBackoff, MaxBackoff and
// MaxRetryAfter from Options (0.5 s to 30 s, jitter over the upper half,
// up to 2 min); the Searcher takes Backoff as the first ceiling (1 s, up to
// 1 min, full jitter, Retry-After up to 1 min). A Retry-After longer than
// the client's limit fails the call at once.
//
// It is plain net/http rather than the openai-go SDK, which would cover two
// of the three clients only (the search providers are not OpenAI), reads
// OPENAI_API_KEY and OPENAI_ORG_ID from the environment unless built around
// its constructor, and decodes neither reasoning_content nor content given
// as text parts; the README's "One transport for remote clients" has the
// measurements.
package httpx
