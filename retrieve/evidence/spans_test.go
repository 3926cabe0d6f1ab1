package evidence

import (
	"reflect"
	"testing"
)

func TestSpans(t *testing.T) {
	gold := ParseGold("We fine-tune the retriever on 1,200 labelled pairs.\nAccuracy drops by 4.5 points without the reranker.", Options{})
	cases := []struct {
		name, text string
		want       []string // highlighted substrings, in order
		sents      [][]int
	}{
		{"both sentences, spacing and case changed",
			"Setup. We fine-tune the  Retriever on 1,200 labelled pairs. Then\nACCURACY drops by 4.5 points without the reranker, as Table 2 shows.",
			[]string{"We fine-tune the  Retriever on 1,200 labelled pairs", "ACCURACY drops by 4.5 points without the reranker"},
			[][]int{{0}, {1}}},
		{"below the threshold: common words only",
			"We fine-tune the model and accuracy drops elsewhere.", nil, nil},
		{"no gold at all", "Nothing to see here in this passage.", nil, nil},
		{"half a sentence is not enough",
			"We fine-tune the retriever on a large corpus of documents from the web for many epochs.", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := gold.Spans(c.text)
			var got []string
			var sents [][]int
			for _, s := range sp {
				got = append(got, c.text[s.Start:s.End])
				sents = append(sents, s.Sentences)
			}
			if !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(sents, c.sents) {
				t.Errorf("Spans = %q %v, want %q %v", got, sents, c.want, c.sents)
			}
		})
	}
	if (*Gold)(nil).Spans("x") != nil {
		t.Error("nil gold has spans")
	}
}

func TestMergeSpans(t *testing.T) {
	a := ParseGold("The encoder has twelve layers of attention.", Options{})
	b := ParseGold("We train for ten epochs with a cosine schedule.", Options{})
	m := Merge(a, nil, b)
	if len(m.Sentences) != 2 {
		t.Fatalf("merged %d sentences", len(m.Sentences))
	}
	text := "We train for ten epochs with a cosine schedule. The encoder has twelve layers of attention."
	sp := m.Spans(text)
	if len(sp) != 2 || sp[0].Sentences[0] != 1 || sp[1].Sentences[0] != 0 {
		t.Fatalf("spans %+v", sp)
	}
}
