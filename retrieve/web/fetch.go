package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/paperlens/paperlens/chunk/tokens"
	"github.com/paperlens/paperlens/doctext/htmltext"
	"github.com/paperlens/paperlens/doctext/pdftext"
	"golang.org/x/net/html/charset"
)

const userAgent = "paperlens/0.1 (research-paper QA evaluation)"

// Doc.Status values.
const (
	StatusOK        = "ok"
	StatusTimeout   = "timeout"
	StatusBlocked   = "blocked"   // non-http(s) scheme or a non-public address
	StatusNotHTML   = "not html"  // a content type other than HTML, PDF or plain text
	StatusTooLarge  = "too large" // body over FetchOptions.MaxBytes
	StatusEmpty     = "empty"     // under 5 words of main text, or only the title
	StatusRedirects = "redirects" // more than FetchOptions.MaxRedirects redirects
	StatusBadPDF    = "bad pdf"   // PDF that could not be parsed
	StatusFailed    = "error"     // connection refused, reset, DNS failure...
	// Non-2xx answers are "http <code>", e.g. "http 404".
)

// Doc is one fetched search result turned into text.
type Doc struct {
	URL    string
	Title  string // extracted page title, else the search result's title
	Text   string // main text, paragraphs separated by "\n\n", at most Tokens tokens
	Rank   int
	Tokens int    // cl100k_base tokens in Text
	Status string // "ok" or a short error word (see the Status constants)
}

// FetchOptions configures a Fetcher. Zero fields take the defaults.
type FetchOptions struct {
	Timeout      time.Duration // connecting, headers and body; default 10 s
	MaxBytes     int64         // body limit; default 5 MB
	MaxRedirects int           // default 5
	AllowPrivate bool          // allow loopback, private, link-local... addresses (tests, intranet)
	Tokens       int           // Text is cut to this many tokens; default 1024
	// Resolver maps a host name to its addresses; default net.DefaultResolver.
	// Tests use it to fake DNS.
	Resolver func(ctx context.Context, host string) ([]net.IP, error)
	// Extract turns an HTML ("html") or PDF ("pdf") body into its title and
	// main text; nil parses in this process. paperlens passes a pool of
	// worker processes, so that a page that crashes the parser, exhausts
	// its memory or loops costs only its own result. Its errors wrap
	// htmltext's and pdftext's ErrEmpty and ErrNoText, and
	// context.DeadlineExceeded on a time-out.
	Extract func(ctx context.Context, kind string, body []byte, pageURL string) (title, text string, err error)
}

// Fetcher downloads search results and extracts their text. It is safe for
// concurrent use.
type Fetcher struct {
	o      FetchOptions
	client *http.Client
}

// errBlocked and errRedirects are matched with errors.Is to set Doc.Status.
var (
	errBlocked   = errors.New("address not allowed")
	errRedirects = errors.New("too many redirects")
)

// NewFetcher returns a Fetcher whose connections are checked at dial time:
// unless AllowPrivate, a host resolving to any non-public address is refused,
// whether it is the first URL or a redirect target, and the connection goes
// to the checked address (no second DNS lookup to rebind).
func NewFetcher(o FetchOptions) *Fetcher {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 5 << 20
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 5
	}
	if o.Tokens <= 0 {
		o.Tokens = 1024
	}
	if o.Resolver == nil {
		o.Resolver = func(ctx context.Context, host string) ([]net.IP, error) {
			return net.DefaultResolver.LookupIP(ctx, "ip", host)
		}
	}
	f := &Fetcher{o: o}
	dialer := &net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}
	if !o.AllowPrivate {
		// Second line of defence: the address actually connected to.
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || blockedAddr(ap.Addr()) {
				return errBlocked
			}
			return nil
		}
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would bypass the address check
		DialContext:            f.dialContext(dialer),
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           50,
		IdleConnTimeout:        30 * time.Second,
		TLSHandshakeTimeout:    o.Timeout,
		ResponseHeaderTimeout:  o.Timeout,
		MaxResponseHeaderBytes: 1 << 20,
	}
	f.client = &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > o.MaxRedirects {
				return errRedirects
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return errBlocked
			}
			return nil
		},
	}
	return f
}

func (f *Fetcher) dialContext(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var ips []net.IP
		if ip := net.ParseIP(host); ip != nil {
			ips = []net.IP{ip}
		} else {
			ips, err = f.o.Resolver(ctx, host)
			if err != nil {
				return nil, err
			}
			if len(ips) == 0 {
				return nil, fmt.Errorf("no address for %s", host)
			}
		}
		if !f.o.AllowPrivate {
			for _, ip := range ips {
				a, ok := netip.AddrFromSlice(ip)
				if !ok || blockedAddr(a) {
					return nil, fmt.Errorf("%s resolves to %s: %w", host, ip, errBlocked)
				}
			}
		}
		var firstErr error
		for _, ip := range ips {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
			if err == nil {
				return c, nil
			}
			if firstErr == nil {
				firstErr = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, firstErr
	}
}

// nonPublic lists special-purpose ranges beyond what net/netip's predicates
// cover.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),
}

// Prefixes of IPv6 addresses that carry an IPv4 address, which a router
// or the host may use to reach it: the v4 rules apply to what they wrap.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")   // well-known NAT64 (RFC 6052): last 32 bits
	v4compat  = netip.MustParsePrefix("::/96")          // deprecated IPv4-compatible (RFC 4291): last 32 bits
	sixToFour = netip.MustParsePrefix("2002::/16")      // 6to4 (RFC 3056): bits 16–47
	siteLocal = netip.MustParsePrefix("fec0::/10")      // deprecated site-local (RFC 3879): private by intent
	teredo    = netip.MustParsePrefix("2001::/32")      // Teredo (RFC 4380): bits 96–127, inverted
	localNAT  = netip.MustParsePrefix("64:ff9b:1::/48") // local-use NAT64 (RFC 8215): translator-defined, never public
)

// blockedAddr reports whether a is not a public unicast address, looking
// through the IPv6 forms that wrap an IPv4 address (NAT64, IPv4-compatible,
// 6to4, Teredo), so that 64:ff9b::a9fe:a9fe cannot reach 169.254.169.254.
func blockedAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() ||
		a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() ||
		a.IsUnspecified() || a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return true
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return true
		}
	}
	if !a.Is6() {
		return false
	}
	b := a.As16()
	switch {
	case siteLocal.Contains(a), localNAT.Contains(a):
		return true
	case nat64.Contains(a), v4compat.Contains(a):
		return blockedAddr(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	case sixToFour.Contains(a):
		return blockedAddr(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
	case teredo.Contains(a):
		return blockedAddr(netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]}))
	}
	return false
}

// Page is the cache record of one fetch; the raw body is stored as a
// content file named by SHA256.
type Page struct {
	URL         string    `json:"url"`
	FinalURL    string    `json:"final_url,omitempty"`
	Time        time.Time `json:"time"`
	HTTPStatus  int       `json:"http_status,omitempty"`
	ContentType string    `json:"content_type,omitempty"`
	Status      string    `json:"status"`
	SHA256      string    `json:"sha256,omitempty"` // of the raw body, stored as a content file
	Bytes       int       `json:"bytes,omitempty"`
	Error       string    `json:"error,omitempty"`
	body        []byte
}

// Fetch downloads r.URL and returns its text. Failures are reported in
// Doc.Status, never as an error.
func (f *Fetcher) Fetch(ctx context.Context, r Result) Doc {
	d, _ := f.fetch(ctx, r)
	return d
}

// fetch downloads r.URL (download), turns the body into text (pageText),
// and keeps the page when it holds more than a title or a menu. Every
// failure becomes a status word, on the Doc and on the cache's Page.
func (f *Fetcher) fetch(ctx context.Context, r Result) (Doc, *Page) {
	d := Doc{URL: r.URL, Title: r.Title, Rank: r.Rank}
	p := &Page{URL: r.URL, Time: time.Now().UTC()}
	fail := func(status string, err error) (Doc, *Page) {
		d.Status, p.Status = status, status
		if err != nil {
			p.Error = err.Error()
		}
		return d, p
	}
	kind, status, err := f.download(ctx, r.URL, p)
	if status != "" {
		return fail(status, err)
	}
	title, text, status, err := f.pageText(ctx, kind, p)
	if status != "" {
		return fail(status, err)
	}
	text = normalize(text)
	if len(strings.Fields(text)) < minWords || text == oneLine(title) {
		// Nothing but a title or a menu: typically a page rendered by
		// JavaScript, which is never run.
		return fail(StatusEmpty, fmt.Errorf("%d words of main text", len(strings.Fields(text))))
	}
	if t := oneLine(title); t != "" {
		d.Title = t
	}
	d.Text = truncate(text, f.o.Tokens)
	d.Tokens = tokens.Count(d.Text)
	d.Status, p.Status = StatusOK, StatusOK
	return d, p
}

// download gets rawURL within the time limit into p (final URL, HTTP
// status, content type, body) and returns the body's kind (contentKind,
// sniffed when the server sends no Content-Type). status is "" on success,
// else the failure's word: a URL that is not http(s), a transport error,
// a status other than 2xx, a type that is not text, a body over the limit.
func (f *Fetcher) download(ctx context.Context, rawURL string, p *Page) (kind, status string, err error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", StatusFailed, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", StatusBlocked, fmt.Errorf("scheme %q: %w", u.Scheme, errBlocked)
	}
	// The time limit covers the download; extraction runs under the
	// caller's context (a large PDF can take longer than a slow site).
	ctx, cancel := context.WithTimeout(ctx, f.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return "", StatusFailed, err
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		return "", errStatus(ctx, err), err
	}
	defer resp.Body.Close()
	p.FinalURL = resp.Request.URL.String()
	p.HTTPStatus = resp.StatusCode
	p.ContentType = resp.Header.Get("Content-Type")
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", fmt.Sprintf("http %d", resp.StatusCode), nil
	}
	kind = contentKind(p.ContentType)
	if kind == "" && p.ContentType != "" {
		return "", StatusNotHTML, fmt.Errorf("content type %s", p.ContentType)
	}
	if resp.ContentLength > f.o.MaxBytes {
		return "", StatusTooLarge, fmt.Errorf("content length %d", resp.ContentLength)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.o.MaxBytes+1))
	if err != nil {
		return "", errStatus(ctx, err), err
	}
	if int64(len(body)) > f.o.MaxBytes {
		return "", StatusTooLarge, fmt.Errorf("body over %d bytes", f.o.MaxBytes)
	}
	p.body, p.Bytes = body, len(body)
	if kind == "" { // no Content-Type header: sniff
		kind = contentKind(http.DetectContentType(body))
		if kind == "" {
			return "", StatusNotHTML, errors.New("sniffed content is not text")
		}
	}
	return kind, "", nil
}

// pageText turns the page's body into its title and text: HTML and PDF by
// extraction under the caller's ctx, plain text decoded from its charset.
// status is "" on success, else the extraction failure's word
// (extractStatus).
func (f *Fetcher) pageText(ctx context.Context, kind string, p *Page) (title, text, status string, err error) {
	if kind == "text" {
		rd, err := charset.NewReader(bytes.NewReader(p.body), p.ContentType)
		if err != nil {
			rd = bytes.NewReader(p.body)
		}
		b, _ := io.ReadAll(rd)
		return "", string(b), "", nil
	}
	title, text, err = f.extract(ctx, kind, p.body, p.FinalURL)
	if err != nil {
		return "", "", extractStatus(ctx, kind, err), err
	}
	return title, text, "", nil
}

// extractStatus is the status word of an extraction failure: empty for a
// page or PDF without text, timeout when the caller's time ran out, else
// a failure (a bad PDF for a PDF).
func extractStatus(ctx context.Context, kind string, err error) string {
	switch {
	case kind == "html" && (errors.Is(err, htmltext.ErrNoText) || errors.Is(err, htmltext.ErrEmpty)),
		kind == "pdf" && (errors.Is(err, pdftext.ErrNoText) || errors.Is(err, pdftext.ErrEmpty)):
		return StatusEmpty
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return StatusTimeout
	case kind == "pdf":
		return StatusBadPDF
	}
	return StatusFailed
}

// extract parses an HTML or PDF body with FetchOptions.Extract, or here.
func (f *Fetcher) extract(ctx context.Context, kind string, body []byte, pageURL string) (string, string, error) {
	if f.o.Extract != nil {
		return f.o.Extract(ctx, kind, body, pageURL)
	}
	if kind == "html" {
		doc, err := htmltext.Extract(bytes.NewReader(body), pageURL)
		if err != nil {
			return "", "", err
		}
		return doc.Title, doc.Text, nil
	}
	doc, err := pdftext.Extract(ctx, bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return "", "", err
	}
	return doc.Title, doc.Text, nil
}

// minWords is the least main text, in words, that makes a page "ok".
const minWords = 5

// contentKind maps a Content-Type to "html", "pdf", "text" or "" (refused).
func contentKind(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	switch mt {
	case "text/html", "application/xhtml+xml":
		return "html"
	case "application/pdf", "application/x-pdf":
		return "pdf"
	case "text/plain":
		return "text"
	}
	return ""
}

// errStatus turns a transport error into a Doc.Status word.
func errStatus(ctx context.Context, err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, errBlocked):
		return StatusBlocked
	case errors.Is(err, errRedirects):
		return StatusRedirects
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return StatusTimeout
	case errors.As(err, &ne) && ne.Timeout():
		return StatusTimeout
	}
	return StatusFailed
}

// normalize collapses whitespace inside paragraphs and keeps paragraphs
// (blocks separated by blank lines) apart with "\n\n". Single line breaks
// inside a paragraph (hard-wrapped plain text) become spaces.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var paras []string
	for _, block := range splitBlank(s) {
		if p := oneLine(block); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

func splitBlank(s string) []string {
	var out []string
	var cur []string
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				out = append(out, strings.Join(cur, "\n"))
				cur = cur[:0]
			}
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, "\n"))
	}
	return out
}

// truncate keeps the first n tokens of text, ending at the last sentence or
// paragraph end inside them when that keeps at least half of the budget's
// text.
func truncate(text string, n int) string {
	head := tokens.Head(text, n)
	if len(head) == len(text) {
		return text
	}
	if cut := sentenceEnd(head); cut >= len(head)/2 {
		return strings.TrimSpace(head[:cut])
	}
	return strings.TrimSpace(head)
}

// sentenceEnd returns the byte offset just past the last sentence end in s
// (., ! or ? followed by a space, or a paragraph break), or -1.
func sentenceEnd(s string) int {
	for i := len(s) - 1; i > 0; i-- {
		switch {
		case s[i] == '\n' && s[i-1] == '\n':
			return i - 1
		case s[i] == ' ' || s[i] == '\n':
			j := i - 1
			for j > 0 && strings.IndexByte(`"')]`, s[j]) >= 0 {
				j--
			}
			if s[j] == '.' || s[j] == '!' || s[j] == '?' {
				return i
			}
		}
	}
	return -1
}
