//go:build unix

package model_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// A run killed with SIGKILL right after a paid call returns keeps that
// answer: a child process makes one call through the stack and kills
// itself before it can close anything; the parent reopens the file against
// a server that now fails everything and must be served from the cache.
// The fake stands in for the paid API.
func TestCacheSurvivesKill(t *testing.T) {
	if os.Getenv("MODEL_KILL_CHILD") == "1" {
		killChild()
		return
	}
	srv := modeltest.NewServer(t, modeltest.Config{})
	path := filepath.Join(t.TempDir(), "responses.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheSurvivesKill$")
	cmd.Env = append(os.Environ(), "MODEL_KILL_CHILD=1", "MODEL_KILL_PATH="+path, "MODEL_KILL_URL="+srv.BaseURL())
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v\n%s", err, out)
	}
	if srv.Count() != 1 {
		t.Fatalf("child made %d calls", srv.Count())
	}
	srv.Update(func(c *modeltest.Config) { c.Faults.ServerError = 1 })
	base := newClient(t, model.Options{BaseURL: srv.BaseURL()})
	chat, closer, err := model.Stack(base, model.StackOptions{CachePath: path, Retry: model.RetryOptions{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	resp, err := chat.Complete(t.Context(), ask("paid for once"))
	if err != nil || !resp.Cached || resp.Content != "answer: paid for once" || srv.Count() != 1 {
		t.Fatalf("after the kill: %+v %v (%d server calls)", resp, err, srv.Count())
	}
}

func killChild() {
	base, err := model.NewOpenAI(model.Options{BaseURL: os.Getenv("MODEL_KILL_URL")})
	if err != nil {
		os.Exit(3)
	}
	chat, _, err := model.Stack(base, model.StackOptions{CachePath: os.Getenv("MODEL_KILL_PATH")})
	if err != nil {
		os.Exit(4)
	}
	if _, err := chat.Complete(context.Background(), ask("paid for once")); err != nil {
		os.Exit(5)
	}
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
