package model_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/paperlens/paperlens/internal/testkit/modeltest"
	"github.com/paperlens/paperlens/model"
)

// A reasoning model behind an OpenAI-compatible server, called through the
// full stack: the second identical call is answered from the cache. The
// fake server stands in for DeepSeek or vLLM; against a real one, set
// BaseURL and take the key from the environment.
func Example() {
	srv := modeltest.Start(modeltest.Config{Answer: func(modeltest.Request) (string, string) {
		return "B", "Table 2 reports the ablation; option B matches it."
	}})
	defer srv.Close()

	base, err := model.NewOpenAI(model.Options{
		BaseURL:   srv.BaseURL(),               // e.g. "https://api.deepseek.com/v1"
		APIKey:    os.Getenv("EXAMPLE_NO_KEY"), // e.g. os.Getenv("DEEPSEEK_API_KEY")
		APIKeyEnv: "$DEEPSEEK_API_KEY",
	})
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "model-example")
	defer os.RemoveAll(dir)
	chat, closer, err := model.Stack(base, model.StackOptions{
		CachePath:   filepath.Join(dir, "responses.db"),
		RPM:         600,
		Concurrency: 16,
	})
	if err != nil {
		panic(err)
	}
	defer closer.Close()

	t := 0.0
	req := model.Request{
		Model:       "deepseek-reasoner",
		Temperature: &t,
		Messages: []model.Message{
			{Role: "system", Content: "Answer with the letter of the correct option."},
			{Role: "user", Content: "Which ablation hurts most? A) … B) … C) …"},
		},
	}
	for range 2 {
		resp, err := chat.Complete(context.Background(), req)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s cached=%v attempts=%d reasoning=%q (%d tokens)\n",
			resp.Content, resp.Cached, resp.Attempts, resp.Reasoning, resp.Usage.ReasoningTokens)
	}
	fmt.Println("server calls:", srv.Count())
	// Output:
	// B cached=false attempts=1 reasoning="Table 2 reports the ablation; option B matches it." (13 tokens)
	// B cached=true attempts=0 reasoning="Table 2 reports the ablation; option B matches it." (13 tokens)
	// server calls: 1
}
