package run

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/model"
	"github.com/paperlens/paperlens/retrieve"
)

// tenPassages is a paper of ten passages of 10 tokens each.
func tenPassages() paperInfo {
	p := paperInfo{ordinals: map[string]int{}}
	for i := range 10 {
		text := fmt.Sprintf("Passage %d says one thing. ", i)
		id := corpus.PassageID("x", i)
		p.passages = append(p.passages, corpus.Passage{PassageID: id, Ordinal: i, Tokens: 10, Start: len(p.text), End: len(p.text) + len(text), Text: text})
		p.ordinals[id] = i
		p.text += text
	}
	return p
}

func TestExpandMergesNeighbours(t *testing.T) {
	hit := func(ord, rank int) retrieve.Hit {
		return retrieve.Hit{PassageID: corpus.PassageID("x", ord), Rank: rank, Score: 1 / float64(rank)}
	}
	cases := []struct {
		name   string
		hits   []retrieve.Hit
		n      int
		room   int
		blocks []string // ids, best hit first
	}{
		{"no expansion", []retrieve.Hit{hit(5, 1), hit(2, 2)}, 0, 1000, []string{"x#5", "x#2"}},
		{"apart", []retrieve.Hit{hit(5, 1), hit(1, 2)}, 1, 1000, []string{"x#4-6", "x#0-2"}},
		{"touching windows merge", []retrieve.Hit{hit(5, 1), hit(2, 2)}, 1, 1000, []string{"x#1-6"}},
		{"overlapping windows merge", []retrieve.Hit{hit(4, 2), hit(5, 1)}, 1, 1000, []string{"x#3-6"}},
		{"paper edges", []retrieve.Hit{hit(0, 1), hit(9, 2)}, 2, 1000, []string{"x#0-2", "x#7-9"}},
		// Room for two neighbours: the nearest of the better hit's come first.
		{"room", []retrieve.Hit{hit(5, 1), hit(1, 2)}, 1, 20 + 20, []string{"x#4-6", "x#1"}},
		{"no room", []retrieve.Hit{hit(5, 1)}, 3, 10, []string{"x#5"}},
		{"unknown passage stays alone", []retrieve.Hit{{PassageID: "x#77", Rank: 1, Text: "Old."}, hit(3, 2)}, 1, 1000, []string{"x#77", "x#2-4"}},
	}
	p := tenPassages()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			gs := expand(c.hits, p, c.n, c.room)
			var ids []string
			for _, g := range gs {
				ids = append(ids, g.id)
				var ords []int
				for _, it := range g.items {
					o := p.ordinals[it.PassageID]
					ords = append(ords, o)
					if _, isHit := hitRank(c.hits, it.PassageID); isHit == it.Expanded {
						t.Errorf("%s: expanded %v", it.PassageID, it.Expanded)
					}
				}
				if !slices.IsSorted(ords) || len(g.texts) != len(g.items) {
					t.Errorf("block %s: ordinals %v, %d texts", g.id, ords, len(g.texts))
				}
				if len(g.items) > 1 && g.text != strings.Join(g.texts, "") {
					t.Errorf("block %s text %q", g.id, g.text)
				}
			}
			if !slices.Equal(ids, c.blocks) {
				t.Errorf("blocks %v, want %v", ids, c.blocks)
			}
		})
	}
}

func hitRank(hits []retrieve.Hit, id string) (int, bool) {
	for _, h := range hits {
		if h.PassageID == id {
			return h.Rank, true
		}
	}
	return 0, false
}

// passageHeader is a passage block's first line in the RAG prompt.
var passageHeader = regexp.MustCompile(`\n\[([0-9]+)\] \(passage ([^#)\n]+)#([0-9]+)(?:-([0-9]+))?\)\n`)

// On the sample, --expand 1 puts each hit's neighbours in the context,
// merged into blocks where they touch, in the paper's order under --order
// document; evidence recall counts them.
func TestExpandOnSample(t *testing.T) {
	qs, st, ix := fixtureSized(t, 128)
	var mu sync.Mutex
	prompts := map[string]string{}
	chat := func(out map[string]string) model.Chat {
		return model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
			p := req.Messages[0].Content
			for _, q := range qs {
				if strings.Contains(p, q.MCQ.Stem) {
					mu.Lock()
					out[q.ID] = p
					mu.Unlock()
				}
			}
			return evidenceReader(qs).Complete(ctx, req)
		})
	}
	plain := sampleConfig(t, "reader", ModeBM25)
	plain.Runs, plain.K, plain.MaxPassageTokens = 1, 3, 128
	before, err := Run(context.Background(), Options{Config: plain, Chat: evidenceReader(qs), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	cfg := plain
	cfg.Out, cfg.Expand, cfg.Order = t.TempDir(), 1, "document"
	after, err := Run(context.Background(), Options{Config: cfg, Chat: chat(prompts), Corpus: st, Index: ix, Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := ReadResults(filepath.Join(cfg.Out, ResultsFile))
	plainRecs, _ := ReadResults(filepath.Join(plain.Out, ResultsFile))
	plainRecall := map[string]float64{}
	for _, r := range plainRecs {
		if r.Recall != nil {
			plainRecall[r.QuestionID] = *r.Recall
		}
	}
	gained := 0
	for _, r := range recs {
		ps, _ := st.Passages(r.PaperID)
		in := map[int]bool{}
		var hits []int
		for _, c := range r.Context {
			o := ordinalOf(c.PassageID)
			if in[o] {
				t.Errorf("%s: %s twice in the context", r.QuestionID, c.PassageID)
			}
			in[o] = true
			if !c.Expanded {
				hits = append(hits, o)
			}
		}
		if len(hits) != cfg.K {
			t.Fatalf("%s: %d hits, want %d", r.QuestionID, len(hits), cfg.K)
		}
		for _, o := range hits {
			for _, nb := range []int{o - 1, o + 1} {
				if nb >= 0 && nb < len(ps) && !in[nb] {
					t.Errorf("%s: neighbour %d of hit %d not in the context", r.QuestionID, nb, o)
				}
			}
		}
		// The prompt's blocks: in the paper's order, each a run of
		// consecutive passages, apart from the next (else they would
		// have merged), and together exactly the context.
		p := prompts[r.QuestionID]
		covered := map[int]bool{}
		last := -2
		for _, m := range passageHeader.FindAllStringSubmatch(p, -1) {
			from, _ := strconv.Atoi(m[3])
			to := from
			if m[4] != "" {
				to, _ = strconv.Atoi(m[4])
			}
			if from <= last+1 {
				t.Errorf("%s: block %d-%d after one ending at %d: not in document order, or not merged", r.QuestionID, from, to, last)
			}
			for o := from; o <= to; o++ {
				covered[o] = true
			}
			last = to
		}
		if len(covered) != len(in) {
			t.Errorf("%s: the prompt's blocks hold %d passages, the context %d", r.QuestionID, len(covered), len(in))
		}
		if !strings.Contains(p, "in the order they appear in the paper") {
			t.Errorf("%s: the prompt does not say the passages are in the paper's order", r.QuestionID)
		}
		if r.Recall == nil || *r.Recall < plainRecall[r.QuestionID] {
			t.Errorf("%s: recall %v with neighbours, %.3f without", r.QuestionID, r.Recall, plainRecall[r.QuestionID])
		} else if *r.Recall > plainRecall[r.QuestionID] {
			gained++
		}
	}
	b, a := before.Summary.ByMode[ModeBM25], after.Summary.ByMode[ModeBM25]
	t.Logf("bm25 k %d, 128-token passages: recall %.3f, accuracy %.3f, %.0f prompt tokens; with --expand 1 --order document: recall %.3f, accuracy %.3f, %.0f prompt tokens (%d questions gained recall)",
		cfg.K, *b.EvidenceRecall, b.Accuracy, b.PromptTokens, *a.EvidenceRecall, a.Accuracy, a.PromptTokens, gained)
	if gained == 0 || *a.EvidenceRecall <= *b.EvidenceRecall {
		t.Errorf("the neighbours added no evidence")
	}
	// Another --expand in the same folder is refused.
	other := cfg
	other.Expand = 2
	if _, err := Run(context.Background(), Options{Config: other, Chat: chat(map[string]string{}), Corpus: st, Index: ix, Questions: qs}); err == nil || !strings.Contains(err.Error(), "--expand 1, now 2") {
		t.Errorf("resume with another --expand: %v", err)
	}
}

func ordinalOf(id string) int {
	o, _ := strconv.Atoi(id[strings.LastIndexByte(id, '#')+1:])
	return o
}

// --order applies to every mode whose prompt holds retrieved passages:
// score puts them best first, document in the paper's order, and the
// prompt's header says which.
func TestOrderEveryRAGMode(t *testing.T) {
	qs, st, ix := fixtureSized(t, 128)
	qs = qs[:8]
	modes := []string{ModeBM25, ModeDense, ModeHybrid, FullBM25, FullDense, FullHybrid, "self-route"}
	for _, order := range []string{"score", "document"} {
		t.Run(order, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			chat := model.ChatFunc(func(ctx context.Context, req model.Request) (model.Response, error) {
				mu.Lock()
				seen = append(seen, req.Messages[0].Content)
				mu.Unlock()
				return evidenceReader(qs).Complete(ctx, req)
			})
			cfg := sampleConfig(t, "reader", modes...)
			cfg.Runs, cfg.Order, cfg.MaxPassageTokens = 1, order, 128
			if _, err := Run(context.Background(), Options{Config: cfg, Chat: chat, Corpus: st, Index: ix, Questions: qs}); err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, p := range seen {
				ms := passageHeader.FindAllStringSubmatch(p, -1)
				if len(ms) == 0 {
					continue // self-route's second call: the paper alone
				}
				checked++
				var keys []int
				for _, m := range ms {
					k := m[1] // rank
					if order == "document" {
						k = m[3] // ordinal
					}
					n, _ := strconv.Atoi(k)
					keys = append(keys, n)
				}
				header := map[string]string{"score": "best first", "document": "in the order they appear in the paper"}[order]
				if !slices.IsSorted(keys) || !strings.Contains(p, header) {
					t.Errorf("order %s: passages in order %v; header %q present: %v", order, keys, header, strings.Contains(p, header))
				}
			}
			if checked < len(qs)*len(modes) {
				t.Errorf("%d prompts with passages, want at least %d", checked, len(qs)*len(modes))
			}
		})
	}
}
