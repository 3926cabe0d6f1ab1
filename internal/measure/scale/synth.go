package scale

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/paperlens/paperlens/chunk"
	"github.com/paperlens/paperlens/corpus"
)

// The shape of a synthetic paper: 24 to 36 passages (30 on average, about
// a conference paper's at 512 tokens), each filled with whole sentences
// to a target drawn between minFill and chunk.DefaultMaxTokens tokens, as
// the chunker's greedy packing leaves them.
const (
	minPassagesPerPaper = 24
	maxPassagesPerPaper = 36
	minFill             = 400
	// extractorName marks the synthetic papers' records.
	extractorName = "measure-scale-synthetic"
)

// synthetic is what was written for one size.
type synthetic struct {
	Passages int   `json:"passages"`
	Papers   int   `json:"papers"`
	Bytes    int64 `json:"bytes"`  // text bytes
	Tokens   int64 `json:"tokens"` // cl100k_base tokens, as each passage records them
}

// synthesize writes n passages of sentences sampled from sf into the
// corpus store under home, grouped into papers, deterministically from
// seed; the same passages go to xapian (one JSON line each, {"id","text"})
// when it is not nil. It writes through the corpus package, as ingest
// stores a paper, without extraction and chunking, which are not what is
// measured.
func synthesize(home string, sf sciFact, n int, seed uint64, xapian io.Writer) (synthetic, error) {
	if err := os.MkdirAll(home, 0o755); err != nil {
		return synthetic{}, fmt.Errorf("synthetic home: %w", err)
	}
	st, err := corpus.Open(home, false)
	if err != nil {
		return synthetic{}, fmt.Errorf("synthetic home: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var xw *bufio.Writer
	var enc *json.Encoder
	if xapian != nil {
		xw = bufio.NewWriterSize(xapian, 1<<20)
		enc = json.NewEncoder(xw)
	}
	var out synthetic
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for out.Passages < n {
		np := min(minPassagesPerPaper+rng.IntN(maxPassagesPerPaper-minPassagesPerPaper+1), n-out.Passages)
		id := fmt.Sprintf("syn%07d", out.Papers)
		text, ps := paper(rng, sf.sentences, np)
		sum := sha256.Sum256([]byte(text))
		doc := corpus.Document{PaperID: id, Title: "Synthetic paper " + id, Source: fmt.Sprintf("synthetic:%d:%d", seed, out.Papers),
			Kind: "text", SourceHash: hex.EncodeToString(sum[:]), Extractor: extractorName, Pages: 1, Chars: len(text),
			MaxTokens: chunk.DefaultMaxTokens, IngestedAt: at}
		for _, p := range ps {
			doc.Tokens += p.Tokens
		}
		if err := st.Put(doc, text, ps); err != nil {
			st.Close()
			return out, fmt.Errorf("store synthetic paper %s: %w", id, err)
		}
		for i, p := range ps {
			if enc == nil {
				break
			}
			if err := enc.Encode(struct {
				ID   string `json:"id"`
				Text string `json:"text"`
			}{corpus.PassageID(id, i), p.Text}); err != nil {
				st.Close()
				return out, fmt.Errorf("write passages for xapian: %w", err)
			}
		}
		out.Papers++
		out.Passages += np
		out.Bytes += int64(len(text))
		out.Tokens += int64(doc.Tokens)
	}
	if xw != nil {
		if err := xw.Flush(); err != nil {
			st.Close()
			return out, fmt.Errorf("write passages for xapian: %w", err)
		}
	}
	if err := st.Close(); err != nil {
		return out, fmt.Errorf("close synthetic home: %w", err)
	}
	return out, nil
}

// paper is the text of one synthetic paper of np passages, which tile it:
// sentences joined by spaces, a blank line between passages (kept at the
// end of the passage before it). A passage's Tokens is the sum of its
// sentences' counts plus one for the blank line: cl100k_base's
// pre-tokenisation cuts at each sentence's leading space, so the sum is
// the passage's count give or take the seams.
func paper(rng *rand.Rand, pool []sentence, np int) (string, []corpus.Passage) {
	var b strings.Builder
	ps := make([]corpus.Passage, 0, np)
	for i := range np {
		target := minFill + rng.IntN(chunk.DefaultMaxTokens-minFill+1)
		start, n := b.Len(), 1
		for k := 0; ; k++ {
			s := pool[rng.IntN(len(pool))]
			if k > 0 && n+s.tokens > target {
				break
			}
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s.text)
			n += s.tokens
		}
		if i < np-1 {
			b.WriteString("\n\n")
		}
		ps = append(ps, corpus.Passage{Start: start, End: b.Len(), Tokens: n, Kind: "body"})
	}
	text := b.String()
	for i := range ps {
		ps[i].Text = text[ps[i].Start:ps[i].End]
	}
	return text, ps
}
