package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
)

// One name per concept: --passage-tokens everywhere, the old names still
// work (ingest's --max-tokens with a deprecation warning), and re-chunking a
// home to another size says so with both sizes.
func TestPassageTokensNames(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	paper := filepath.Join("..", "..", "testdata", "papers", "tidal-token-pruning.md")
	stdout, stderr, code := paperlens(t, "ingest", "--home", home, "--max-tokens", "256", paper)
	if code != 0 || !strings.Contains(stderr, "--max-tokens has been deprecated") || !strings.Contains(stderr, "--passage-tokens") {
		t.Fatalf("old name: exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = paperlens(t, "ingest", "--home", home, "--passage-tokens", "128", paper)
	if code != 0 || !strings.Contains(stdout, "re-chunked from passages of at most 256 tokens") {
		t.Fatalf("re-chunk: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// eval's old --max-passage-tokens is an alias of --passage-tokens.
	sample := filepath.Join("..", "..", "testdata", "elaipbench", "sample.jsonl")
	_, stderr, code = paperlens(t, "eval", "--bench", "elaipbench", "--data", sample, "--model", "random", "--mode", "full",
		"--runs", "1", "--max-passage-tokens", "200", "--limit", "3", "--home", t.TempDir(), "--out", filepath.Join(t.TempDir(), "r"))
	if code != 0 {
		t.Fatalf("eval --max-passage-tokens: exit %d\n%s", code, stderr)
	}
	// study --model is an alias of --models.
	stdout, stderr, code = paperlens(t, "study", "--model", "random", "--mode", "closed-book", "--runs", "1", "--limit", "2",
		"--data", sampleHead(t, 2), "--home", t.TempDir(), "--out", t.TempDir())
	if code != 0 || !strings.Contains(stdout, "# random on elaipbench") || strings.Contains(stdout, "# ir on") {
		t.Fatalf("study --model: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// --log-prompts keeps the exact messages; prompt shows them.
func TestLogPrompts(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber})
	data := writeQuestions(t, 4)
	out := filepath.Join(t.TempDir(), "run")
	if _, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "m", "--base-url", srv.BaseURL(),
		"--mode", "closed-book", "--runs", "2", "--log-prompts", "--out", out, "--home", t.TempDir()); code != 0 {
		t.Fatal(stderr)
	}
	stdout, stderr, code := paperlens(t, "prompt", out, "q002", "--run", "2", "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	var got struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	var sent []modeltest.Message
	for _, r := range questionRequests(srv) {
		if strings.Contains(r.Prompt(), "Question number 2:") {
			sent = r.Messages
		}
	}
	if len(got.Messages) == 0 || len(got.Messages) != len(sent) {
		t.Fatalf("logged %d messages, sent %d", len(got.Messages), len(sent))
	}
	for i := range sent {
		if got.Messages[i].Role != sent[i].Role || got.Messages[i].Content != sent[i].Content {
			t.Errorf("message %d differs from what was sent", i)
		}
	}
	if _, stderr, code := paperlens(t, "prompt", out, "q999"); code == 0 || !strings.Contains(stderr, `no record of question "q999"`) {
		t.Errorf("unknown question: exit %d %s", code, stderr)
	}
}
