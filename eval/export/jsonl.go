package export

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/paperlens/paperlens/corpus"
	"github.com/paperlens/paperlens/eval/bench"
	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
)

// Line is one record as jsonl writes it: its Row, and what evaluation
// tools of RAG read, under paperlens's names and RAGAS's (fixed names).
type Line struct {
	Row
	// Question is the question as the dataset gives it (options inline);
	// Stem and Options its multiple-choice parts.
	Question string   `json:"question"`
	Stem     string   `json:"stem,omitempty"`
	Options  []Option `json:"options,omitempty"`
	// Evidence is the gold evidence as the dataset gives it (ElaipBench's
	// relevant_passage); excerpts are separated by line breaks.
	Evidence string `json:"evidence"`
	// Context are the passages the prompt held, in rank order, with their
	// texts from the corpus (a web mode's are pages, by URL, whose text
	// the run folder does not keep).
	Context   []Passage `json:"context"`
	Output    string    `json:"output"`
	Reasoning string    `json:"reasoning,omitempty"`

	// RAGAS's names (SingleTurnSample): the question, the retrieved
	// passages' texts (an oracle prompt's gold evidence), the reply, the
	// gold answer (Gold) and the gold evidence excerpts.
	UserInput         string   `json:"user_input"`
	RetrievedContexts []string `json:"retrieved_contexts"`
	Response          string   `json:"response"`
	Reference         string   `json:"reference"`
	ReferenceContexts []string `json:"reference_contexts"`
}

// Option is one option of a multiple-choice question.
type Option struct {
	Letter string `json:"letter"`
	Text   string `json:"text"`
}

// Passage is one passage (or web page) of a prompt.
type Passage struct {
	PassageID string  `json:"passage_id"`
	Rank      int     `json:"rank"`
	Score     float64 `json:"score"`
	Retriever string  `json:"retriever,omitempty"`
	Expanded  bool    `json:"expanded,omitempty"`
	Text      string  `json:"text"`
}

// writeJSONL writes one Line per record.
func writeJSONL(w io.Writer, fs []*folder, opt Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	st := stores{}
	defer st.close()
	for _, f := range fs {
		if len(f.recs) == 0 {
			continue
		}
		qs, err := f.questions(opt)
		if err != nil {
			return err
		}
		texts := passageTexts{}
		for _, r := range f.recs {
			l, err := lineOf(f, r, qs[r.QuestionID], st, texts)
			if err != nil {
				return err
			}
			if err := enc.Encode(l); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// passageTexts caches a folder's passages by id, per paper read.
type passageTexts map[string]map[string]string

// text is a passage's text from the folder's corpus.
func (t passageTexts) text(f *folder, st stores, id string) (string, error) {
	paper := id
	if i := strings.LastIndexByte(id, '#'); i > 0 {
		paper = id[:i]
	}
	ps, ok := t[paper]
	if !ok {
		s, err := st.open(f)
		if err != nil {
			return "", err
		}
		list, err := passagesOf(s, f)(paper)
		if err != nil {
			return "", fmt.Errorf("passage %s: %w", id, err)
		}
		ps = map[string]string{}
		for _, p := range list {
			ps[p.PassageID] = p.Text
		}
		t[paper] = ps
	}
	text, ok := ps[id]
	if !ok {
		return "", fmt.Errorf("run folder %s: passage %s is not in the corpus of %s (was the paper removed, or ingested again?): %w", f.path, id, f.cfg.Home, corpus.ErrNotFound)
	}
	return text, nil
}

// lineOf is one record's Line.
func lineOf(f *folder, r run.Record, q bench.Question, st stores, texts passageTexts) (Line, error) {
	l := Line{Row: rowOf(f, r), Question: q.Text, Stem: q.MCQ.Stem, Evidence: q.Evidence, Output: r.Output, Reasoning: r.Reasoning,
		Context: []Passage{}, UserInput: q.Text, RetrievedContexts: []string{}, Response: r.Output, Reference: r.Gold,
		ReferenceContexts: excerpts(q.Evidence)}
	for _, o := range q.MCQ.Options {
		l.Options = append(l.Options, Option{Letter: o.Letter, Text: o.Text})
	}
	web := len(r.Web) > 0 || r.WebResults != nil
	for _, c := range r.Context {
		p := Passage{PassageID: c.PassageID, Rank: c.Rank, Score: c.Score, Retriever: c.Retriever, Expanded: c.Expanded}
		if !web && c.Retriever != "web" {
			t, err := texts.text(f, st, c.PassageID)
			if err != nil {
				return l, fmt.Errorf("question %s (%s): %w", r.QuestionID, r.Mode, err)
			}
			p.Text = t
			l.RetrievedContexts = append(l.RetrievedContexts, t)
		}
		l.Context = append(l.Context, p)
	}
	if m, ok := mode.Lookup(r.Mode); ok && m.Oracle && q.Evidence != "" {
		l.RetrievedContexts = append(l.RetrievedContexts, q.Evidence)
	}
	return l, nil
}

// excerpts splits gold evidence into its excerpts (one per line).
func excerpts(evidence string) []string {
	out := []string{}
	for _, e := range strings.Split(evidence, "\n") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}
