package main

import (
	"strings"

	"github.com/paperlens/paperlens/model"
)

// secretFlags carry values that are never written: header values may be
// tokens.
var secretFlags = map[string]bool{"--header": true, "--judge-header": true}

// urlFlags carry URLs, written without user info or query.
var urlFlags = map[string]bool{"--base-url": true, "--judge-base-url": true, "--embed-base-url": true,
	"--searxng-url": true, "--qdrant-url": true, "--rerank-base-url": true}

// commandLine is args as given, with header values replaced by
// "Name: [redacted]" and URLs stripped of credentials.
func commandLine(args []string) []string {
	out := make([]string, 0, len(args)+1)
	out = append(out, "paperlens")
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, inline := strings.Cut(a, "=")
		if !strings.HasPrefix(name, "--") {
			out = append(out, a)
			continue
		}
		clean := func(v string) string {
			switch {
			case secretFlags[name]:
				h, _, _ := strings.Cut(v, ":")
				return strings.TrimSpace(h) + ": [redacted]"
			case urlFlags[name]:
				return model.NormalizeEndpoint(v)
			}
			return v
		}
		if inline {
			out = append(out, name+"="+clean(val))
			continue
		}
		out = append(out, a)
		if (secretFlags[name] || urlFlags[name]) && i+1 < len(args) {
			i++
			out = append(out, clean(args[i]))
		}
	}
	return out
}
