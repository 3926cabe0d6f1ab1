package inspector

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/paperlens/paperlens/eval/run"
)

// A keep-alive connection left idle is closed by the server, after its idle
// timeout. The server runs in a synctest bubble over net.Pipe connections,
// so the timeout runs on the bubble's clock: the close is seen exactly
// IdleTimeout after the response, and a server that never closed would
// leave the bubble deadlocked, which fails the test. (A loopback socket
// and a real clock could only say "within 5 s", which a busy machine can
// break.)
func TestServerClosesIdleConnections(t *testing.T) {
	dir, _ := writeFixture(t, run.Config{})
	site, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if srv := site.Server(0); srv.IdleTimeout != IdleTimeout || srv.ReadHeaderTimeout == 0 || srv.WriteTimeout == 0 {
		t.Fatalf("timeouts %+v", srv)
	}
	synctest.Test(t, func(t *testing.T) {
		const idle = 200 * time.Millisecond
		srv := site.Server(idle)
		ln := newPipeListener()
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		defer func() {
			srv.Close()
			<-served
		}()
		c := ln.dial()
		defer c.Close()
		if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(c)
		res, err := http.ReadResponse(br, nil)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("%v %v", res, err)
		}
		if res.Close {
			t.Fatal("the server closes after one request: nothing to keep alive")
		}
		io.Copy(io.Discard, res.Body)
		start := time.Now()
		if _, err := br.ReadByte(); err != io.EOF {
			t.Fatalf("idle connection not closed: %v", err)
		}
		if d := time.Since(start); d != idle {
			t.Errorf("closed %v after the response, want the idle timeout %v", d, idle)
		}
	})
}

// pipeListener hands the server the far ends of net.Pipe connections,
// which, unlike sockets, work inside a synctest bubble.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	l.conns <- server
	return client
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
