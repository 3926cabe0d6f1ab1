package cliflags

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/run"
)

// requestFlags are the request-field flags of one model (prefix "") or of
// the judge (prefix "judge-"); fixed names.
type requestFlags struct {
	prefix              string
	temperature, topP   *float64
	maxTokens           int
	maxCompletionTokens int
	extraBody           string
	headers             []string
	seed                int64
}

func addRequestFlags(fl *pflag.FlagSet, prefix string, s *run.Sampling, f *requestFlags) {
	f.prefix = prefix
	who, defTemp, defTopP, mctNote := "", "the paper's: ElaipBench 0.1 (A.5), LPFQA 1 (§4); left out if the server refuses it",
		"1 (LPFQA §4; ElaipBench does not say)", " (the default field under --paradigm reasoning)"
	if prefix != "" {
		who, defTemp, defTopP, mctNote = "the judge's ", "0", "not sent", ""
	}
	fl.Var(optFloat(&f.temperature), prefix+"temperature", who+"sampling temperature, or none to leave it out (default: "+defTemp+")")
	fl.Var(optFloat(&f.topP), prefix+"top-p", who+"nucleus sampling top_p, or none to leave it out (default: "+defTopP+")")
	if prefix != "" {
		// eval's own --max-tokens is declared with the other eval flags.
		fl.IntVar(&f.maxTokens, prefix+"max-tokens", 0, who+"answer tokens, sent as max_tokens (default: 1024)")
	}
	fl.IntVar(&f.maxCompletionTokens, prefix+"max-completion-tokens", 0,
		who+"answer tokens, sent as max_completion_tokens as o-series and GPT-5 require"+mctNote)
	fl.StringVar(&s.ReasoningEffort, prefix+"reasoning-effort", "", who+"reasoning_effort to send: minimal, low, medium or high")
	fl.StringVar(&f.extraBody, prefix+"extra-body", "", who+`JSON object merged into every request body, e.g. '{"chat_template_kwargs":{"enable_thinking":false}}'`)
	fl.StringArrayVar(&f.headers, prefix+"header", nil, who+"extra HTTP header 'Name: value' (repeatable); values are never written to disk or logs")
	if prefix != "" {
		fl.Int64Var(&f.seed, prefix+"seed", 0, who+"seed to send (default: none sent)")
	}
}

// apply copies what the flags say into s, maps the flags the user gave to
// the run's overrides (the rest the protocol fills) and returns the header
// values. It runs before any call, so bad JSON or a malformed header is a
// usage error. seed is the value of eval's own --seed, sent only when
// given.
func (f *requestFlags) apply(s *run.Sampling, changed func(string) bool, seed int64) (run.RequestOverrides, http.Header, error) {
	p := f.prefix
	var o run.RequestOverrides
	if changed(p + "temperature") {
		o.Temperature = &f.temperature
	}
	if changed(p + "top-p") {
		o.TopP = &f.topP
	}
	if changed(p + "max-tokens") {
		o.MaxTokens = &f.maxTokens
	}
	if changed(p + "max-completion-tokens") {
		if changed(p + "max-tokens") {
			return o, nil, fmt.Errorf("--%smax-tokens and --%smax-completion-tokens both set the answer length: give one (max_completion_tokens for o-series and GPT-5)", p, p)
		}
		if f.maxCompletionTokens <= 0 {
			return o, nil, fmt.Errorf("--%smax-completion-tokens %d: give a positive number of tokens", p, f.maxCompletionTokens)
		}
		o.MaxCompletionTokens = &f.maxCompletionTokens
	}
	if strings.TrimSpace(f.extraBody) != "" {
		if !json.Valid([]byte(f.extraBody)) {
			return o, nil, fmt.Errorf(`--%sextra-body is not valid JSON: %.80q (quote it for the shell, e.g. '{"chat_template_kwargs":{"enable_thinking":false}}')`, p, f.extraBody)
		}
		s.ExtraBody = json.RawMessage(f.extraBody)
	}
	if p == "" && changed("seed") {
		s.Seed = &seed
	}
	if p != "" && changed(p+"seed") {
		v := f.seed
		s.Seed = &v
	}
	h, err := f.header()
	if err != nil {
		return o, nil, err
	}
	s.HeaderNames = nil
	for name := range h {
		s.HeaderNames = append(s.HeaderNames, name)
	}
	slices.Sort(s.HeaderNames)
	return o, h, nil
}

// header parses the --header values.
func (f *requestFlags) header() (http.Header, error) {
	p := f.prefix
	var h http.Header
	for _, line := range f.headers {
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
			// The value may be a token: show only the name, if any.
			shown := "(no colon)"
			if ok {
				shown = fmt.Sprintf("%q", name)
			}
			return nil, fmt.Errorf("--%sheader %s: want 'Name: value', e.g. --%sheader 'X-Gateway-Route: research'", p, shown, p)
		}
		if h == nil {
			h = http.Header{}
		}
		h.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(value))
	}
	return h, nil
}
