package cliflags

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/paperlens/paperlens/eval/agent/python"
	"github.com/paperlens/paperlens/internal/isolate"
	"github.com/paperlens/paperlens/retrieve/index"
)

// value adapts a parse function to a flag: Set parses and stores, String
// shows the value (the default in --help).
type value[T any] struct {
	p     *T
	typ   string
	parse func(string) (T, error)
	show  func(T) string
	// exact, when set, shows the value so that parse gives it back, where
	// show does not (a rerun sets the flags given again: see flagValues).
	exact func(T) string
}

var _ pflag.Value = value[int]{}

func (v value[T]) Type() string { return v.typ }
func (v value[T]) String() string {
	if v.p == nil {
		var zero T
		return v.show(zero)
	}
	return v.show(*v.p)
}
func (v value[T]) exactString() string {
	if v.exact == nil || v.p == nil {
		return v.String()
	}
	return v.exact(*v.p)
}
func (v value[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// optFloat is a float flag that also takes "none": leave the field out of
// the request, as reasoning models require for temperature and top_p.
func optFloat(p **float64) pflag.Value {
	return value[*float64]{p: p, typ: "X|none",
		parse: func(s string) (*float64, error) {
			if strings.EqualFold(strings.TrimSpace(s), "none") {
				return nil, nil
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("want a number or none")
			}
			return &v, nil
		},
		show: func(v *float64) string {
			if v == nil {
				return "" // "none" would print as a misleading "(default none)" in --help
			}
			return strconv.FormatFloat(*v, 'g', -1, 64)
		},
		exact: func(v *float64) string {
			if v == nil {
				return "none"
			}
			return strconv.FormatFloat(*v, 'g', -1, 64)
		}}
}

// bm25Value is --bm25, checked as it is parsed so that a bad value fails
// the command before it ingests or indexes anything.
func bm25Value(p *string) pflag.Value {
	return value[string]{p: p, typ: "okapi|bleve", show: func(s string) string { return s },
		parse: func(s string) (string, error) {
			if err := index.CheckBM25(s); err != nil {
				return "", index.ErrBM25 // pflag already names the flag and the value
			}
			return s, nil
		}}
}

// Size is a flag holding a number of bytes in *p, written with a unit
// (512MiB, 2GiB), of at least min (0: any; less is the error tooLittle
// makes of the size as written back), and shown in --help as zero when
// *p is 0.
func Size(p *int64, min int64, tooLittle func(string) error, zero int64) pflag.Value {
	return value[int64]{p: p, typ: "size",
		parse: func(s string) (int64, error) {
			n, err := isolate.ParseBytes(s)
			if err != nil || n >= min {
				return n, err
			}
			return 0, tooLittle(isolate.FormatBytes(n))
		},
		show: func(n int64) string {
			if n == 0 {
				n = zero
			}
			return isolate.FormatBytes(n)
		},
		exact: func(n int64) string { return strconv.FormatInt(n, 10) }}
}

// toolMemory is --tool-memory, stored in bytes in run.Config.ToolMemory,
// where zero means python.DefaultMemory (so that config.json names a limit
// only when one was asked for). python3 with numpy needs about 100 MiB of
// address space to start.
func toolMemory(p *int64) pflag.Value {
	v := Size(p, 128<<20, func(s string) error {
		return fmt.Errorf("--tool-memory %s is too little for python3 and numpy to start in; give at least 128MiB", s)
	}, python.DefaultMemory).(value[int64])
	parse := v.parse
	v.parse = func(s string) (int64, error) {
		if _, err := isolate.ParseBytes(s); err != nil {
			return 0, fmt.Errorf("--tool-memory: %w", err)
		}
		return parse(s)
	}
	return v
}
