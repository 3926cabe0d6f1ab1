package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/paperlens/paperlens/eval/agent"
	"github.com/paperlens/paperlens/eval/run"
	"github.com/paperlens/paperlens/internal/modeltest"
)

// pythonAsker stands in for a model in LPFQA's code-interpreter setting:
// it answers the tool preflight with a call, sends print(sum(range(10)))
// to the python tool, then answers with the option numbered by what the
// cell printed (45 → "ABCD"[45%4] = B).
func pythonAsker() modeltest.Config {
	return modeltest.Config{
		ToolCalls: func(r modeltest.Request) []modeltest.ToolCall {
			for _, t := range r.Tools {
				if strings.Contains(string(t), `"name":"ping"`) {
					return []modeltest.ToolCall{modeltest.Call("call_ping", "ping", `{"text":"ok"}`)}
				}
			}
			for _, m := range r.Messages {
				if m.Role == "tool" {
					return nil
				}
			}
			args, _ := json.Marshal(map[string]string{"code": "print(sum(range(10)))"})
			return []modeltest.ToolCall{modeltest.Call("call_1", agent.ToolPython, string(args))}
		},
		Answer: func(r modeltest.Request) (string, string) {
			for _, m := range r.Messages {
				if m.Role != "tool" {
					continue
				}
				out := strings.TrimSpace(strings.TrimPrefix(m.Content, "stdout:"))
				if n, err := strconv.Atoi(out); err == nil {
					return fmt.Sprintf("The cell printed %d, so the answer is %c.", n, "ABCD"[n%4]), ""
				}
				return "The tool said " + m.Content, ""
			}
			return "", ""
		},
	}
}

// tool-python end to end: the model's cell runs in the python tool, its
// output comes back, the answer built from it is scored, and the record
// keeps the transcript. --unsafe-python only matters where bubblewrap is
// missing.
func TestEvalToolPython(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, pythonAsker())
	data := writeQuestions(t, 2)
	out := filepath.Join(t.TempDir(), "run")
	stdout, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "tool-python", "--runs", "1", "--unsafe-python", "--max-tool-calls", "3", "--out", out, "--home", t.TempDir())
	if code != 0 {
		t.Fatalf("eval exit %d\n%s\n%s", code, stdout, stderr)
	}
	cfg, err := run.Dir(out).ReadConfig()
	if err != nil || cfg.MaxToolCalls != 3 || !cfg.UnsafePython {
		t.Errorf("config.json: max_tool_calls %d, unsafe_python %v (%v); want 3, true", cfg.MaxToolCalls, cfg.UnsafePython, err)
	}
	if _, err := os.Stat(filepath.Join(out, run.ToolsFile)); err != nil {
		t.Errorf("no tool cache in the run folder: %v", err)
	}
	recs := readRecords(t, out)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	for _, r := range recs {
		tr := r.Transcript
		if r.Error != "" || tr == nil || tr.ToolCalls != 1 || len(tr.Steps) != 2 {
			t.Fatalf("%s: error %q, transcript %+v", r.QuestionID, r.Error, tr)
		}
		c := tr.Steps[0].Calls[0]
		if c.Name != agent.ToolPython || c.Result.Status != "ok" || strings.TrimSpace(c.Result.Text) != "stdout:\n45" {
			t.Errorf("%s: python call %+v", r.QuestionID, c)
		}
		if r.Extracted != "B" || r.Correct != (r.Gold == "B") {
			t.Errorf("%s: output %q extracted %q, gold %s, correct %v", r.QuestionID, r.Output, r.Extracted, r.Gold, r.Correct)
		}
	}
}

// A server without tool support stops a tool mode before any record, with
// an error naming the mode, and a non-zero exit.
func TestEvalToolModeWithoutToolSupport(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.Config{Answer: answerByNumber, NoTools: true})
	data := writeQuestions(t, 2)
	out := filepath.Join(t.TempDir(), "run")
	_, stderr, code := paperlens(t, "eval", "--bench", "jsonl", "--data", data, "--model", "fake-model", "--base-url", srv.BaseURL(),
		"--mode", "closed-book,tool-python", "--runs", "1", "--unsafe-python", "--out", out, "--home", t.TempDir())
	if code == 0 || !strings.Contains(stderr, "mode tool-python") || !strings.Contains(stderr, "does not support tool calling") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if n := countLines(filepath.Join(out, "results.jsonl")); n != 0 {
		t.Errorf("%d records written", n)
	}
}
