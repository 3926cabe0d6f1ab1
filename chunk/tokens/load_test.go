package tokens

import (
	"testing"
	"time"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// The one-pass parse must give exactly the table of the offline loader it
// replaces at start-up: every token with its rank, its bytes back from the
// rank, and nothing for strings that are not tokens.
func TestParseRanksMatchesLoader(t *testing.T) {
	want, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(Encoding + ".tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseRanks()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range len(c.spans) / 2 {
		if c.token(r) != "" {
			n++
		}
	}
	if n != len(want) {
		t.Fatalf("%d tokens, loader has %d", n, len(want))
	}
	for tok, r := range want {
		if got, ok := c.lookup(tok); !ok || got != r {
			t.Fatalf("token %q: rank %d (present %v), loader says %d", tok, got, ok, r)
		}
		if c.token(r) != tok {
			t.Fatalf("token(%d) = %q, want %q", r, c.token(r), tok)
		}
		// rank serves merging, which never asks for a single byte.
		if got := c.rank(tok); len(tok) >= 2 && got != r {
			t.Fatalf("rank(%q) = %d, want %d", tok, got, r)
		}
	}
	for _, s := range []string{"", "zzzzqqqqxxxx", "\x00\x01\x02", " the quick brown", "\xff\xfe"} {
		if _, ok := want[s]; ok {
			continue
		}
		if r, ok := c.lookup(s); ok {
			t.Errorf("lookup(%q) found rank %d of a string that is not a token", s, r)
		}
		if r := c.rank(s); r != noRank {
			t.Errorf("rank(%q) = %d for a string that is not a token", s, r)
		}
	}
}

// BenchmarkLoad builds the tables as Load does and reports the time of the
// offline loader's own parse of the same file, measured in the same run, as
// loader_ratio (how many times slower the loader alone is).
//
//	go test -run '^$' -bench Load ./chunk/tokens/
func BenchmarkLoad(b *testing.B) {
	var ours, theirs time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := parseRanks(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(Encoding + ".tiktoken"); err != nil {
			b.Fatal(err)
		}
		ours, theirs = ours+t1.Sub(t0), theirs+time.Since(t1)
	}
	b.ReportMetric(float64(ours.Nanoseconds())/float64(b.N), "ns/parse")
	b.ReportMetric(float64(theirs)/float64(ours), "loader_ratio")
}
