// Package web is the web-retrieval mode of paperlens: it reproduces the
// ElaipBench web setting (section 4.6, appendix A.7.1), which queried the
// Google Custom Search API with the question plus the paper title, kept the
// top five pages, converted their HTML to text with trafilatura and truncated
// the text to its first tokens.
//
// A Provider runs the search: NewGoogle (Custom Search JSON API, as in the
// paper), NewBrave (Brave Search API) or NewSearXNG (a self-hosted
// meta-search engine, needs no key). GoogleFromEnv, BraveFromEnv and
// SearXNGFromEnv build them from the environment and fail clearly when a key
// is missing.
//
// A Fetcher downloads each result: http and https only, with a time limit,
// a size limit and a redirect limit. Unless FetchOptions.AllowPrivate is set
// it refuses, at dial time, any host that resolves to a loopback, private,
// link-local, unspecified, multicast or other non-public address, so neither
// a public name pointing inside nor a redirect can reach internal services
// (SSRF). HTML goes through doctext/htmltext (go-trafilatura), PDF through
// doctext/pdftext, text/plain is kept as is; other types are refused. The text
// is whitespace-normalised (paragraphs separated by "\n\n") and cut to
// FetchOptions.Tokens cl100k tokens, at a sentence end when one falls in the
// second half of the budget. Failures never abort a search: they are
// recorded in Doc.Status ("timeout", "blocked", "http 404", "not html",
// "too large", "empty", "redirects", "bad pdf", "error").
//
// The providers send through internal/httpx, the transport the chat and
// embedding clients use too: a key (Google's in the query, Brave's in a
// header) never appears in an error, even when a body echoes it; a non-2xx
// answer is a *StatusError that unwraps to *httpx.HTTPError, with
// Retry-After read as seconds, an HTTP date or retry-after-ms. The Fetcher
// does not: it reads arbitrary pages, not an API, through its own
// dial-checked transport, and records failures in Doc.Status instead of
// retrying them.
//
// A Searcher ties them together: it retries the provider with httpx.Retry,
// the loop every remote client shares (408, 409, 425, 429 and 5xx but 501,
// timeouts, dropped connections, answers that are not JSON; exponential
// backoff with full jitter, Retry-After as a floor, and a Retry-After over a
// minute fails at once), and over-fetches: it asks for three times Results
// candidates (Searcher.Candidates; Google serves 10 a request, Brave 20,
// SearXNG what its engines give) and fetches them in rank order, a few
// at a time, until Results pages are usable, asking for the next page of
// results (Google's start, Brave's offset, SearXNG's pageno; at most ten
// calls) only when the candidates at hand run out. A result is passed over
// when its page failed (any Status above) or when it is the question's own
// paper (SearchExcluding with an Own: the paper's id as a segment of the
// URL path, or its title as the result's or the page's title; such pages
// get StatusOwn, "own paper", and a result recognised by URL or search
// title is never fetched). The Docs returned are every result looked at up
// to the last usable one, each with its Status, so fewer usable pages than
// Results, or none, is an answer rather than an error; an error is a
// provider that still fails after its retries.
//
// Everything is stored in a Cache: the raw search responses, every fetched
// body (content-addressed by SHA-256) and the resulting Docs. With Replay set
// the Searcher answers strictly from the cache, applying the same cut to the
// stored Docs, and never touches the network, so an evaluation can be rerun
// bit-for-bit; a query that was never cached is the error
// "not in the web cache: <query>".
//
// The eval web modes reach it through run.WebSearch, whose contract is the
// same for the offline corpus provider in eval/run: up to --web-results
// usable results, the question's own paper never among them, and no error
// for finding few or none.
package web
