package main

import (
	"fmt"
	"io"

	"github.com/paperlens/paperlens/eval/run"
)

func remoteWebSearch(c run.Config, f *evalFlags) (run.WebSearch, io.Closer, error) {
	return nil, nil, fmt.Errorf("--web-provider %s is not available in this build; use --web-provider corpus", c.WebProvider)
}
