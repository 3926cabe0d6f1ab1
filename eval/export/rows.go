package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/model"
)

// Row is one record (question × mode × run) as csv, parquet and jsonl
// write it (fixed names: the columns, in this order).
type Row struct {
	// RunFolder is the run folder as given, so that rows of several
	// folders (models, paradigms) stay apart.
	RunFolder    string `json:"run_folder" parquet:"run_folder"`
	QuestionID   string `json:"question_id" parquet:"question_id"`
	QuestionType string `json:"question_type" parquet:"question_type"`
	PaperID      string `json:"paper_id" parquet:"paper_id"`
	Mode         string `json:"mode" parquet:"mode"`
	Run          int    `json:"run" parquet:"run"`
	Model        string `json:"model" parquet:"model"`
	Paradigm     string `json:"paradigm" parquet:"paradigm"`
	// Extracted is the answer read from the reply (the letters of an
	// MCQ), Gold the key (an MCQ's letters, a short answer's reference).
	Extracted string `json:"extracted" parquet:"extracted"`
	Gold      string `json:"gold" parquet:"gold"`
	Correct   bool   `json:"correct" parquet:"correct"`
	// Score is a short answer's judge score or ROUGE-L (ScoreKind says
	// which); empty for an MCQ, scored by Correct.
	Score     *float64 `json:"score" parquet:"score,optional"`
	ScoreKind string   `json:"score_kind" parquet:"score_kind"`
	Error     string   `json:"error" parquet:"error"`
	// Token counts as the server reported them (the record's usage; a
	// tool mode's or self-route's summed over its calls).
	PromptTokens     int `json:"prompt_tokens" parquet:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens" parquet:"completion_tokens"`
	ReasoningTokens  int `json:"reasoning_tokens" parquet:"reasoning_tokens"`
	CachedTokens     int `json:"cached_tokens" parquet:"cached_tokens"`
	// CostUSD is the record's tokens (and its reranker's) at the run's
	// --price, as summary.json's cost_usd sums them per mode; empty when
	// the run had no price.
	CostUSD   *float64 `json:"cost_usd" parquet:"cost_usd,optional"`
	LatencyMS int64    `json:"latency_ms" parquet:"latency_ms"`
}

// rowOf is one record's row.
func rowOf(f *folder, r run.Record) Row {
	row := Row{RunFolder: f.path, QuestionID: r.QuestionID, QuestionType: r.QuestionType, PaperID: r.PaperID, Mode: r.Mode, Run: r.Run,
		Model: r.Model, Paradigm: r.Paradigm, Extracted: r.Extracted, Gold: r.Gold, Correct: r.Correct, Score: r.Score, ScoreKind: r.ScoreKind,
		Error: r.Error, PromptTokens: r.Usage.PromptTokens, CompletionTokens: r.Usage.CompletionTokens,
		ReasoningTokens: r.Usage.ReasoningTokens, CachedTokens: r.Usage.CachedTokens, LatencyMS: r.LatencyMS}
	if p := f.cfg.Price; p != nil {
		c := p.Cost(tokensOf(r.Usage))
		if r.RerankUsage != nil {
			c += p.Cost(tokensOf(*r.RerankUsage))
		}
		row.CostUSD = &c
	}
	return row
}

func tokensOf(u model.Usage) run.Tokens {
	return run.Tokens{Prompt: u.PromptTokens, Completion: u.CompletionTokens, Reasoning: u.ReasoningTokens, Cached: u.CachedTokens}
}

// rowsOf is every record's row, folder by folder.
func rowsOf(fs []*folder) []Row {
	var out []Row
	for _, f := range fs {
		for _, r := range f.recs {
			out = append(out, rowOf(f, r))
		}
	}
	return out
}

// csvHeader names the columns, as Row's JSON names.
var csvHeader = []string{"run_folder", "question_id", "question_type", "paper_id", "mode", "run", "model", "paradigm",
	"extracted", "gold", "correct", "score", "score_kind", "error", "prompt_tokens", "completion_tokens", "reasoning_tokens",
	"cached_tokens", "cost_usd", "latency_ms"}

// writeCSV writes a header and one line per row (RFC 4180, as
// encoding/csv writes it); an empty cell is a value the record lacks.
func writeCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	itoa := strconv.Itoa
	for _, r := range rows {
		rec := []string{r.RunFolder, r.QuestionID, r.QuestionType, r.PaperID, r.Mode, itoa(r.Run), r.Model, r.Paradigm,
			r.Extracted, r.Gold, strconv.FormatBool(r.Correct), optFloat(r.Score), r.ScoreKind, r.Error,
			itoa(r.PromptTokens), itoa(r.CompletionTokens), itoa(r.ReasoningTokens), itoa(r.CachedTokens),
			optFloat(r.CostUSD), strconv.FormatInt(r.LatencyMS, 10)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// writeParquet writes the rows as one Parquet file; Score and CostUSD
// are optional columns, null where the record lacks them.
func writeParquet(w io.Writer, rows []Row) error {
	pw := parquet.NewGenericWriter[Row](w)
	if _, err := pw.Write(rows); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}
