package inspector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// ListenAndServe serves the site at addr until ctx ends (paperlens serve),
// saying where on out, and warning on log when the address is reachable
// from other machines.
func (s *Site) ListenAndServe(ctx context.Context, addr string, out, log io.Writer) error {
	s.mu.Lock()
	n := len(s.runs)
	s.mu.Unlock()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (another server there? try --addr 127.0.0.1:0 for any free port)", addr, err)
	}
	host, _, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(log, "warning: listening on %s: anyone who can reach this machine can read these runs\n", ln.Addr())
	}
	srv := s.Server(0)
	fmt.Fprintf(out, "paperlens inspector: %d run(s) at http://%s/  (read-only; Ctrl-C stops)\n", n, ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
