package textquality

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/paperlens/paperlens/doctext/pdftext"
)

// The tools, in the order they are run and printed.
const (
	Ours      = "paperlens"
	Pdftotext = "pdftotext"
	PyMuPDF   = "pymupdf"
)

// Python is the interpreter whose fitz module (Debian's python3-fitz) runs
// PyMuPDF; the system one, not whatever python3 comes first on PATH.
var Python = "/usr/bin/python3"

// pymupdfScript extracts each file as py-pdf/benchmarks does
// (pdf_benchmark/library_code.py, pymupdf_get_text): open the bytes as a
// stream, and join page.get_text() of every page, each followed by "\n".
// It prints one JSON line per file with the seconds spent in fitz, and
// fitz's exception when it raised one.
const pymupdfScript = `
import json, sys, time
import fitz
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        data = f.read()
    t0 = time.perf_counter()
    text, error = "", ""
    try:
        with fitz.open(stream=data, filetype="pdf") as doc:
            for page in doc:
                text += page.get_text() + "\n"
    except Exception as e:
        error = repr(e)
    t1 = time.perf_counter()
    print(json.dumps({"path": path, "text": text, "seconds": t1 - t0, "error": error}))
`

// Options says what to run.
type Options struct {
	Dir    string // holds NAME.pdf with NAME.txt, the ground truth
	Rounds int    // each tool's time per document is the median over this many rounds; 0 means 1
	// Save, when set, is a directory that receives each tool's text of
	// each document as Save/TOOL/NAME.txt, to read what the scores mean.
	Save string
}

// Scores are the four metrics of one text against its ground truth, each
// in [0, 1].
type Scores struct {
	Ratio   float64 `json:"ratio"`    // py-pdf's Levenshtein ratio over the whole text
	RatioWS float64 `json:"ratio_ws"` // the same with white space collapsed
	Order   float64 `json:"order"`    // pairs of located paragraphs in order
	Symbols float64 `json:"symbols"`  // recall of Greek letters, arrows and operators
}

// Row is one tool on one document.
type Row struct {
	Tool     string `json:"tool"`
	Document string `json:"document"`
	Scores
	Paragraphs Order   `json:"paragraphs"`
	SymbolSet  Symbols `json:"symbol_counts"`
	Chars      int     `json:"chars"`   // code points of the tool's text
	Seconds    float64 `json:"seconds"` // median extraction time
	Err        string  `json:"error,omitempty"`
}

// Mean is one tool's average over the documents.
type Mean struct {
	Tool string `json:"tool"`
	Scores
	// RatioVsPyMuPDF is this tool's mean Ratio over PyMuPDF's, when
	// PyMuPDF ran.
	RatioVsPyMuPDF float64 `json:"ratio_vs_pymupdf,omitempty"`
	// AllSymbols pools the symbol counts of every document: the share of
	// all occurrences recovered, which the acceptance criterion names.
	// The mean Symbols above gives a document with no symbols a 1.
	AllSymbols Symbols `json:"all_symbols"`
	Seconds    float64 `json:"seconds"` // sum of the per-document median times
}

// Report is a whole run; its JSON is paperlens measure text --json.
type Report struct {
	Dir         string            `json:"dir"`
	Documents   []string          `json:"documents"`
	Tools       []string          `json:"tools"`                 // the tools that ran
	Unavailable map[string]string `json:"unavailable,omitempty"` // tool → why it did not run
	Rounds      int               `json:"rounds"`
	Rows        []Row             `json:"rows"` // documents in order, tools in order within each
	Means       []Mean            `json:"means"`
	// TimeVsPdftotext is our total extraction time over pdftotext's. Ours
	// runs in this process; pdftotext's time includes starting it, as it
	// does in every use.
	TimeVsPdftotext float64 `json:"time_ratio_vs_pdftotext,omitempty"`
}

// ErrNoGroundTruth means the directory has no NAME.pdf with a NAME.txt.
var ErrNoGroundTruth = errors.New("no ground truth")

// A tool extracts every file: its text, seconds and error per file, or an
// error that stops the run.
type tool struct {
	name string
	run  func(ctx context.Context, paths []string) ([]extraction, error)
}

type extraction struct {
	text    string
	seconds float64
	err     error
}

// Run scores every available tool on every document of opt.Dir.
//
// The stages: read the ground truth, find the tools this machine has
// (availableTools), extract every document with each tool over the
// rounds (extractAll), score each text (scoreRow), save the texts when
// asked, and average per tool (toolMean).
func Run(ctx context.Context, opt Options) (*Report, error) {
	names, err := documents(opt.Dir)
	if err != nil {
		return nil, err
	}
	rounds := max(opt.Rounds, 1)
	r := &Report{Dir: opt.Dir, Documents: names, Rounds: rounds}
	truth := make([]string, len(names))
	paths := make([]string, len(names))
	for i, n := range names {
		b, err := os.ReadFile(filepath.Join(opt.Dir, n+".txt"))
		if err != nil {
			return nil, fmt.Errorf("read ground truth: %w", err)
		}
		truth[i] = string(b)
		paths[i] = filepath.Join(opt.Dir, n+".pdf")
	}
	var tools []tool
	tools, r.Unavailable = availableTools(ctx)
	ex, err := extractAll(ctx, tools, paths, rounds)
	if err != nil {
		return nil, err
	}
	for di, n := range names {
		for ti, t := range tools {
			got := ex.texts[ti][di]
			r.Rows = append(r.Rows, scoreRow(t.name, n, truth[di], got, ex.secs[ti][di], ex.errs[ti][di]))
			if opt.Save != "" {
				if err := saveText(opt.Save, t.name, n, got); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, t := range tools {
		r.Tools = append(r.Tools, t.name)
		r.Means = append(r.Means, toolMean(t.name, r.Rows))
	}
	if py := r.mean(PyMuPDF); py != nil && py.Ratio > 0 {
		for i := range r.Means {
			r.Means[i].RatioVsPyMuPDF = r.Means[i].Ratio / py.Ratio
		}
	}
	if ours, pt := r.mean(Ours), r.mean(Pdftotext); ours != nil && pt != nil && pt.Seconds > 0 {
		r.TimeVsPdftotext = ours.Seconds / pt.Seconds
	}
	return r, nil
}

// availableTools is our extractor and the reference tools this machine
// has, and why each missing one is missing (nil when none is).
func availableTools(ctx context.Context) ([]tool, map[string]string) {
	tools := []tool{{Ours, runOurs}}
	unavailable := map[string]string{}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		unavailable[Pdftotext] = "pdftotext is not on PATH (Debian: poppler-utils)"
	} else {
		tools = append(tools, tool{Pdftotext, runPdftotext})
	}
	if out, err := exec.CommandContext(ctx, Python, "-c", "import fitz").CombinedOutput(); err != nil {
		unavailable[PyMuPDF] = fmt.Sprintf("%s cannot import fitz (Debian: python3-fitz): %v %s", Python, err, strings.TrimSpace(string(out)))
	} else {
		tools = append(tools, tool{PyMuPDF, runPyMuPDF})
	}
	if len(unavailable) == 0 {
		unavailable = nil
	}
	return tools, unavailable
}

// extractions are every tool's output on every document: the first
// round's text, each round's seconds, the first error.
type extractions struct {
	texts [][]string    // tool, document
	secs  [][][]float64 // tool, document, round
	errs  [][]string    // tool, document
}

// extractAll runs every tool on every document, rounds times. Rounds
// interleave the tools, so a busy machine slows them alike.
func extractAll(ctx context.Context, tools []tool, paths []string, rounds int) (*extractions, error) {
	ex := &extractions{texts: make([][]string, len(tools)), secs: make([][][]float64, len(tools)), errs: make([][]string, len(tools))}
	for ti := range tools {
		ex.secs[ti] = make([][]float64, len(paths))
		ex.errs[ti] = make([]string, len(paths))
	}
	for round := 0; round < rounds; round++ {
		for ti, t := range tools {
			out, err := t.run(ctx, paths)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				return nil, fmt.Errorf("run %s: %w", t.name, err)
			}
			if round == 0 {
				ex.texts[ti] = make([]string, len(paths))
			}
			for di, x := range out {
				if round == 0 {
					ex.texts[ti][di] = x.text
				}
				ex.secs[ti][di] = append(ex.secs[ti][di], x.seconds)
				if x.err != nil && ex.errs[ti][di] == "" {
					ex.errs[ti][di] = x.err.Error()
				}
			}
		}
	}
	return ex, nil
}

// scoreRow scores one tool's text of one document against its ground
// truth; its time is the median over the rounds.
func scoreRow(toolName, doc, truth, got string, secs []float64, errText string) Row {
	row := Row{Tool: toolName, Document: doc, Chars: len([]rune(got)), Seconds: median(secs), Err: errText}
	row.Paragraphs = ParagraphOrder(truth, got)
	row.SymbolSet = SymbolRecall(truth, got)
	row.Scores = Scores{
		Ratio:   Ratio(truth, got),
		RatioWS: RatioWS(truth, got),
		Order:   row.Paragraphs.Score,
		Symbols: row.SymbolSet.Score,
	}
	return row
}

// saveText writes a tool's text of a document as dir/TOOL/NAME.txt.
func saveText(dir, toolName, doc, text string) error {
	d := filepath.Join(dir, toolName)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return fmt.Errorf("save texts: %w", err)
	}
	if err := os.WriteFile(filepath.Join(d, doc+".txt"), []byte(text), 0o644); err != nil {
		return fmt.Errorf("save texts: %w", err)
	}
	return nil
}

// toolMean averages a tool's rows: the scores over documents, the times
// summed, and the symbol counts pooled (a document without symbols
// counts 1 in the mean, but adds nothing to the pool).
func toolMean(toolName string, rows []Row) Mean {
	m := Mean{Tool: toolName}
	k := 0
	for _, row := range rows {
		if row.Tool != toolName {
			continue
		}
		k++
		m.Ratio += row.Ratio
		m.RatioWS += row.RatioWS
		m.Order += row.Order
		m.Symbols += row.Symbols
		m.Seconds += row.Seconds
		m.AllSymbols.Truth += row.SymbolSet.Truth
		m.AllSymbols.Found += row.SymbolSet.Found
	}
	m.AllSymbols.Score = 1
	if m.AllSymbols.Truth > 0 {
		m.AllSymbols.Score = float64(m.AllSymbols.Found) / float64(m.AllSymbols.Truth)
	}
	m.Ratio /= float64(k)
	m.RatioWS /= float64(k)
	m.Order /= float64(k)
	m.Symbols /= float64(k)
	return m
}

func (r *Report) mean(tool string) *Mean {
	for i := range r.Means {
		if r.Means[i].Tool == tool {
			return &r.Means[i]
		}
	}
	return nil
}

// documents lists the NAMEs in dir with both NAME.pdf and NAME.txt, sorted.
func documents(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("ground-truth directory %s: %w", dir, err)
		}
		return nil, fmt.Errorf("read ground-truth directory: %w", err)
	}
	var names []string
	for _, e := range ents {
		n, ok := strings.CutSuffix(e.Name(), ".pdf")
		if !ok || e.IsDir() {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, n+".txt")); err == nil && st.Mode().IsRegular() {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%w in %s: it needs NAME.pdf files each with a NAME.txt", ErrNoGroundTruth, dir)
	}
	sort.Strings(names)
	return names, nil
}

func runOurs(ctx context.Context, paths []string) ([]extraction, error) {
	out := make([]extraction, len(paths))
	for i, p := range paths {
		t0 := time.Now()
		doc, err := pdftext.ExtractFile(ctx, p)
		out[i].seconds = time.Since(t0).Seconds()
		if err != nil {
			out[i].err = fmt.Errorf("extract %s: %w", p, err)
			continue
		}
		out[i].text = doc.Text
	}
	return out, nil
}

// runPdftotext runs pdftotext as py-pdf/benchmarks does
// (pdftotext_get_text: pdftotext -enc UTF-8 FILE -), one process a file.
func runPdftotext(ctx context.Context, paths []string) ([]extraction, error) {
	out := make([]extraction, len(paths))
	for i, p := range paths {
		var stdout, stderr bytes.Buffer
		c := exec.CommandContext(ctx, "pdftotext", "-enc", "UTF-8", p, "-")
		c.Stdout, c.Stderr = &stdout, &stderr
		t0 := time.Now()
		err := c.Run()
		out[i].seconds = time.Since(t0).Seconds()
		if err != nil {
			out[i].err = fmt.Errorf("pdftotext %s: %w: %s", p, err, strings.TrimSpace(stderr.String()))
		}
		out[i].text = stdout.String()
	}
	return out, nil
}

// runPyMuPDF runs one Python process over all files; each time is the
// seconds inside fitz for that file, without Python's start.
func runPyMuPDF(ctx context.Context, paths []string) ([]extraction, error) {
	var stdout, stderr bytes.Buffer
	c := exec.CommandContext(ctx, Python, append([]string{"-c", pymupdfScript}, paths...)...)
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		return nil, fmt.Errorf("%s with fitz: %w: %s", Python, err, strings.TrimSpace(stderr.String()))
	}
	out := make([]extraction, len(paths))
	dec := json.NewDecoder(&stdout)
	for i := range paths {
		var line struct {
			Path    string  `json:"path"`
			Text    string  `json:"text"`
			Seconds float64 `json:"seconds"`
			Error   string  `json:"error"`
		}
		if err := dec.Decode(&line); err != nil {
			return nil, fmt.Errorf("read PyMuPDF's output for %s: %w", paths[i], err)
		}
		if line.Path != paths[i] {
			return nil, fmt.Errorf("PyMuPDF answered for %s, expected %s", line.Path, paths[i])
		}
		out[i] = extraction{text: line.Text, seconds: line.Seconds}
		if line.Error != "" {
			out[i].err = fmt.Errorf("PyMuPDF on %s: %s", paths[i], line.Error)
		}
	}
	return out, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// WriteText prints the table: one line per document and tool, then each
// tool's means, the ratios to PyMuPDF and the time against pdftotext.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "paperlens measure text: %d documents in %s, %d round(s); tools: %s\n", len(r.Documents), r.Dir, r.Rounds, strings.Join(r.Tools, ", "))
	for _, t := range sortedKeys(r.Unavailable) {
		fmt.Fprintf(w, "not run: %s: %s\n", t, r.Unavailable[t])
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "document\ttool\tratio\tratio-ws\torder\tlocated\tsymbols\tfound\ttime\t")
	for i, row := range r.Rows {
		doc := row.Document
		if i > 0 && r.Rows[i-1].Document == doc {
			doc = ""
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%d/%d\t%.3f\t%d/%d\t%s\t\n", doc, row.Tool, row.Ratio, row.RatioWS, row.Order,
			row.Paragraphs.Located, row.Paragraphs.Paragraphs, row.Symbols, row.SymbolSet.Found, row.SymbolSet.Truth, ms(row.Seconds))
	}
	for i, m := range r.Means {
		label := ""
		if i == 0 {
			label = "mean"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t\t%.3f\t\t%s\t\n", label, m.Tool, m.Ratio, m.RatioWS, m.Order, m.Symbols, ms(m.Seconds))
	}
	tw.Flush()
	for _, row := range r.Rows {
		if row.Err != "" {
			fmt.Fprintf(w, "error: %s on %s: %s\n", row.Tool, row.Document, row.Err)
		}
	}
	fmt.Fprintln(w)
	var parts []string
	for _, m := range r.Means {
		parts = append(parts, fmt.Sprintf("%s %d/%d = %.3f", m.Tool, m.AllSymbols.Found, m.AllSymbols.Truth, m.AllSymbols.Score))
	}
	fmt.Fprintf(w, "symbols over all documents: %s\n", strings.Join(parts, ", "))
	if r.mean(PyMuPDF) == nil {
		fmt.Fprintln(w, "mean ratio against PyMuPDF's: PyMuPDF is unavailable")
	} else {
		parts = parts[:0]
		for _, m := range r.Means {
			if m.Tool != PyMuPDF {
				parts = append(parts, fmt.Sprintf("%s %.3f", m.Tool, m.RatioVsPyMuPDF))
			}
		}
		fmt.Fprintf(w, "mean ratio against PyMuPDF's: %s\n", strings.Join(parts, ", "))
	}
	if r.TimeVsPdftotext > 0 {
		fmt.Fprintf(w, "time: %s %s, %s %s: ours ÷ pdftotext = %.2f (ours in this process, pdftotext a process a file)\n",
			Ours, ms(r.mean(Ours).Seconds), Pdftotext, ms(r.mean(Pdftotext).Seconds), r.TimeVsPdftotext)
	}
}

func ms(s float64) string { return fmt.Sprintf("%.1fms", s*1000) }

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
