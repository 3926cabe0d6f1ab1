package python

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// An output keeps the start and the end of what a cell writes, counts
// all of it, and drops what comes between cells.
func TestOutputKeepsStartAndEnd(t *testing.T) {
	const max = 64 // a head of 60 bytes and a tail of 4
	cases := []struct {
		name   string
		before string   // written before the cell begins
		writes []string // written during the cell, in order
		want   cellOutput
	}{
		{name: "nothing", want: cellOutput{}},
		{name: "short", writes: []string{"hello\n"}, want: cellOutput{Head: "hello\n", Total: 6}},
		{name: "exactly the limit", writes: []string{strings.Repeat("a", 60), "bcde"}, want: cellOutput{Head: strings.Repeat("a", 60) + "bcde", Total: 64}},
		{name: "one byte past", writes: []string{strings.Repeat("a", 60), "bcdef"}, want: cellOutput{Head: strings.Repeat("a", 60), Tail: "cdef", Total: 65}},
		{name: "a flood then a line", writes: []string{strings.Repeat("x", 3<<20), "after\n"}, want: cellOutput{Head: strings.Repeat("x", 60), Tail: "ter\n", Total: 3<<20 + 6}},
		{name: "many small writes", writes: strings.Split(strings.Repeat("0123456789", 20), ""), want: cellOutput{Head: strings.Repeat("0123456789", 6), Tail: "6789", Total: 200}},
		{name: "between cells is dropped", before: "old output", writes: []string{"new"}, want: cellOutput{Head: "new", Total: 3}},
		{name: "a character split by the cut", writes: []string{strings.Repeat("a", 59) + "é" + strings.Repeat("b", 10)}, want: cellOutput{Head: strings.Repeat("a", 59) + "\uFFFD", Tail: "bbbb", Total: 71}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			o, err := newOutput(r, max)
			if err != nil {
				t.Fatal(err)
			}
			defer o.close()
			if _, err := w.WriteString(c.before); err != nil {
				t.Fatal(err)
			}
			o.begin()
			// Writes larger than the pipe only finish as the output reads
			// them; end comes after the last, as the driver's reply does.
			for _, s := range c.writes {
				if _, err := w.WriteString(s); err != nil {
					t.Fatal(err)
				}
			}
			if got := o.end(); got != c.want {
				t.Errorf("got %+v, want %+v", abbrev(got), abbrev(c.want))
			}
		})
	}
}

func abbrev(o cellOutput) cellOutput {
	for _, s := range []*string{&o.Head, &o.Tail} {
		if len(*s) > 80 {
			*s = (*s)[:40] + "…" + (*s)[len(*s)-40:]
		}
	}
	return o
}

// A cell that prints 300 MB does not silence the session: what it or a
// later cell prints afterwards is returned. Earlier, the cells' output went
// to files in the sandbox's /tmp (256 MiB), which such a cell filled: the
// print after it failed, and while /tmp stayed full every later cell said
// "(no output)".
func TestOutputOverflow(t *testing.T) {
	t.Parallel() // each has its own sandbox; most of the time is waiting on it
	const cut = "[stdout cut: 286.1 MiB (300000001 bytes) in all; shown are the first 15 KiB and the last 1 KiB]"
	cases := []struct {
		name  string
		cells []cellCase
	}{
		{name: "a print after 300 MB in the same cell", cells: []cellCase{
			{cells: []string{"print('x' * 300_000_000)\nprint('after')"}, status: "ok", want: []string{"[stdout cut: 286.1 MiB (300000007 bytes) in all;", "x\nafter"}, maxLen: 17 << 10},
		}},
		{name: "a print in the next cell", cells: []cellCase{
			{cells: []string{"print('x' * 300_000_000)"}, status: "ok", want: []string{cut}, maxLen: 17 << 10},
			{cells: []string{"print('after')"}, status: "ok", want: []string{"stdout:\nafter"}, notWant: []string{"cut"}},
		}},
		{name: "300 MB from a child process", cells: []cellCase{
			{cells: []string{"import subprocess; subprocess.run(['head', '-c', '300000000', '/dev/zero']).returncode"}, status: "ok", want: []string{"[stdout cut: 286.1 MiB (300000000 bytes) in all;", "value:\n0"}, maxLen: 17 << 10},
			{cells: []string{"print('after')"}, status: "ok", want: []string{"stdout:\nafter"}},
		}},
		{name: "a full /tmp", cells: []cellCase{
			{cells: []string{"with open('/tmp/big', 'wb') as f:\n    for _ in range(256):\n        f.write(b'x' * (1 << 20))"}, status: "ok"},
			{cells: []string{"print('after')"}, status: "ok", want: []string{"stdout:\nafter"}},
			{cells: []string{"print('more'); 1/0"}, status: "error", want: []string{"stdout:\nmore", "ZeroDivisionError"}},
		}},
	}
	for _, c := range cases {
		// One after another: each holds up to 600 MB while it prints.
		t.Run(c.name, func(t *testing.T) {
			tool := newTool(t, Options{})
			for _, cc := range c.cells {
				checkCase(t, tool, cc)
			}
		})
	}
}

// A result too long to show whole is cut the same way for stdout and
// stderr, and a short one is shown as it is.
func TestFormatStreams(t *testing.T) {
	tool := &Tool{opts: Options{Output: 64}.withDefaults()}
	r := tool.format(reply{
		Stdout: cellOutput{Head: "out", Total: 3},
		Stderr: cellOutput{Head: strings.Repeat("e", 60), Tail: "tail", Total: 1000},
	})
	want := "stdout:\nout\nstderr:\n" + strings.Repeat("e", 60) + "\n[stderr cut: 1000 bytes in all; shown are the first 60 bytes and the last 4 bytes]\ntail"
	if r.Text != want || r.Status != "ok" {
		t.Errorf("status %q, text\n%s\nwant\n%s", r.Status, r.Text, want)
	}
	if !bytes.Equal([]byte(tool.format(reply{}).Text), []byte("(no output)")) {
		t.Errorf("an empty reply reads %q", tool.format(reply{}).Text)
	}
}
