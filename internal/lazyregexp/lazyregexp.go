// Package lazyregexp is package regexp with MustCompile deferred to first
// use.
//
// Every package-level regexp.MustCompile runs at the start of every
// paperlens process, extraction workers and `--help` included. paperlens's
// own patterns allocated about 590 KB at start-up; its packages import this
// one instead of regexp, so a pattern is compiled when it is first matched.
// The idea is the Go toolchain's own internal/lazyregexp. It is paperlens's
// own code, for paperlens's packages only: the libraries paperlens links
// keep their own start-up (no fork to change it, issue 24), and
// cmd/paperlens's TestStartupOwnInitAllocatesLittle budgets ours.
//
// A bad expression given to MustCompile panics at its first use rather than
// at start-up; Compile still compiles at once and returns the error.
package lazyregexp

import (
	"io"
	"regexp"
	"sync"
)

// Regexp is a *regexp.Regexp compiled when a method first needs it.
type Regexp struct {
	expr string
	once sync.Once
	rx   *regexp.Regexp
}

// MustCompile returns a pattern compiled on first use.
func MustCompile(expr string) *Regexp { return &Regexp{expr: expr} }

// Compile compiles at once, as regexp.Compile does.
func Compile(expr string) (*Regexp, error) {
	rx, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	r := &Regexp{expr: expr, rx: rx}
	r.once.Do(func() {})
	return r, nil
}

// QuoteMeta is regexp.QuoteMeta.
func QuoteMeta(s string) string { return regexp.QuoteMeta(s) }

// MatchString is regexp.MatchString.
func MatchString(pattern, s string) (bool, error) { return regexp.MatchString(pattern, s) }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.expr) })
	return r.rx
}

// String is the source text, without compiling.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) Expand(a1 []byte, a2 []byte, a3 []byte, a4 []int) []byte {
	return r.Re().Expand(a1, a2, a3, a4)
}
func (r *Regexp) ExpandString(a1 []byte, a2 string, a3 string, a4 []int) []byte {
	return r.Re().ExpandString(a1, a2, a3, a4)
}
func (r *Regexp) Find(a1 []byte) []byte                    { return r.Re().Find(a1) }
func (r *Regexp) FindAll(a1 []byte, a2 int) [][]byte       { return r.Re().FindAll(a1, a2) }
func (r *Regexp) FindAllIndex(a1 []byte, a2 int) [][]int   { return r.Re().FindAllIndex(a1, a2) }
func (r *Regexp) FindAllString(a1 string, a2 int) []string { return r.Re().FindAllString(a1, a2) }
func (r *Regexp) FindAllStringIndex(a1 string, a2 int) [][]int {
	return r.Re().FindAllStringIndex(a1, a2)
}
func (r *Regexp) FindAllStringSubmatch(a1 string, a2 int) [][]string {
	return r.Re().FindAllStringSubmatch(a1, a2)
}
func (r *Regexp) FindAllStringSubmatchIndex(a1 string, a2 int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(a1, a2)
}
func (r *Regexp) FindAllSubmatch(a1 []byte, a2 int) [][][]byte { return r.Re().FindAllSubmatch(a1, a2) }
func (r *Regexp) FindAllSubmatchIndex(a1 []byte, a2 int) [][]int {
	return r.Re().FindAllSubmatchIndex(a1, a2)
}
func (r *Regexp) FindIndex(a1 []byte) []int              { return r.Re().FindIndex(a1) }
func (r *Regexp) FindReaderIndex(a1 io.RuneReader) []int { return r.Re().FindReaderIndex(a1) }
func (r *Regexp) FindReaderSubmatchIndex(a1 io.RuneReader) []int {
	return r.Re().FindReaderSubmatchIndex(a1)
}
func (r *Regexp) FindString(a1 string) string             { return r.Re().FindString(a1) }
func (r *Regexp) FindStringIndex(a1 string) []int         { return r.Re().FindStringIndex(a1) }
func (r *Regexp) FindStringSubmatch(a1 string) []string   { return r.Re().FindStringSubmatch(a1) }
func (r *Regexp) FindStringSubmatchIndex(a1 string) []int { return r.Re().FindStringSubmatchIndex(a1) }
func (r *Regexp) FindSubmatch(a1 []byte) [][]byte         { return r.Re().FindSubmatch(a1) }
func (r *Regexp) FindSubmatchIndex(a1 []byte) []int       { return r.Re().FindSubmatchIndex(a1) }
func (r *Regexp) LiteralPrefix() (string, bool)           { return r.Re().LiteralPrefix() }
func (r *Regexp) Match(a1 []byte) bool                    { return r.Re().Match(a1) }
func (r *Regexp) MatchReader(a1 io.RuneReader) bool       { return r.Re().MatchReader(a1) }
func (r *Regexp) MatchString(a1 string) bool              { return r.Re().MatchString(a1) }
func (r *Regexp) NumSubexp() int                          { return r.Re().NumSubexp() }
func (r *Regexp) ReplaceAll(a1 []byte, a2 []byte) []byte  { return r.Re().ReplaceAll(a1, a2) }
func (r *Regexp) ReplaceAllFunc(a1 []byte, a2 func([]byte) []byte) []byte {
	return r.Re().ReplaceAllFunc(a1, a2)
}
func (r *Regexp) ReplaceAllLiteral(a1 []byte, a2 []byte) []byte {
	return r.Re().ReplaceAllLiteral(a1, a2)
}
func (r *Regexp) ReplaceAllLiteralString(a1 string, a2 string) string {
	return r.Re().ReplaceAllLiteralString(a1, a2)
}
func (r *Regexp) ReplaceAllString(a1 string, a2 string) string {
	return r.Re().ReplaceAllString(a1, a2)
}
func (r *Regexp) ReplaceAllStringFunc(a1 string, a2 func(string) string) string {
	return r.Re().ReplaceAllStringFunc(a1, a2)
}
func (r *Regexp) Split(a1 string, a2 int) []string { return r.Re().Split(a1, a2) }
func (r *Regexp) SubexpIndex(a1 string) int        { return r.Re().SubexpIndex(a1) }
func (r *Regexp) SubexpNames() []string            { return r.Re().SubexpNames() }

// Longest compiles the pattern now and makes it leftmost-longest.
func (r *Regexp) Longest() { r.Re().Longest() }
