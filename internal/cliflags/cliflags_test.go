package cliflags

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/chunk/kind"
	"github.com/paperlens/paperlens/eval/run"
)

// parse declares a flag set with add, parses args and returns its
// Changed, or fails the test.
func parse(t *testing.T, add func(*pflag.FlagSet), args ...string) func(string) bool {
	t.Helper()
	fl := pflag.NewFlagSet("test", pflag.ContinueOnError)
	add(fl)
	if err := fl.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return fl.Changed
}

// The value adapters parse what a user types and show the default as
// --help prints it; a bad value is an error saying what to give.
func TestValues(t *testing.T) {
	t.Parallel()
	var f *float64
	var n, mem int64
	var bm25 string
	tooLittle := func(s string) error { return &sizeError{s} }
	cases := []struct {
		name    string
		v       pflag.Value
		in      string
		want    string // String() after Set
		wantErr string
	}{
		{"float", optFloat(&f), "0.7", "0.7", ""},
		{"float none", optFloat(&f), " None ", "", ""},
		{"float bad", optFloat(&f), "warm", "", "want a number or none"},
		{"size", Size(&n, 0, nil, 0), "512MiB", "512 MiB", ""},
		{"size decimal", Size(&n, 0, nil, 0), "200MB", "200 MB", ""},
		{"size bad", Size(&n, 0, nil, 0), "lots", "", "want a positive number of bytes"},
		{"size too little", Size(&n, 64<<20, tooLittle, 0), "1MiB", "", "too little: 1 MiB"},
		{"size at least", Size(&n, 64<<20, tooLittle, 0), "64MiB", "64 MiB", ""},
		{"tool memory", toolMemory(&mem), "2GiB", "2 GiB", ""},
		{"tool memory too little", toolMemory(&mem), "100MiB", "", "--tool-memory 100 MiB is too little for python3 and numpy"},
		{"tool memory bad", toolMemory(&mem), "x", "", "--tool-memory: size"},
		{"bm25", bm25Value(&bm25), "bleve", "bleve", ""},
		{"bm25 bad", bm25Value(&bm25), "tfidf", "", "use okapi"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.v.Set(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Set(%q) = %v, want an error with %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Set(%q): %v", tc.in, err)
			}
			if got := tc.v.String(); got != tc.want {
				t.Errorf("Set(%q), then String() = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

type sizeError struct{ s string }

func (e *sizeError) Error() string { return "too little: " + e.s }

// A size of 0 shows as the default it stands for, and tool memory's
// default is the python session's.
func TestSizeShowsDefault(t *testing.T) {
	t.Parallel()
	var n int64
	for _, tc := range []struct {
		v    pflag.Value
		want string
	}{
		{Size(&n, 0, nil, 0), "0 bytes"},
		{Size(&n, 0, nil, 1<<30), "1 GiB"},
		{toolMemory(&n), "1 GiB"},
		{optFloat(nil), ""},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// The request flags become overrides only when given, and a malformed
// value is an error that names the flag, never a header's value.
func TestRequestFlagsApply(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		prefix  string
		args    []string
		check   func(t *testing.T, o run.RequestOverrides, s run.Sampling, h http.Header)
		wantErr string
	}{
		{name: "nothing given", args: nil, check: func(t *testing.T, o run.RequestOverrides, s run.Sampling, h http.Header) {
			if o.Temperature != nil || o.TopP != nil || o.MaxTokens != nil || o.MaxCompletionTokens != nil || s.Seed != nil || h != nil {
				t.Errorf("overrides without flags: %+v, seed %v, header %v", o, s.Seed, h)
			}
		}},
		{name: "temperature none", args: []string{"--temperature", "none", "--top-p", "0.9"}, check: func(t *testing.T, o run.RequestOverrides, s run.Sampling, h http.Header) {
			if o.Temperature == nil || *o.Temperature != nil {
				t.Errorf("--temperature none: %v, want an override leaving the field out", o.Temperature)
			}
			if o.TopP == nil || *o.TopP == nil || **o.TopP != 0.9 {
				t.Errorf("--top-p 0.9: %v", o.TopP)
			}
		}},
		{name: "seed and headers", args: []string{"--seed", "7", "--header", "x-route: a", "--header", "Authorization: Bearer t"},
			check: func(t *testing.T, o run.RequestOverrides, s run.Sampling, h http.Header) {
				if s.Seed == nil || *s.Seed != 7 {
					t.Errorf("--seed 7: seed %v", s.Seed)
				}
				if h.Get("X-Route") != "a" || h.Get("Authorization") != "Bearer t" {
					t.Errorf("header %v", h)
				}
				if want := []string{"Authorization", "X-Route"}; !reflect.DeepEqual(s.HeaderNames, want) {
					t.Errorf("header names %v, want %v (sorted, canonical)", s.HeaderNames, want)
				}
			}},
		{name: "judge", prefix: "judge-", args: []string{"--judge-seed", "3", "--judge-max-tokens", "64", "--judge-extra-body", `{"a":1}`},
			check: func(t *testing.T, o run.RequestOverrides, s run.Sampling, h http.Header) {
				if s.Seed == nil || *s.Seed != 3 || o.MaxTokens == nil || *o.MaxTokens != 64 || string(s.ExtraBody) != `{"a":1}` {
					t.Errorf("judge: seed %v, max tokens %v, extra body %s", s.Seed, o.MaxTokens, s.ExtraBody)
				}
			}},
		{name: "both lengths", args: []string{"--max-tokens", "10", "--max-completion-tokens", "10"}, wantErr: "both set the answer length"},
		{name: "no completion tokens", args: []string{"--max-completion-tokens", "0"}, wantErr: "--max-completion-tokens 0: give a positive number"},
		{name: "bad JSON", args: []string{"--extra-body", "{chat_template_kwargs:"}, wantErr: "--extra-body is not valid JSON"},
		{name: "judge bad JSON", prefix: "judge-", args: []string{"--judge-extra-body", "nope"}, wantErr: "--judge-extra-body is not valid JSON"},
		{name: "header without colon", args: []string{"--header", "sk-just-a-token"}, wantErr: "--header (no colon): want 'Name: value'"},
		{name: "header name with space", args: []string{"--header", "X Y: sk-secret"}, wantErr: `--header "X Y": want`},
		{name: "header value with newline", args: []string{"--header", "X: a\nb"}, wantErr: `--header "X": want`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var f requestFlags
			var s run.Sampling
			var seed int64
			changed := parse(t, func(fl *pflag.FlagSet) {
				addRequestFlags(fl, tc.prefix, &s, &f)
				if tc.prefix == "" { // eval declares these two itself
					fl.IntVar(&f.maxTokens, "max-tokens", 0, "")
					fl.Int64Var(&seed, "seed", 1, "")
				}
			}, tc.args...)
			o, h, err := f.apply(&s, changed, seed)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%v: error %v, want %q", tc.args, err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "sk-") {
					t.Errorf("%v: the error shows the header value: %v", tc.args, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v: %v", tc.args, err)
			}
			tc.check(t, o, s, h)
		})
	}
}

// flags_set names the protocol flags given, in one fixed order, whatever
// the order on the command line.
func TestFlagsSet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		given []string
		want  []string
	}{
		{nil, nil},
		{[]string{"mode", "model"}, nil},
		{[]string{"k", "temperature", "judge-model"}, []string{"temperature", "k", "judge-model"}},
	}
	for _, tc := range cases {
		set := map[string]bool{}
		for _, g := range tc.given {
			set[g] = true
		}
		if got := flagsSet(func(name string) bool { return set[name] }); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("given %v: flags_set %v, want %v", tc.given, got, tc.want)
		}
	}
}

// The command line config.json records keeps header names but never
// their values, and URLs without user info or query.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args, want []string
	}{
		{[]string{"eval", "--model", "m"}, []string{"paperlens", "eval", "--model", "m"}},
		{[]string{"eval", "--header", "Authorization: Bearer sk-1", "--judge-header=X-Key: k"},
			[]string{"paperlens", "eval", "--header", "Authorization: [redacted]", "--judge-header=X-Key: [redacted]"}},
		{[]string{"eval", "--base-url", "https://user:pw@Host.example/v1?key=k", "--rerank-base-url=http://u:p@r:8080/"},
			[]string{"paperlens", "eval", "--base-url", "https://host.example/v1", "--rerank-base-url=http://r:8080"}},
		{[]string{"study", "--qdrant", "http://u:p@qdrant:6334", "--embed-base-url=http://e/v1?api_key=k", "--searxng-url", "http://s:pw@searx"},
			[]string{"paperlens", "study", "--qdrant", "http://qdrant:6334", "--embed-base-url=http://e/v1", "--searxng-url", "http://searx"}},
	}
	for _, tc := range cases {
		if got := commandLine(tc.args); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("commandLine(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// Every flag the recorded command line redacts is one of eval's: a
// misspelt name would let its value through unredacted.
func TestRedactedFlagsExist(t *testing.T) {
	t.Parallel()
	var f Eval
	fl := pflag.NewFlagSet("eval", pflag.ContinueOnError)
	f.Add(fl)
	for _, m := range []map[string]bool{secretFlags, urlFlags} {
		for name := range m {
			if fl.Lookup(strings.TrimPrefix(name, "--")) == nil {
				t.Errorf("%s is redacted in config.json but is no flag of eval", name)
			}
		}
	}
}

// The sweep's lists are positive whole numbers; a bad one names its flag.
func TestSweepConfig(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args    []string
		budgets []int
		windows []int
		reranks []string
		wantErr string
	}{
		{args: nil, budgets: []int{256, 512, 1024, 2048}, windows: []int{1, 2, 3}, reranks: []string{"none"}},
		{args: []string{"--budgets", " 100, 200 ,", "--sweep-windows", "", "--sweep-rerank", "none,gold:10"},
			budgets: []int{100, 200}, reranks: []string{"none", "gold:10"}},
		{args: []string{"--budgets", "100,-1"}, wantErr: `--budgets "100,-1": give positive whole numbers`},
		{args: []string{"--sweep-passage-tokens", "big"}, wantErr: `--sweep-passage-tokens "big"`},
		{args: []string{"--sweep-windows", "0"}, wantErr: `--sweep-windows "0"`},
	}
	for _, tc := range cases {
		var s Sweep
		parse(t, s.Add, tc.args...)
		c, err := s.Config([]string{"bm25"}, nil, 60, 0.6, []kind.Kind{kind.References}, nil)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if !reflect.DeepEqual(c.Budgets, tc.budgets) || !reflect.DeepEqual(c.Windows, tc.windows) || !reflect.DeepEqual(c.Reranks, tc.reranks) ||
			!reflect.DeepEqual(c.Sizes, []int{128, 256, 512}) || c.Parent != 512 || !c.Oracle || c.RRFK != 60 || c.Evidence.Threshold != 0.6 || len(c.Exclude) != 1 {
			t.Errorf("%v: %+v", tc.args, c)
		}
	}
}

func TestSplitList(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{"": nil, " , ,": nil, "a": {"a"}, " a, b ,,c ": {"a", "b", "c"}} {
		if got := SplitList(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitList(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseExcludeKinds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		want    []kind.Kind
		wantErr string
	}{
		{"", nil, ""},
		{"none", nil, ""},
		{"references", []kind.Kind{kind.References}, ""},
		{"appendix", nil, "--exclude-kinds"},
	}
	for _, tc := range cases {
		got, err := ParseExcludeKinds(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// --passage-tokens and its old name fill one value; both old names are
// hidden, and only max-tokens (the answer length in eval) warns when
// given.
func TestAddPassageTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		old, warning string
	}{
		{"max-tokens", "Flag --max-tokens has been deprecated, use --passage-tokens (the passage size; --max-tokens is the answer length in eval)\n"},
		{"max-passage-tokens", ""},
	} {
		var n int
		fl := pflag.NewFlagSet("test", pflag.ContinueOnError)
		AddPassageTokens(fl, &n, tc.old)
		if err := fl.Parse([]string{"--" + tc.old, "256"}); err != nil || n != 256 {
			t.Errorf("--%s 256: %d, %v", tc.old, n, err)
		}
		if f := fl.Lookup(tc.old); !f.Hidden {
			t.Errorf("--%s is shown in --help", tc.old)
		}
		var w strings.Builder
		WarnDeprecated(fl, &w)
		if w.String() != tc.warning {
			t.Errorf("--%s warns %q, want %q", tc.old, w.String(), tc.warning)
		}
	}
}

// Eval's request carries the invocation's home, environment and command
// line; client limits out of range are usage errors.
func TestEvalRequest(t *testing.T) {
	t.Parallel()
	inv := Invocation{Home: "/h", Args: []string{"eval", "--header", "A: secret"}, Env: map[string]string{"K": "v"}}
	cases := []struct {
		args    []string
		wantErr string
	}{
		{args: []string{"--mode", "full, hybrid", "--k", "3", "--header", "A: secret", "--rrf-k", "30"}},
		{args: []string{"--max-reply-bytes", "0"}, wantErr: "--max-reply-bytes 0: give a positive number"},
		{args: []string{"--read-idle-timeout", "-1s"}, wantErr: "--read-idle-timeout -1s"},
		{args: []string{"--price", "in=2"}, wantErr: "give both in= and out="},
		{args: []string{"--exclude-kinds", "appendix"}, wantErr: "--exclude-kinds"},
	}
	for _, tc := range cases {
		var f Eval
		changed := parse(t, f.Add, tc.args...)
		req, err := f.Request(inv, changed)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: error %v, want %q", tc.args, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		c := req.Config
		if c.Home != "/h" || !reflect.DeepEqual(c.Modes, []string{"full", "hybrid"}) || c.K != 3 || !reflect.DeepEqual(c.FlagsSet, []string{"k"}) {
			t.Errorf("config: home %q, modes %q, k %d, flags_set %q", c.Home, c.Modes, c.K, c.FlagsSet)
		}
		if req.Index.RRFK != 30 || req.Index.Env["K"] != "v" || req.Env["K"] != "v" || req.Clients.Header.Get("A") != "secret" {
			t.Errorf("index %+v, env %v, header %v", req.Index, req.Env, req.Clients.Header)
		}
		if want := []string{"paperlens", "eval", "--header", "A: [redacted]"}; !reflect.DeepEqual(req.Command, want) {
			t.Errorf("command %q, want %q", req.Command, want)
		}
	}
}
