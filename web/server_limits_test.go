package web_test

import (
	"bufio"
	stderrors "errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/web"
)

// A request that announces a body and never sends it is answered at once
// and the connection closed, rather than held until the 30 s read timeout
// while the server waits to drain the body. The client's 10 s deadline only
// bounds a failure.
func TestServerAnswersUnsentBodyAtOnce(t *testing.T) {
	addr, _ := loopbackServer(t, siteWith(t, map[string]int{"index.html": 100}), web.DefaultLimits)
	require.Greater(t, web.DefaultLimits.Read, 20*time.Second, "the read timeout the answer must not wait for")
	for _, tc := range []struct {
		method string
		code   int
	}{
		{http.MethodPost, http.StatusMethodNotAllowed},
		{http.MethodPut, http.StatusMethodNotAllowed},
		{http.MethodGet, http.StatusOK},
	} {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		_, err = io.WriteString(conn, tc.method+" /index.html HTTP/1.1\r\nHost: fabriclab\r\nContent-Length: 1000\r\n\r\n")
		require.NoError(t, err)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err, "%s: answered before the client's deadline", tc.method)
		assert.Equal(t, tc.code, resp.StatusCode, tc.method)
		assert.True(t, resp.Close, "%s: Connection: close, so the server need not drain the body", tc.method)
		if tc.code == http.StatusMethodNotAllowed {
			assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"), tc.method)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		assert.NoError(t, err, "%s: the whole answer arrives", tc.method)
	}
}

// dialFrom connects to addr from the local address ip (127.0.0.2 is a
// client of its own on Linux's loopback), or skips the test where the
// system has no such address.
func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("no loopback address %s here: %v", ip, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// request sends a GET on conn and reads the whole response; the error is
// what ended it.
func request(conn net.Conn, path string) (*http.Response, error) {
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: fabriclab\r\n\r\n"); err != nil {
		return nil, err
	}
	if err := conn.SetReadDeadline(time.Now().Add(patience)); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	return resp, err
}

// One client holding its cap of connections gets no more (the next is
// closed at once), while another client is served; a closed connection gives
// its slot back.
func TestServerPerClientCap(t *testing.T) {
	lim := web.DefaultLimits
	lim.PerClient = 4
	addr, _ := loopbackServer(t, siteWith(t, map[string]int{"index.html": 100}), lim)

	var held []net.Conn
	for range lim.PerClient {
		conn := dialFrom(t, "127.0.0.1", addr)
		resp, err := request(conn, "/index.html")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		held = append(held, conn) // kept alive, idle
	}
	_, err := request(dialFrom(t, "127.0.0.1", addr), "/index.html")
	require.Error(t, err, "one connection over the client's cap is not served")
	var ne net.Error
	assert.False(t, stderrors.As(err, &ne) && ne.Timeout(), "it is closed at once, not left waiting: %v", err)

	resp, err := request(dialFrom(t, "127.0.0.2", addr), "/index.html")
	require.NoError(t, err, "another client is served")
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	held[0].Close()
	assert.Eventually(t, func() bool {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return false
		}
		defer conn.Close()
		resp, err := request(conn, "/index.html")
		return err == nil && resp.StatusCode == http.StatusOK
	}, patience, 20*time.Millisecond, "the closed connection's slot is free again")
}

// With every slot taken, newcomers wait to be accepted (none is refused),
// and the server never has more connections open than its cap.
func TestServerConnectionCap(t *testing.T) {
	const clients = 12
	lim := web.DefaultLimits
	lim.Connections = 4
	d, err := web.OpenDir(siteWith(t, map[string]int{"index.html": 100}))
	require.NoError(t, err)
	srv := d.Server(lim)
	var mu sync.Mutex
	open, most := 0, 0
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch s {
		case http.StateNew:
			open++
			most = max(most, open)
		case http.StateClosed, http.StateHijacked:
			open--
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(web.Listener(ln, lim))
	t.Cleanup(func() { srv.Close(); d.Close() })

	served := make(chan net.Conn, clients)
	failed := make(chan error, clients)
	for range clients {
		conn, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		t.Cleanup(func() { conn.Close() })
		go func() {
			resp, err := request(conn, "/index.html")
			if err == nil && resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("status %s", resp.Status)
			}
			if err != nil {
				failed <- err
				return
			}
			served <- conn
		}()
	}
	// Each served client, kept alive, holds its slot until it hangs up.
	for i := range clients {
		select {
		case conn := <-served:
			conn.Close()
		case err := <-failed:
			require.NoError(t, err, "client %d", i)
		case <-time.After(patience):
			require.FailNow(t, "no client served", "%d of %d served", i, clients)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	assert.LessOrEqual(t, most, lim.Connections, "connections open at once")
	assert.Positive(t, most)
}

// A client that stops reading is cut off after Stall, long before the write
// timeout; one that reads slowly but steadily for longer than Stall gets the
// whole file.
func TestServerStallCutsOffNonReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	const nonReaders, size = 4, 32 << 20 // more than loopback socket buffers hold
	lim := web.DefaultLimits
	lim.Stall = time.Second
	require.Greater(t, lim.Write, 10*patience, "the write timeout plays no part")
	addr, closed := loopbackServer(t, siteWith(t, map[string]int{"viz.wasm": size}), lim)

	slow := make(chan error, 1)
	_, resp := get(t, addr, "/viz.wasm")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	go func() { // 64 KiB every 10 ms: 5 s in all, each 64 KiB well within Stall
		buf := make([]byte, 64<<10)
		got := 0
		for {
			n, err := io.ReadFull(resp.Body, buf)
			got += n
			if err != nil {
				if got == size && (err == io.EOF || err == io.ErrUnexpectedEOF) {
					err = nil
				}
				slow <- err
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	for range nonReaders {
		_, resp := get(t, addr, "/viz.wasm")
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	assert.Eventually(t, func() bool { return closed.Load() >= nonReaders }, patience, 20*time.Millisecond,
		"the server closes the connections whose clients do not read")
	select {
	case err := <-slow:
		assert.NoError(t, err, "the slow reader gets the whole file")
	case <-time.After(2 * patience):
		assert.Fail(t, "the slow reader never finished")
	}
}
