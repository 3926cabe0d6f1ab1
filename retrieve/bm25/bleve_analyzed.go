package bm25

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
)

// addDoc adds passage p to batch as the mapping would map it, except that
// the text field carries p's terms, counted already: scorch calls each
// field's Analyze, which for the text field would run the analyzer over
// the text again (tokenize, lower-case, stop words, stem). The document is
// mapped as usual first, so every other field, the stored text and the
// _all composite are exactly what batch.Index would have built; only the
// text field is then swapped for one that reports the terms it was given.
// Bleve offers this through Batch.IndexAdvanced and its Field interface,
// without a fork.
func (b *Bleve) addDoc(batch *bleve.Batch, p *AnalyzedPassage) error {
	data := passageDoc(p.Passage, p.PassageID, p.FieldLen)
	if b.reanalyse {
		return batch.Index(p.PassageID, data)
	}
	doc := document.NewDocument(p.PassageID)
	if err := b.idx.Mapping().MapDocument(doc, data); err != nil {
		return err
	}
	for i, f := range doc.Fields {
		if f.Name() != FieldText {
			continue
		}
		tf, ok := f.(*document.TextField)
		if !ok {
			return fmt.Errorf("the mapping made the %s field a %T, not a text field", FieldText, f)
		}
		doc.Fields[i] = &analyzedField{TextField: tf, length: p.FieldLen, freqs: tokenFrequencies(p)}
	}
	return batch.IndexAdvanced(doc)
}

// analyzedField is a text field whose analysis is already done.
type analyzedField struct {
	*document.TextField
	length int
	freqs  index.TokenFrequencies
}

// Analyze does nothing: the frequencies came with the field.
func (f *analyzedField) Analyze() {}

func (f *analyzedField) AnalyzedLength() int { return f.length }

func (f *analyzedField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// tokenFrequencies is what analysis.TokenFrequency makes of the analyzer's
// tokens for a field without term vectors: each distinct term with its
// count, the empty term included when a filter emptied tokens (scorch
// indexes it, so it is kept for the same dictionary and scores).
func tokenFrequencies(p *AnalyzedPassage) index.TokenFrequencies {
	out := make(index.TokenFrequencies, len(p.Terms)+1)
	for _, t := range p.Terms {
		tf := &index.TokenFreq{Term: []byte(t.Term)}
		tf.SetFrequency(int(t.Freq))
		out[t.Term] = tf
	}
	if empty := p.FieldLen - p.Len; empty > 0 {
		tf := &index.TokenFreq{Term: []byte{}}
		tf.SetFrequency(empty)
		out[""] = tf
	}
	return out
}
