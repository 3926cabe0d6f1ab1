package inspector

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// chips are the chooser's links: mode (or "all N") to its URL, and
// which are on.
func chips(body string) (urls map[string]string, on []string) {
	urls = map[string]string{}
	for _, m := range regexp.MustCompile(`<a class="chip( on)?" href="([^"]+)"[^>]*>([^<]+)</a>`).FindAllStringSubmatch(body, -1) {
		name := html.UnescapeString(m[3])
		urls[name] = html.UnescapeString(m[2])
		if m[1] != "" {
			on = append(on, name)
		}
	}
	return urls, on
}

// The chooser (?mode=a,b) shows the modes it names, in the run's order,
// and its links add or take away one mode while keeping the run chosen;
// the neighbours' and the runs' links keep the choice.
func TestModeChooser(t *testing.T) {
	srv := serveTwelve(t, false)
	_, all, _ := get(t, srv, "/r/1/q/q2")
	if got := columns(all); !slices.Equal(got, twelveModes) {
		t.Fatalf("no choice: columns %v, want all twelve", got)
	}
	urls, on := chips(all)
	if !slices.Equal(on, []string{"all 12"}) || urls["full+bm25"] != "/r/1/q/q2?mode=full%2Bbm25" {
		t.Errorf("no choice: chips on %v, full+bm25 links to %q (want it alone)", on, urls["full+bm25"])
	}

	// Named out of order, with one the run lacks: the run's order, the
	// unknown one dropped.
	_, two, _ := get(t, srv, "/r/1/q/q2?run=2&mode=web,nonsense,full%2Bbm25")
	if got := columns(two); !slices.Equal(got, []string{"full+bm25", "web"}) {
		t.Fatalf("?mode=web,nonsense,full+bm25: columns %v", got)
	}
	urls, on = chips(two)
	for chip, want := range map[string]string{
		"all 12":     "/r/1/q/q2?run=2",
		"full+bm25":  "/r/1/q/q2?run=2&mode=web",                        // on: taken away
		"bm25":       "/r/1/q/q2?run=2&mode=bm25,full%2Bbm25,web",       // off: added in the run's order
		"agent":      "/r/1/q/q2?run=2&mode=full%2Bbm25,web,agent",      // last in the run's order
		"oracle":     "/r/1/q/q2?run=2&mode=full%2Bbm25,oracle,web",     // between
		"full":       "/r/1/q/q2?run=2&mode=full,full%2Bbm25,web",       // first
		"self-route": "/r/1/q/q2?run=2&mode=full%2Bbm25,self-route,web", // a hyphen needs no escape
	} {
		if urls[chip] != want {
			t.Errorf("chip %s links to %q, want %q", chip, urls[chip], want)
		}
	}
	if !slices.Equal(on, []string{"full+bm25", "web"}) {
		t.Errorf("chips on %v, want full+bm25 and web", on)
	}
	for _, want := range []string{
		`href="/r/1/q/q1?run=2&amp;mode=full%2Bbm25,web">← previous</a>`,
		`href="/r/1/q/q3?run=2&amp;mode=full%2Bbm25,web">next →</a>`,
		`href="/r/1/q/q2?run=1&amp;mode=full%2Bbm25,web">1:`,
	} {
		if !strings.Contains(two, want) {
			t.Errorf("links do not keep the choice: no %s", want)
		}
	}

	// Nothing the run knows: every mode, as without a choice.
	if _, none, _ := get(t, srv, "/r/1/q/q2?mode=nonsense"); !slices.Equal(columns(none), twelveModes) {
		t.Errorf("?mode=nonsense: columns %v, want all twelve", columns(none))
	}
}
