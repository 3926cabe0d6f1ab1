package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

func serve(t *testing.T, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// The overlap check finds two SVG labels drawn at one point and passes
// labels set apart: the check the report's figures rely on must be able to
// fail.
func TestTextBoxesOverlaps(t *testing.T) {
	url := serve(t, `<!doctype html><svg width="400" height="200">
<text x="10" y="20">bm25 0.62</text><text x="14" y="22">hybrid 0.62</text>
<text x="200" y="150">apart</text></svg>`)
	boxes := TextBoxes(t, url, 800, 600, "svg text")
	if len(boxes) != 3 {
		t.Fatalf("%d boxes, want 3: %+v", len(boxes), boxes)
	}
	over := Overlaps(boxes, 0.5)
	if len(over) != 1 || over[0][0].Text != "bm25 0.62" || over[0][1].Text != "hybrid 0.62" {
		t.Errorf("overlaps %+v, want the two labels at one point", over)
	}
}

// ScrollWidth sees a page wider than its viewport.
func TestScrollWidth(t *testing.T) {
	wide := serve(t, `<!doctype html><body style="margin:0"><div style="width:2000px">wide</div>`)
	if s, v := ScrollWidth(t, wide, 1400, 800); s <= v || v != 1400 {
		t.Errorf("wide page: scroll %d, viewport %d: want scroll past a 1400 viewport", s, v)
	}
	narrow := serve(t, `<!doctype html><body style="margin:0"><div>narrow</div>`)
	if s, v := ScrollWidth(t, narrow, 1400, 800); s > v {
		t.Errorf("narrow page: scroll %d past viewport %d", s, v)
	}
}
