package pdftext

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMarkFurniture: on an A4 page (842 pt) with LaTeX's article margins
// the running header sits below 88% of the height, as the page's first
// line; it must go. Lines that recur at one height but are content must
// stay: a table's numbers at the top of the page, a plot tick at the
// bottom, a line that is not at the page's edge.
func TestMarkFurniture(t *testing.T) {
	const h = 842.0
	type ln struct {
		y    float64
		text string // "%d" is replaced by the page number
	}
	tests := []struct {
		name     string
		lines    []ln // the same lines on each of three pages
		dropped  []string
		leftKept []string
	}{
		{"header just under the margin", []ln{
			{739.5, "Discounting in sequential decisions"}, {700, "The body text of the page begins here and runs on."},
			{400, "More running text in the middle of the page."}, {142.8, "%d"},
		}, []string{"Discounting in sequential decisions", "1", "2", "3"}, []string{"The body text", "More running text"}},
		{"numbers at the top line are table cells", []ln{
			{730, "57.2 85.6 91.0"}, {715, "A paragraph below the table starts here."}, {300, "Another paragraph."},
		}, nil, []string{"57.2 85.6 91.0"}},
		{"recurring text away from the edges", []ln{
			{780, "Running head"}, {600, "Proof."}, {300, "Body text line."}, {200, "Last line of the page."},
		}, []string{"Running head"}, []string{"Proof.", "Body text line."}},
		{"a bare number below the last line is not at the edge", []ln{
			{700, "First line."}, {400, "70"}, {150, "Closing line of the page text."},
		}, nil, []string{"70"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var pages []*pageLayout
			for p := 1; p <= 3; p++ {
				pg := &pageLayout{num: p, width: 595, height: h}
				for _, l := range tc.lines {
					text := strings.ReplaceAll(l.text, "%d", string(rune('0'+p)))
					b := &block{}
					b.add(&line{x0: 100, x1: 100 + 5*float64(len(text)), y: l.y, size: 11, text: text})
					pg.blocks = append(pg.blocks, b)
				}
				pages = append(pages, pg)
			}
			markFurniture(pages)
			dropped := map[string]bool{}
			for _, pg := range pages {
				for _, b := range pg.blocks {
					for _, l := range b.lines {
						if l.drop {
							dropped[l.text] = true
						}
					}
				}
			}
			for _, want := range tc.dropped {
				if !dropped[want] {
					t.Errorf("%q kept, want it dropped as furniture", want)
				}
			}
			for d := range dropped {
				for _, keep := range tc.leftKept {
					if strings.HasPrefix(d, keep) {
						t.Errorf("%q dropped, want it kept", d)
					}
				}
			}
		})
	}
}

// TestRunningHeaderA4 runs the ground-truth document whose header sits
// lower than the fixed margin: before, the header stayed, opened the first
// paragraph and pulled the introduction ahead of the title block.
func TestRunningHeaderA4(t *testing.T) {
	d := extracted(t, filepath.Join("..", "..", "testdata", "groundtruth", "onecol-rl.pdf"))
	if !strings.HasPrefix(d.Text, "Discounting and Bounded Returns in Sequential Decisions") {
		t.Errorf("text does not start with the title: %q", d.Text[:min(80, len(d.Text))])
	}
	for _, furniture := range []string{"Draft notes", "Discounting in sequential decisions"} {
		if strings.Contains(d.Text, furniture) {
			t.Errorf("running header %q is in the text", furniture)
		}
	}
	if i, j := strings.Index(d.Text, "Uppsala University"), strings.Index(d.Text, "An agent interacts with an environment"); i < 0 || j < i {
		t.Errorf("the title block is not before the introduction (%d, %d)", i, j)
	}
}
