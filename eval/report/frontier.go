package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/paperlens/paperlens/eval/mode"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/eval/stats"
)

// hFrontier heads the frontier section in both formats.
const hFrontier = "Accuracy–cost frontier"

// frontierNote opens the section in both formats: how to read the figure,
// and which interval decides "within full's".
const frontierNote = "Per model, one point per run and mode: accuracy with its 95% Wilson interval over the questions scored " +
	"(runs are averaged first, so the interval is over questions, not runs), against mean prompt tokens per question " +
	"(log scale), and against mean cost per question when the run had --price. " +
	"Filled points are on the Pareto frontier: no other point has at least the accuracy for at most the tokens (or cost), " +
	"one of the two strictly; a step line joins them. Hollow points are dominated. " +
	"The black ring is full and the grey band its 95% interval; the green ring is the cheapest configuration within it. " +
	"A configuration is within full's interval when the 95% paired bootstrap interval of its accuracy minus full's, " +
	"over the questions both answered, reaches 0: pairing removes the spread of question difficulty both share, " +
	"and it is the interval of section 2. Two runs that cannot be paired question by question (other data, no records) " +
	"fall back to the point's accuracy being at least the lower end of full's Wilson interval. " +
	"oracle reads the gold evidence, which no configuration can: it is drawn in grey, off the frontier. " +
	"Labels name the mode and the settings that differ between the model's runs. With --rerank llm a point's tokens and cost include what the reranker read (each question once, spread over its runs): reranking is part of what the context cost."

// labelField is a config.json member that tells one configuration of a
// model from another. It is named by its JSON key, not a Go field, so a
// field another change adds to run.Config is one line in labelFields, and
// a run written before the field existed reads as the field's default.
type labelField struct {
	name    string // as the label shows it: name=value
	key     string // config.json's key
	absent  string // the value of a run whose config.json lacks the key ("" : "?")
	applies func(m mode.Mode, known bool) bool
}

// retrieves is true for the modes whose context depends on retrieval
// settings; an unknown mode (made by a newer paperlens) is assumed to.
func retrieves(m mode.Mode, known bool) bool { return !known || m.NeedsIndex() }

// hasContext is true for the modes whose prompt is cut to --budget.
func hasContext(m mode.Mode, known bool) bool {
	return !known || m.Paper || m.NeedsIndex() || m.Oracle || m.Web
}

func always(mode.Mode, bool) bool { return true }

// labelFields, in label order: what a configuration of a model is (mode,
// k, passage tokens, query form, order, expand, rerank), then the settings
// a researcher also varies between runs of one model.
var labelFields = []labelField{
	{"k", "k", "", retrieves},
	{"passage", "max_passage_tokens", "", retrieves},
	{"query", "query_form", "", retrieves},
	{"order", "order", "", retrieves},
	{"expand", "expand", "0", retrieves},
	{"rerank", "rerank", "none", retrieves},
	{"depth", "rerank_depth", "-", retrieves},
	{"reranker", "rerank_model", "-", retrieves},
	{"exclude", "exclude_kinds", "none", retrieves},
	{"search", "tool_retriever", "-", retrieves},
	{"budget", "budget", "", hasContext},
	{"paradigm", "paradigm", "", always},
	{"effort", "reasoning_effort", "-", always},
	{"limit", "limit", "all", always},
}

// configValues reads a run's config as config.json's members, each value
// as the label prints it; nil when the folder had no config.json.
func configValues(c run.Config) map[string]string {
	if c.Model == "" && c.Bench == "" && len(c.Modes) == 0 {
		return nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		switch x := v.(type) {
		case string:
			out[k] = x
		case float64:
			out[k] = strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			out[k] = strconv.FormatBool(x)
		case nil:
		default:
			b, _ := json.Marshal(x)
			out[k] = string(b)
		}
	}
	return out
}

func (f labelField) value(vals map[string]string) string {
	if vals == nil {
		return "?" // no config.json: the setting is not known
	}
	if v, ok := vals[f.key]; ok && v != "" {
		return v
	}
	if f.absent == "" {
		return "?"
	}
	return f.absent
}

// fpoint is one (run, mode) of a model on its frontier figure.
type fpoint struct {
	Label, Dir, Mode string
	run              int // index into the runs given
	Acc, Lo, Hi      float64
	N                int     // questions scored
	Tokens           float64 // mean prompt tokens per question
	Server           bool    // Tokens is the server's count
	Reranked         bool    // Tokens include the LLM reranker's prompts
	Cost             float64 // mean US$ per question (per record)
	HasCost          bool
	// Frontier and CostFrontier: no other point of the model has ≥
	// accuracy and ≤ tokens (cost), one of them strictly.
	Frontier, CostFrontier bool
	Full                   bool // the reference full point
	// Ceiling: the mode reads the gold evidence (oracle), which no
	// configuration can do; it is plotted, off the frontier and never
	// the cheapest configuration.
	Ceiling              bool
	Within               bool   // within full's 95% interval (see within)
	WithinS              string // the table's cell: yes, no, or why neither
	VsFull               string // how it compares with full, in words
	AccS, TokensS, CostS string
}

// frontierBlock is one model's frontier: its points, the charts and the
// sentences naming the cheapest configuration within full's interval.
type frontierBlock struct {
	Model, Colour string
	Points        []fpoint
	Src           tokenSources
	Skipped       int // modes with nothing scored or no token count
	HasCost       bool
	HasFull       bool
	Sentence      string // by prompt tokens
	CostSentence  string // by cost, when priced
	// Best and BestCost index the cheapest point within full's interval
	// by tokens and by cost; -1 for none.
	Best, BestCost int
	Chart          *chart
	CostChart      *chart
}

// pareto marks the points on the frontier of cost x against accuracy y:
// those no other point dominates, domination being ≤ cost and ≥ accuracy
// with at least one strict. Equal points do not dominate each other, so
// duplicates of a frontier point are all on it.
func pareto(xs, ys []float64) []bool {
	on := make([]bool, len(xs))
	for i := range xs {
		on[i] = true
		for j := range xs {
			if j != i && xs[j] <= xs[i] && ys[j] >= ys[i] && (xs[j] < xs[i] || ys[j] > ys[i]) {
				on[i] = false
				break
			}
		}
	}
	return on
}

// comparison is a point against full.
type comparison struct {
	Paired         bool    // by the paired bootstrap; else by full's Wilson interval
	N              int     // questions paired
	Diff, Lo, Hi   float64 // paired: accuracy − full's and its 95% interval
	FullLo, FullHi float64 // full's Wilson interval
	Within         bool
}

// text says how the point compares with full, in points.
func (c comparison) text() string {
	if c.Paired {
		return fmt.Sprintf("Δ %+.1f [%+.1f, %+.1f] paired, n=%d", 100*c.Diff, 100*c.Lo, 100*c.Hi, c.N)
	}
	side := "within"
	if !c.Within {
		side = "below"
	}
	return fmt.Sprintf("%s full's [%s, %s]", side, pct(c.FullLo), pct(c.FullHi))
}

// within decides whether a point's accuracy is within full's 95% interval.
// Where the two can be paired question by question (the same data, and
// records or the summary's own effect), it is when the 95% paired
// bootstrap interval of the difference reaches 0: the point cannot be told
// from full, or is better. Pairing removes the spread of question
// difficulty both share, so it is the sharper test; it is the interval
// of the report's RAG-effect section. Otherwise the point's accuracy must
// be at least the lower end of full's Wilson interval.
func within(runs []Run, p, full fpoint) comparison {
	c := comparison{}
	c.FullLo, c.FullHi = full.Lo, full.Hi
	if p.run == full.run {
		for _, e := range runs[p.run].Summary.Effects {
			if e.Mode == p.Mode && e.Baseline == full.Mode && e.N > 0 {
				c.Paired, c.N, c.Diff, c.Lo, c.Hi = true, e.N, e.Diff, e.Lo, e.Hi
			}
		}
	}
	if !c.Paired && dataOf(runs[p.run]) == dataOf(runs[full.run]) {
		// Bootstrapped as the summary does: its resamples, full's run's
		// seed, questions in a fixed (id) order.
		a, b := run.PerQuestion(runs[full.run].Records, full.Mode), run.PerQuestion(runs[p.run].Records, p.Mode)
		if n, d, lo, hi := run.PairedDiff(a, b, uint64(runs[full.run].Config.Seed)+1); n > 0 {
			c.Paired, c.N, c.Diff, c.Lo, c.Hi = true, n, d, lo, hi
		}
	}
	if c.Paired {
		c.Within = c.Hi >= -1e-9
	} else {
		c.Within = p.Acc >= full.Lo-1e-9
	}
	return c
}

// buildFrontier makes one block per model and dataset (accuracies over
// other questions do not compare), over every (run, mode) of it with a
// scored question and a prompt token count. The model is the summary's,
// else config.json's, else the folder's name; a model run on several
// datasets gets a block per dataset, named after the file.
func buildFrontier(runs []Run) []frontierBlock {
	type group struct {
		model, data string
		idx         []int
	}
	var groups []*group
	byKey := map[string]*group{}
	datasets := map[string]map[string]bool{}
	for i, r := range runs {
		m := modelOf(r)
		if m == "" {
			m = filepath.Base(r.Dir)
		}
		d := dataOf(r)
		k := m + "\x00" + d
		if byKey[k] == nil {
			byKey[k] = &group{model: m, data: d}
			groups = append(groups, byKey[k])
		}
		byKey[k].idx = append(byKey[k].idx, i)
		if datasets[m] == nil {
			datasets[m] = map[string]bool{}
		}
		datasets[m][d] = true
	}
	var out []frontierBlock
	for _, g := range groups {
		idx := g.idx
		name := g.model
		if len(datasets[g.model]) > 1 {
			r := runs[idx[0]]
			data := r.Summary.Bench
			if r.Config.Data != "" {
				data = filepath.Base(r.Config.Data)
			}
			name += " · " + data
		}
		b := frontierBlock{Model: name, Colour: colour(idx[0]), Best: -1, BestCost: -1}
		b.Points, b.Src, b.Skipped = frontierPoints(runs, idx)
		// Cheapest first: the table reads as the figure, left to right.
		slices.SortStableFunc(b.Points, func(x, y fpoint) int { return cmp.Compare(x.Tokens, y.Tokens) })
		if len(b.Points) == 0 {
			out = append(out, b)
			continue
		}
		var ti, ci []int
		var xs, ys, cxs, cys []float64
		for i, p := range b.Points {
			b.HasCost = b.HasCost || p.HasCost
			if p.Ceiling {
				continue
			}
			ti, xs, ys = append(ti, i), append(xs, p.Tokens), append(ys, p.Acc)
			if p.HasCost {
				ci, cxs, cys = append(ci, i), append(cxs, p.Cost), append(cys, p.Acc)
			}
		}
		for j, on := range pareto(xs, ys) {
			b.Points[ti[j]].Frontier = on
		}
		for j, on := range pareto(cxs, cys) {
			b.Points[ci[j]].CostFrontier = on
		}
		b.Sentence, b.CostSentence = cheapest(runs, &b)
		b.Chart = frontierChart(&b, false)
		if b.HasCost {
			b.CostChart = frontierChart(&b, true)
		}
		out = append(out, b)
	}
	return out
}

// frontierPoints collects a model's points. One token count serves all of
// them, so that the frontier compares like with like: the server's when
// every point has it (what is billed and read), else paperlens's
// assembled count when every point has that, else each point's own as in
// the token chart.
func frontierPoints(runs []Run, idx []int) (pts []fpoint, src tokenSources, skipped int) {
	allServer, allAssembled := true, true
	for _, i := range idx {
		for _, m := range modes(runs[i].Summary) {
			ms := runs[i].Summary.ByMode[m]
			if ms.N == 0 {
				continue
			}
			allServer = allServer && ms.Records > 0 && ms.Tokens.Prompt > 0
			allAssembled = allAssembled && ms.PromptTokens > 0
		}
	}
	vals := map[int]map[string]string{}
	for _, i := range idx {
		vals[i] = configValues(runs[i].Config)
	}
	for _, i := range idx {
		r := runs[i]
		for _, m := range modes(r.Summary) {
			ms := r.Summary.ByMode[m]
			server := ms.Records > 0 && ms.Tokens.Prompt > 0
			spec, _ := mode.Lookup(m)
			p := fpoint{Dir: filepath.Base(r.Dir), Mode: m, run: i, Acc: ms.Accuracy, N: ms.N, Ceiling: spec.Oracle}
			switch {
			case ms.N == 0:
				skipped++
				continue
			case server && (allServer || !allAssembled):
				p.Tokens, p.Server = float64(ms.Tokens.Prompt)/float64(ms.Records), true
				src.server = true
			case ms.PromptTokens > 0:
				p.Tokens = ms.PromptTokens
				src.assembled = true
			default:
				skipped++
				continue
			}
			if rt := ms.RerankTokens; rt != nil && ms.Records > 0 {
				// What the LLM reranker read is paid like the answer's
				// prompt: each question once, spread over its records.
				p.Tokens += float64(rt.Prompt) / float64(ms.Records)
				p.Reranked = true
			}
			p.Lo, p.Hi = stats.Wilson(p.Acc, p.N)
			if ms.CostUSD != nil && ms.Records > 0 {
				p.Cost, p.HasCost = *ms.CostUSD/float64(ms.Records), true
				p.CostS = costText(p.Cost)
			} else {
				p.CostS = "–"
			}
			p.AccS = fmt.Sprintf("%s [%s, %s]", pct(p.Acc), pct(p.Lo), pct(p.Hi))
			p.TokensS = strconv.Itoa(int(math.Round(p.Tokens)))
			pts = append(pts, p)
		}
	}
	if src.mixed() {
		for i := range pts {
			if !pts[i].Server {
				pts[i].TokensS += " (cl100k)"
			}
		}
	}
	labelPoints(pts, vals)
	return pts, src, skipped
}

// TokensNote says which prompt-token count the block's x is.
func (b frontierBlock) TokensNote() string {
	if b.Src.mixed() {
		return "Prompt tokens per question as the server reported them, except the points marked (cl100k): some runs of this model have no server count, and those are the prompt size paperlens assembled. The two differ by tokenizer and chat template, so read the frontier between them with care."
	}
	return b.Src.table()
}

// labelPoints names each point by its mode and the settings that differ
// between the model's plotted runs, among those that matter to the mode
// and are not at their default; points that still share a label get their
// folder added.
func labelPoints(pts []fpoint, vals map[int]map[string]string) {
	applies := func(f labelField, m string) bool {
		spec, ok := mode.Lookup(m)
		return f.applies(spec, ok)
	}
	var vary []labelField
	for _, f := range labelFields {
		seen := map[string]bool{}
		for _, p := range pts {
			if applies(f, p.Mode) {
				seen[f.value(vals[p.run])] = true
			}
		}
		if len(seen) > 1 {
			vary = append(vary, f)
		}
	}
	count := map[string]int{}
	for i := range pts {
		parts := []string{pts[i].Mode}
		for _, f := range vary {
			// A setting left at its default (rerank none, expand 0) is
			// not named: "bm25 k=5" beside "bm25 k=5 rerank=api".
			if v := f.value(vals[pts[i].run]); applies(f, pts[i].Mode) && (f.absent == "" || v != f.absent) {
				parts = append(parts, f.name+"="+v)
			}
		}
		pts[i].Label = strings.Join(parts, " ")
		count[pts[i].Label]++
	}
	for i := range pts {
		if count[pts[i].Label] > 1 {
			pts[i].Label += " (" + pts[i].Dir + ")"
		}
	}
}

// costText is a cost per question in US$, with enough digits for the
// fractions of a cent one question costs.
func costText(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// refFull picks the full point the others are held against: the one over
// the most questions, the cheaper on a tie; -1 when there is none.
func refFull(pts []fpoint) int {
	ref := -1
	for i, p := range pts {
		if p.Mode == mode.Full && (ref < 0 || p.N > pts[ref].N) {
			ref = i
		}
	}
	return ref
}

// cheapest marks full and compares every point with it, and states the
// cheapest configuration within full's 95% interval, by prompt tokens and
// (when priced) by cost.
func cheapest(runs []Run, b *frontierBlock) (byTokens, byCost string) {
	ref := refFull(b.Points)
	if ref < 0 {
		return fmt.Sprintf("No run of %s has the full mode, so there is no full-paper accuracy to hold the other configurations against.", b.Model), ""
	}
	b.HasFull = true
	full := b.Points[ref]
	b.Points[ref].Full, b.Points[ref].Within, b.Points[ref].VsFull, b.Points[ref].WithinS = true, true, "reference", "full"
	cmps := make([]comparison, len(b.Points))
	for i := range b.Points {
		if i == ref {
			continue
		}
		cmps[i] = within(runs, b.Points[i], full)
		b.Points[i].Within, b.Points[i].VsFull, b.Points[i].WithinS = cmps[i].Within, cmps[i].text(), yesNo(cmps[i].Within)
		if b.Points[i].Ceiling {
			b.Points[i].WithinS += " (oracle: not a configuration)"
		}
	}
	nFull := 0
	for _, p := range b.Points {
		if p.Mode == mode.Full {
			nFull++
		}
	}
	refNote := ""
	if nFull > 1 {
		refNote = fmt.Sprintf(" Full is the run in %s: of the %d runs with full, the one over the most questions.", full.Dir, nFull)
	}
	// pick is the cheapest point within full's interval that is cheaper
	// than full, or full itself when there is none.
	pick := func(x func(fpoint) (float64, bool)) int {
		best := ref
		fv, _ := x(full)
		for i, p := range b.Points {
			v, ok := x(p)
			if !ok || !p.Within || p.Ceiling || v >= fv {
				continue
			}
			bv, _ := x(b.Points[best])
			if best == ref || v < bv || (v == bv && p.Acc > b.Points[best].Acc) {
				best = i
			}
		}
		return best
	}
	say := func(i int, what string, share float64) string {
		p := b.Points[i]
		if i == ref {
			return fmt.Sprintf("No configuration cheaper than full (by %s) is within the 95%% interval of full; full has accuracy %s%% [%s, %s] over %d questions.%s",
				what, pct(full.Acc), pct(full.Lo), pct(full.Hi), full.N, refNote)
		}
		s := fmt.Sprintf("The cheapest configuration whose accuracy is within the 95%% interval of full: %s, at %s%% of full's %s (accuracy %s%% vs full's %s%%).",
			p.Label, pct(share), what, pct(p.Acc), pct(full.Acc))
		c := cmps[i]
		if c.Paired {
			s += fmt.Sprintf(" Paired over %d questions, its accuracy minus full's is %+.1f points with a 95%% bootstrap interval of [%+.1f, %+.1f], which reaches 0.", c.N, 100*c.Diff, 100*c.Lo, 100*c.Hi)
		} else {
			s += fmt.Sprintf(" Its accuracy is at or above the lower end of full's 95%% Wilson interval [%s, %s] (the runs cannot be paired question by question).", pct(c.FullLo), pct(c.FullHi))
		}
		return s + refNote
	}
	b.Best = pick(func(p fpoint) (float64, bool) { return p.Tokens, true })
	byTokens = say(b.Best, "mean prompt tokens", b.Points[b.Best].Tokens/full.Tokens)
	if b.HasCost {
		if !full.HasCost {
			byCost = "full has no cost (its run had no --price), so no configuration is compared with it by cost."
		} else {
			i := pick(func(p fpoint) (float64, bool) { return p.Cost, p.HasCost })
			share := 0.0
			if full.Cost > 0 {
				share = b.Points[i].Cost / full.Cost
			}
			b.BestCost = i
			byCost = say(i, "cost per question", share)
		}
	}
	return byTokens, byCost
}

// frontierAxis is the x axis of a frontier chart: log10 when every value
// is positive (prompts run from tens of tokens to whole papers), linear
// from 0 otherwise (an offline baseline's cost is 0). A log axis ends at
// 1, 2 or 5 × a power of ten around the values.
type frontierAxis struct {
	log    bool
	lo, hi float64
}

// nice125 is the largest (down) or smallest (up) 1, 2 or 5 × 10^k on the
// other side of v > 0.
func nice125(v float64, up bool) float64 {
	d := math.Floor(math.Log10(v))
	steps := []float64{1, 2, 5, 10}
	if up {
		for _, m := range steps {
			if x := m * math.Pow(10, d); x >= v*(1-1e-12) {
				return x
			}
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if x := steps[i] * math.Pow(10, d); x <= v*(1+1e-12) {
			return x
		}
	}
	return math.Pow(10, d)
}

func newFrontierAxis(vals []float64) frontierAxis {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > 0 {
		a := frontierAxis{log: true, lo: nice125(lo, false), hi: nice125(hi, true)}
		if a.hi <= a.lo {
			a.hi = nice125(a.lo*1.01, true)
		}
		return a
	}
	if hi <= 0 {
		hi = 1
	}
	step := niceStep(hi, 5)
	return frontierAxis{lo: 0, hi: math.Ceil(hi/step) * step}
}

// frac is v's place along the axis, 0 to 1.
func (a frontierAxis) frac(v float64) float64 {
	if a.log {
		return (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return (v - a.lo) / (a.hi - a.lo)
}

func (a frontierAxis) ticks() []float64 {
	var out []float64
	if !a.log {
		step := niceStep(a.hi-a.lo, 5)
		for v := a.lo; v <= a.hi+step/2; v += step {
			out = append(out, v)
		}
		return out
	}
	// Decades only, unless the span is short enough that 2× and 5× ticks
	// still leave room for their labels.
	mults := []float64{1}
	if math.Log10(a.hi/a.lo) <= 2.5 {
		mults = []float64{1, 2, 5}
	}
	for d := math.Floor(math.Log10(a.lo)); d <= math.Ceil(math.Log10(a.hi)); d++ {
		for _, m := range mults {
			if v := m * math.Pow(10, d); v >= a.lo*(1-1e-9) && v <= a.hi*(1+1e-9) {
				out = append(out, v)
			}
		}
	}
	return out
}

// bandFill shades full's interval and lets the grid show through.
const bandFill = "rgba(0,0,0,0.07)"

// frontierChart plots one model's accuracy (y, 95% Wilson whiskers)
// against mean prompt tokens or cost per question (x): frontier points
// filled and joined by a step line, the others hollow, full ringed in
// black and the cheapest point within full's interval ringed in green, over
// a band showing full's interval.
//
// It is drawn back to front: the frame (band, grid, axes), the step line,
// the points with their rings, their labels placed clear of each other,
// and the legend in the right margin, which widens to its longest entry;
// a title too long for the chart wraps and pushes the plot down.
func frontierChart(b *frontierBlock, byCost bool) *chart {
	pts := plotPoints(b, byCost)
	xsv := make([]float64, len(pts))
	for i, p := range pts {
		xsv[i] = p.x
	}
	full := fullPoint(b)
	best := b.Best
	if byCost {
		best = b.BestCost
	}
	legend := frontierLegendEntries(b, pts, full, best)
	w := frontierW
	for _, e := range legend {
		w = math.Max(w, frontierLegendX+legendIndent+textWidth(e.text, legendSize)+10)
	}
	title := "accuracy against mean prompt tokens per question"
	if byCost {
		title = "accuracy against mean cost per question"
	}
	lines := wrapText(b.Model+": "+title, frontierTitleSize, w-frontierLeft-10)
	// Each title line past the first moves the plot down by a line.
	top := frontierTop + frontierTitleLine*float64(len(lines)-1)
	f := frontierFrame{ax: newFrontierAxis(xsv), top: top, pw: frontierLegendX - 20 - frontierLeft, ph: frontierH - frontierTop - frontierBottom}
	c := &chart{W: w, H: top + f.ph + frontierBottom, Label: b.Model + ": " + title}
	for i, l := range lines {
		c.text(frontierLeft, 20+frontierTitleLine*float64(i), l, "start", frontierTitleSize)
	}
	f.drawFrame(c, b, full, byCost)
	steps := len(c.Lines)
	f.drawSteps(c, b, pts)
	// The step line's segments keep labels off them, as the legend does.
	keepOut := []box{}
	for _, ln := range c.Lines[steps:] {
		keepOut = append(keepOut, box{math.Min(ln.X1, ln.X2) - 1, math.Min(ln.Y1, ln.Y2) - 1, math.Max(ln.X1, ln.X2) + 1, math.Max(ln.Y1, ln.Y2) + 1})
	}
	spots := f.drawPoints(c, b, pts, best, byCost)
	// Labels may rise above the plot, up to the title's last line.
	titleBottom := 20 + frontierTitleLine*float64(len(lines)-1) + textDescent*frontierTitleSize
	lb := frontierLegend(c, f, legend)
	keepOut = append(keepOut, box{frontierLegendX - 4, 0, c.W, lb})
	footnote(c, f.placeLabels(c, spots, box{frontierLeft, titleBottom + 2, c.W - 4, f.top + f.ph}, keepOut))
	return c
}

// The frontier chart's size and margins: the plot ends 20 px before the
// legend, which starts at frontierLegendX; the chart widens past frontierW
// when the legend needs it.
const (
	frontierW, frontierH                      = 860.0, 480.0
	frontierLeft, frontierTop, frontierBottom = 60.0, 56.0, 50.0
	frontierLegendX                           = 690.0
	frontierLabelSize                         = 10.0
	frontierTitleSize, frontierTitleLine      = 13.0, 16.0
)

// plotPoint is one point of the chart: its index in the block's points,
// its x value, whether it is on the frontier plotted and whether it is
// full.
type plotPoint struct {
	i    int
	x    float64
	on   bool
	full bool
}

// plotPoints are the block's points the chart can place: all of them by
// tokens, those with a cost by cost.
func plotPoints(b *frontierBlock, byCost bool) []plotPoint {
	var pts []plotPoint
	for i, p := range b.Points {
		switch {
		case byCost && p.HasCost:
			pts = append(pts, plotPoint{i, p.Cost, p.CostFrontier, p.Full})
		case !byCost:
			pts = append(pts, plotPoint{i, p.Tokens, p.Frontier, p.Full})
		}
	}
	return pts
}

// fullPoint is the block's (last) full point, or nil.
func fullPoint(b *frontierBlock) *fpoint {
	var full *fpoint
	for i := range b.Points {
		if b.Points[i].Full {
			full = &b.Points[i]
		}
	}
	return full
}

// frontierFrame maps values to the plot area: x along the axis, accuracy
// (0 to 1) bottom to top.
type frontierFrame struct {
	ax          frontierAxis
	top, pw, ph float64
}

func (f frontierFrame) X(v float64) float64 { return frontierLeft + f.ax.frac(v)*f.pw }
func (f frontierFrame) Y(v float64) float64 { return f.top + (1-v)*f.ph }

// drawFrame draws full's interval as a band, the grid with its tick
// labels, the axes and their titles.
func (f frontierFrame) drawFrame(c *chart, b *frontierBlock, full *fpoint, byCost bool) {
	left, top, pw, ph := frontierLeft, f.top, f.pw, f.ph
	if full != nil {
		c.Rects = append(c.Rects, sRect{X: left, Y: f.Y(full.Hi), W: pw, H: math.Max(f.Y(full.Lo)-f.Y(full.Hi), 0.5), Fill: bandFill,
			Title: fmt.Sprintf("full's 95%% interval: %s–%s%%", pct(full.Lo), pct(full.Hi))})
	}
	for _, v := range f.ax.ticks() {
		c.line(f.X(v), top, f.X(v), top+ph, "#e5e5e5", 1, false)
		l := tokenTick(v)
		if byCost {
			l = "$" + costText(v)
		}
		c.text(f.X(v), top+ph+xTickGap, l, "middle", 11)
	}
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(left, f.Y(v), left+pw, f.Y(v), "#e5e5e5", 1, false)
		c.text(left-6, f.Y(v)+4, fmt.Sprintf("%.0f", 100*v), "end", 11)
	}
	c.line(left, top+ph, left+pw, top+ph, "#000", 1, false)
	c.line(left, top, left, top+ph, "#000", 1, false)
	axisTitle(c, left+pw/2, c.H-12, frontierAxisTitle(b, byCost, f.ax.log))
	c.text(left-8, top-12, "acc %", "end", 11)
}

// frontierAxisTitle names the x axis: which token count, or the cost and
// whether its scale is log (linear when some cost is 0).
func frontierAxisTitle(b *frontierBlock, byCost, log bool) string {
	if byCost {
		if !log {
			return "mean cost per question, US$ (linear: some cost is 0)"
		}
		return "mean cost per question, US$ (log scale)"
	}
	if b.Src.mixed() {
		return "prompt tokens per question (log): server-reported, else assembled, cl100k"
	}
	return b.Src.axis()
}

// drawSteps draws the frontier as a step line: with a budget between two
// frontier points the best configuration is the cheaper one, so accuracy
// holds until the next.
func (f frontierFrame) drawSteps(c *chart, b *frontierBlock, pts []plotPoint) {
	var on []plotPoint
	for _, p := range pts {
		if p.on {
			on = append(on, p)
		}
	}
	slices.SortStableFunc(on, func(a, b plotPoint) int { return cmp.Compare(a.x, b.x) })
	for k := 1; k < len(on); k++ {
		y0, y1 := f.Y(b.Points[on[k-1].i].Acc), f.Y(b.Points[on[k].i].Acc)
		c.line(f.X(on[k-1].x), y0, f.X(on[k].x), y0, b.Colour, 2, false)
		c.line(f.X(on[k].x), y0, f.X(on[k].x), y1, b.Colour, 2, false)
	}
}

// spot is where a point is drawn: points that coincide there (within
// coincide of the first) share one label.
type spot struct{ x, y float64 }

// spotLabels are the labels of the points at one spot, and how far from
// it their markers reach (a ring, on full or the cheapest within its
// interval, reaches further).
type spotLabels struct {
	spot
	labels []string
	reach  float64
}

// drawPoints draws each point with its whiskers, filled when on the
// frontier, hollow when dominated, grey for the oracle, ringed when it is
// full or the cheapest within full's interval (best). It returns the
// spots in drawing order with the labels at each.
func (f frontierFrame) drawPoints(c *chart, b *frontierBlock, pts []plotPoint, best int, byCost bool) []spotLabels {
	what := "prompt tokens"
	if byCost {
		what = "cost"
	}
	var spots []spotLabels
	for _, p := range pts {
		q := b.Points[p.i]
		x, y := f.X(p.x), f.Y(q.Acc)
		c.Lines = append(c.Lines, sLine{x, f.Y(q.Lo), x, f.Y(q.Hi), "#777", 1, false},
			sLine{x - 3, f.Y(q.Lo), x + 3, f.Y(q.Lo), "#777", 1, false},
			sLine{x - 3, f.Y(q.Hi), x + 3, f.Y(q.Hi), "#777", 1, false})
		c.Circles = append(c.Circles, pointMarker(b, q, p.on, x, y, byCost))
		if p.full {
			c.Circles = append(c.Circles, sCircle{X: x, Y: y, R: 9, Fill: "none", Stroke: "#000", Title: "full: the reference"})
		}
		if p.i == best && !p.full {
			c.Circles = append(c.Circles, sCircle{X: x, Y: y, R: 9, Fill: "none", Stroke: "#2ca02c", Title: "cheapest within full's 95% interval (by " + what + ")"})
		}
		// Points that coincide on the chart share one label.
		k := slices.IndexFunc(spots, func(s spotLabels) bool { return math.Hypot(s.x-x, s.y-y) <= coincide })
		if k < 0 {
			k = len(spots)
			spots = append(spots, spotLabels{spot: spot{x, y}})
		}
		if !slices.Contains(spots[k].labels, q.Label) {
			spots[k].labels = append(spots[k].labels, q.Label)
		}
		r := 6.0
		if p.full || p.i == best {
			r = 10
		}
		spots[k].reach = math.Max(spots[k].reach, math.Hypot(x-spots[k].x, y-spots[k].y)+r)
	}
	return spots
}

// pointMarker is a point's circle and its tooltip: filled on the
// frontier, hollow when dominated, grey for the oracle, which reads the
// gold evidence and so is no configuration.
func pointMarker(b *frontierBlock, q fpoint, on bool, x, y float64, byCost bool) sCircle {
	xs := q.TokensS + " prompt tokens"
	if byCost {
		xs = "US$ " + q.CostS
	}
	front := "dominated"
	if on {
		front = "on the frontier"
	}
	ci := sCircle{X: x, Y: y, R: 5, Fill: b.Colour, Title: fmt.Sprintf("%s (%s): accuracy %s%%, %s per question, %s", q.Label, q.Dir, q.AccS, xs, front)}
	switch {
	case q.Ceiling:
		ci.Fill, ci.Stroke = "#fff", "#999"
		ci.Title = fmt.Sprintf("%s (%s): accuracy %s%%, %s per question; reads the gold evidence, so not a configuration", q.Label, q.Dir, q.AccS, xs)
	case !on:
		ci.Fill, ci.Stroke = "#fff", b.Colour
	}
	return ci
}

// placeLabels writes each spot's labels ("; " between the labels of
// points at one spot: a label holds "k=5", so "=" cannot join them) where
// they keep clear of every marker and of the labels placed before them,
// inside area (the plot, above it up to the title, and the right margin)
// and out of keepOut (the step line, the legend; labeler). It returns the
// labels that found no room.
func (f frontierFrame) placeLabels(c *chart, spots []spotLabels, area box, keepOut []box) []string {
	l := &labeler{area: area, size: frontierLabelSize}
	l.avoid(keepOut...)
	for _, s := range spots {
		l.avoid(box{s.x - s.reach, s.y - s.reach, s.x + s.reach, s.y + s.reach})
	}
	ls := make([]labelAt, len(spots))
	for i, s := range spots {
		ls[i] = labelAt{s.x, s.y, s.reach, strings.Join(s.labels, "; ")}
	}
	return drawLabels(c, l, ls)
}

// frontierEntry is one line of the frontier's legend: its text and how
// its key is drawn at (x, y).
type frontierEntry struct {
	text string
	draw func(c *chart, x, y float64)
}

// frontierLegendEntries are the legend's lines: the markers, the step
// line, the whiskers, and full's ring, band and the cheapest point within
// it where the chart has them.
func frontierLegendEntries(b *frontierBlock, pts []plotPoint, full *fpoint, best int) []frontierEntry {
	circle := func(r float64, fill, stroke, title string) func(c *chart, x, y float64) {
		return func(c *chart, x, y float64) {
			c.Circles = append(c.Circles, sCircle{X: x, Y: y, R: r, Fill: fill, Stroke: stroke, Title: title})
		}
	}
	es := []frontierEntry{
		{"on the frontier", circle(5, b.Colour, "", "on the frontier")},
		{"dominated", circle(5, "#fff", b.Colour, "dominated")},
		{"frontier (step)", func(c *chart, x, y float64) { c.line(x-6, y, x+6, y, b.Colour, 2, false) }},
	}
	if slices.ContainsFunc(pts, func(p plotPoint) bool { return b.Points[p.i].Ceiling }) {
		es = append(es, frontierEntry{"oracle (gold evidence)", circle(5, "#fff", "#999", "oracle")})
	}
	es = append(es, frontierEntry{"95% Wilson interval", func(c *chart, x, y float64) { c.line(x, y-6, x, y+6, "#777", 1, false) }})
	if full == nil {
		return es
	}
	es = append(es, frontierEntry{"full (reference)", circle(7, "none", "#000", "full")},
		frontierEntry{"full's 95% interval", func(c *chart, x, y float64) {
			c.Rects = append(c.Rects, sRect{X: x - 6, Y: y - 6, W: 12, H: 12, Fill: bandFill, Title: "full's 95% interval"})
		}})
	if best >= 0 && !b.Points[best].Full {
		es = append(es, frontierEntry{"cheapest within full's CI", circle(7, "none", "#2ca02c", "cheapest within full's interval")})
	}
	return es
}

// frontierLegend writes the legend in the right margin, from the plot's
// top down, and returns the y below it.
func frontierLegend(c *chart, f frontierFrame, es []frontierEntry) float64 {
	lx, ly := frontierLegendX, f.top+10
	for _, e := range es {
		e.draw(c, lx+5, ly-4)
		c.Texts = append(c.Texts, sText{X: lx + legendIndent, Y: ly, Text: e.text, Anchor: "start", Size: legendSize, Fill: "#222", Class: "legend"})
		ly += legendRow
	}
	return ly
}

// svgFile is a standalone SVG document: charts stacked top to bottom, on
// white so that it reads on a dark page too.
type svgFile struct {
	W, H   float64
	Charts []svgPlaced
}

type svgPlaced struct {
	Y     float64
	Chart *chart
}

var svgFileTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("file").Funcs(tmplFuncs).Parse(svgShapes + `<svg xmlns="http://www.w3.org/2000/svg" width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" font-family="system-ui,-apple-system,Segoe UI,sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
{{range .Charts}}<svg x="0" y="{{f .Y}}" width="{{f .Chart.W}}" height="{{f .Chart.H}}" viewBox="0 0 {{f .Chart.W}} {{f .Chart.H}}" role="img" aria-label="{{.Chart.Label}}">{{template "shapes" .Chart}}</svg>
{{end}}</svg>
`))
})

// FrontierSVG writes the frontier figures of every model (section 9 of the
// report: by prompt tokens, and by cost when priced) as one standalone SVG
// file, for a README or a paper. Every label is escaped as in the HTML
// report.
func FrontierSVG(w io.Writer, runs []Run) error {
	if len(runs) == 0 {
		return errors.New("report: no runs")
	}
	var f svgFile
	for _, b := range buildFrontier(runs) {
		for _, c := range []*chart{b.Chart, b.CostChart} {
			if c == nil {
				continue
			}
			f.Charts = append(f.Charts, svgPlaced{Y: f.H, Chart: c})
			f.W, f.H = math.Max(f.W, c.W), f.H+c.H
		}
	}
	if len(f.Charts) == 0 {
		return errors.New("report: no run has a mode with a scored question and a prompt token count: no frontier to draw")
	}
	return svgFileTmpl().Execute(w, f)
}
