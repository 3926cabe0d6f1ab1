package session

import (
	"strings"
	"testing"
)

// config.json records the command line without secrets: header values
// redacted, URLs without user info or query, inline or as the next
// argument; everything else as given.
func TestCommandLine(t *testing.T) {
	secret := map[string]bool{"--header": true}
	urls := map[string]bool{"--base-url": true}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--model", "m", "-k", "3"}, "p eval --model m -k 3"},
		{[]string{"eval", "--header", "Authorization: Bearer sk-1"}, "p eval --header Authorization: [redacted]"},
		{[]string{"eval", "--header=X-Key:sk-2"}, "p eval --header=X-Key: [redacted]"},
		{[]string{"eval", "--base-url", "https://u:pw@host/v1?key=sk-3"}, "p eval --base-url https://host/v1"},
		{[]string{"eval", "--base-url=https://u:pw@host/v1"}, "p eval --base-url=https://host/v1"},
		{[]string{"eval", "--header"}, "p eval --header"},
	} {
		got := strings.Join(CommandLine("p", c.args, secret, urls), " ")
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}
