package tokens

import (
	"testing"
	"time"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// The one-pass parse must give exactly the table of the offline loader it
// replaces at start-up: every token with its rank, and a decoder that spells
// each rank's bytes.
func TestParseRanksMatchesLoader(t *testing.T) {
	want, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(Encoding + ".tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseRanks()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.ranks) != len(want) {
		t.Fatalf("%d tokens, loader has %d", len(c.ranks), len(want))
	}
	for tok, r := range want {
		if got, ok := c.ranks[tok]; !ok || got != r {
			t.Fatalf("token %q: rank %d (present %v), loader says %d", tok, got, ok, r)
		}
		if string(c.decoder[r]) != tok {
			t.Fatalf("decoder[%d] = %q, want %q", r, c.decoder[r], tok)
		}
		if len(tok) == 2 && c.pairs[int(tok[0])<<8|int(tok[1])] != int32(r) {
			t.Fatalf("pair %q: rank %d, want %d", tok, c.pairs[int(tok[0])<<8|int(tok[1])], r)
		}
		if len(tok) > 2 && !c.maybe.has(tok) {
			t.Fatalf("filter misses token %q", tok)
		}
	}
	// Appending to one token's bytes must not overwrite the next token.
	next := string(c.decoder[1])
	_ = append(c.decoder[0], 'x')
	if string(c.decoder[1]) != next {
		t.Fatalf("decoder[1] changed from %q to %q after an append to decoder[0]", next, c.decoder[1])
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
