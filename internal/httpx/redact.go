package httpx

import (
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// Redacted is what a removed secret reads as.
const Redacted = "[redacted]"

// Redactor removes secrets (API keys, gateway header values) from text that
// may reach a log, an error or a record. Servers and proxies echo request
// headers back, raw or inside JSON, so each secret is also removed in its
// JSON-escaped form and with "/" written as `\/` (PHP and some gateways
// escape slashes). The zero value removes nothing.
type Redactor struct {
	forms []string // every form of every secret, longest first
}

// NewRedactor returns a Redactor for secrets; empty strings are skipped.
func NewRedactor(secrets ...string) Redactor {
	var r Redactor
	return r.With(secrets...)
}

// With is r removing secrets as well; r itself is unchanged, so a client
// can keep one Redactor for its key and extend it per request.
func (r Redactor) With(secrets ...string) Redactor {
	forms := slices.Clone(r.forms)
	for _, s := range secrets {
		if s == "" {
			continue
		}
		forms = append(forms, s)
		if j, err := json.Marshal(s); err == nil {
			if esc := string(j[1 : len(j)-1]); esc != s {
				forms = append(forms, esc)
				// json.Marshal leaves "/" alone; a server that escapes it
				// does so on top of the other escapes.
				if esc2 := strings.ReplaceAll(esc, "/", `\/`); esc2 != esc {
					forms = append(forms, esc2)
				}
			}
		}
		if esc := strings.ReplaceAll(s, "/", `\/`); esc != s {
			forms = append(forms, esc)
		}
	}
	// Longest first: when one secret contains another, removing the short
	// one first would leave the rest of the long one behind.
	slices.SortStableFunc(forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return Redactor{forms: slices.Compact(forms)}
}

// Empty reports whether r removes nothing.
func (r Redactor) Empty() bool { return len(r.forms) == 0 }

// Redact is s with every secret replaced by Redacted.
func (r Redactor) Redact(s string) string {
	for _, f := range r.forms {
		s = strings.ReplaceAll(s, f, Redacted)
	}
	return s
}

// RedactCut is Redact for text cut off at an arbitrary byte (a reply over
// its size limit): a secret the cut went through leaves only a prefix,
// which Redact does not know, so a tail of s that begins a secret (4 bytes
// or more of it; less names nothing) is replaced by Redacted too.
func (r Redactor) RedactCut(s string) string {
	s = r.Redact(s)
	for _, f := range r.forms {
		for n := min(len(f)-1, len(s)); n >= 4; n-- {
			if strings.HasSuffix(s, f[:n]) {
				return s[:len(s)-n] + Redacted
			}
		}
	}
	return s
}

// Excerpt is a short, single-line, secret-free rendering of a body for an
// error message: at most n runes (n ≤ 0: DefaultExcerpt). Secrets are
// removed before cutting, so no prefix of one survives.
func (r Redactor) Excerpt(raw []byte, n int) string {
	if n <= 0 {
		n = DefaultExcerpt
	}
	s := strings.Join(strings.Fields(r.Redact(string(raw))), " ")
	if rs := []rune(s); len(rs) > n {
		s = string(rs[:n]) + "…"
	}
	return s
}

// ErrorMessage is Excerpt of the message of a JSON error body, when the
// body is one: {"error": {"message", "detail"}} (OpenAI, Google, SearXNG's
// proxies) or {"message"} (Brave); otherwise of the whole body. For
// clients whose errors quote what the server said rather than its JSON.
func (r Redactor) ErrorMessage(raw []byte, n int) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil {
		var inner struct {
			Message string `json:"message"`
			Detail  string `json:"detail"`
		}
		if json.Unmarshal(e.Error, &inner) == nil && inner.Message+inner.Detail != "" {
			return r.Excerpt([]byte(inner.Message+" "+inner.Detail), n)
		}
		if e.Message != "" {
			return r.Excerpt([]byte(e.Message), n)
		}
	}
	return r.Excerpt(raw, n)
}

// DefaultExcerpt is the length of Excerpt when none is given: enough for a
// JSON error object, short enough for a log line.
const DefaultExcerpt = 300

// Err is err flattened to its redacted text when a secret occurs in it, and
// err itself otherwise, so that its chain (and errors.As) survives whenever
// it is safe. Secrets travel in headers, so this should never fire; it is
// cheap insurance for the promise that no error carries one.
func (r Redactor) Err(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if red := r.Redact(msg); red != msg {
		return errors.New(red)
	}
	return err
}
