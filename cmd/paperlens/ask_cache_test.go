package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// ask keeps its answers in the home it asks of: the same question again
// is answered from that cache, while another home (another corpus, or a
// test's own copy) asks the model afresh, whatever server port an earlier
// invocation on the machine used.
func TestAskCachesInItsHome(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: func(modeltest.Request) (string, string) {
		return "Parked tokens return highest score first.", ""
	}})
	ask := func(home string) {
		t.Helper()
		if _, errOut, code := paperlens(t, "ask", "--home", home, "--paper", "tidal-token-pruning", "--mode", "bm25",
			"--model", "fake-model", "--base-url", srv.BaseURL(), "How are parked tokens brought back?"); code != 0 {
			t.Fatalf("ask: exit %d: %s", code, errOut)
		}
	}
	a, b := papersHome(t, false), papersHome(t, false)
	ask(a)
	n := len(srv.Requests())
	if n == 0 {
		t.Fatal("the first ask sent nothing")
	}
	ask(a)
	if got := len(srv.Requests()); got != n {
		t.Errorf("the same question in the same home sent %d more requests; want its cached answer", got-n)
	}
	if _, err := os.Stat(filepath.Join(a, "ask-cache")); err != nil {
		t.Errorf("no answer cache in the home: %v", err)
	}
	ask(b)
	if got := len(srv.Requests()); got == n {
		t.Error("another home was answered from the first home's cache")
	}
}
