package web_test

import (
	"bufio"
	"bytes"
	stderrors "errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/web"
)

// These tests run a real server on a loopback port. Their timeouts are
// small, and no assertion depends on how fast the machine is: waits have a
// generous bound only so that a broken server fails the test instead of
// hanging it.

const patience = 20 * time.Second

// loopbackServer serves dir with lim on 127.0.0.1, as fabriclab serve does
// (web.Listener included), and counts the connections the server has closed.
func loopbackServer(t *testing.T, dir string, lim web.Limits) (addr string, closed *atomic.Int64) {
	t.Helper()
	d, err := web.OpenDir(dir)
	require.NoError(t, err)
	srv := d.Server(lim)
	closed = new(atomic.Int64)
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed.Add(1)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(web.Listener(ln, lim))
	t.Cleanup(func() { srv.Close(); d.Close() })
	return ln.Addr().String(), closed
}

// siteWith writes files of the given sizes into a new directory.
func siteWith(t *testing.T, sizes map[string]int) string {
	dir := t.TempDir()
	for name, n := range sizes {
		data := bytes.Repeat([]byte("fabriclab "), n/10+1)[:n]
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	return dir
}

// get sends a GET on a new connection and reads the response's headers, not
// its body.
func get(t *testing.T, addr, path string) (net.Conn, *http.Response) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: fabriclab\r\n\r\n")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(patience)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	return conn, resp
}

func heapInuse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// 64 clients fetch a 4 MiB file at once, half of them slowly and half never
// reading: the server streams from the file, so its heap holds a few
// kilobytes per connection, not a copy of the file per request.
func TestServerMemoryFlatUnderSlowClients(t *testing.T) {
	const clients, size = 64, 4 << 20
	lim := web.DefaultLimits
	lim.PerClient = clients // they all come from 127.0.0.1
	addr, _ := loopbackServer(t, siteWith(t, map[string]int{"viz.wasm": size}), lim)

	before := heapInuse()
	stop := make(chan struct{})
	var readers sync.WaitGroup
	var slowBytes atomic.Int64
	for i := range clients {
		_, resp := get(t, addr, "/viz.wasm")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, int64(size), resp.ContentLength)
		if i%2 == 0 {
			readers.Go(func() { // 4 KiB at a time, 100 times a second
				buf := make([]byte, 4<<10)
				for {
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
					}
					n, err := resp.Body.Read(buf)
					slowBytes.Add(int64(n))
					if err != nil {
						return
					}
				}
			})
		}
	}
	require.Eventually(t, func() bool { return slowBytes.Load() >= clients/2*64<<10 }, patience, 10*time.Millisecond,
		"each slow reader takes 64 KiB")
	after := heapInuse()
	close(stop)
	readers.Wait()

	total := uint64(clients * size)
	growth := uint64(0)
	if after > before {
		growth = after - before
	}
	t.Logf("%d clients × %d MiB = %d MiB requested; heap in use %.1f → %.1f MiB (+%.2f MiB, %.3f%% of requested); slow readers took %d KiB",
		clients, size>>20, total>>20, float64(before)/(1<<20), float64(after)/(1<<20), float64(growth)/(1<<20),
		100*float64(growth)/float64(total), slowBytes.Load()>>10)
	assert.Less(t, growth, total/32, "the heap grew by %d bytes for %d bytes requested", growth, total)
}

// A client that stops reading is cut off by the write timeout, so it cannot
// hold a connection (and a file) for ever.
func TestServerWriteTimeoutCutsOffNonReaders(t *testing.T) {
	const clients, size = 16, 16 << 20 // more than loopback socket buffers hold
	lim := web.DefaultLimits
	lim.Write = 300 * time.Millisecond
	addr, closed := loopbackServer(t, siteWith(t, map[string]int{"viz.wasm": size}), lim)

	var bodies []io.Reader
	for range clients {
		_, resp := get(t, addr, "/viz.wasm")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		bodies = append(bodies, resp.Body)
	}
	require.Eventually(t, func() bool { return closed.Load() == clients }, patience, 20*time.Millisecond,
		"the server closes every connection whose client does not read")
	for i, body := range bodies {
		n, err := io.Copy(io.Discard, body)
		assert.Less(t, n, int64(size), "client %d got the whole file", i)
		assert.Error(t, err, "client %d: the response was cut short", i)
	}
}

// Keep-alive connections left idle are closed by the idle timeout.
func TestServerIdleTimeoutClosesConnections(t *testing.T) {
	const clients = 100
	lim := web.DefaultLimits
	lim.Idle = 200 * time.Millisecond
	lim.PerClient = clients // they all come from 127.0.0.1
	addr, _ := loopbackServer(t, siteWith(t, map[string]int{"index.html": 2000}), lim)

	conns := make([]net.Conn, clients)
	for i := range conns {
		conn, resp := get(t, addr, "/index.html")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		_, err := io.Copy(io.Discard, resp.Body)
		require.NoError(t, err)
		require.False(t, resp.Close, "the connection is kept alive")
		conns[i] = conn
	}
	var closedByServer atomic.Int64
	var wg sync.WaitGroup
	for _, conn := range conns {
		wg.Go(func() {
			// The response was read whole, so the next read waits for the server.
			if _, err := conn.Read(make([]byte, 1)); stderrors.Is(err, io.EOF) {
				closedByServer.Add(1)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int64(clients), closedByServer.Load(), "idle connections closed by the server")
}

// A client that never finishes its headers is dropped after ReadHeader.
func TestServerReadHeaderTimeout(t *testing.T) {
	lim := web.DefaultLimits
	lim.ReadHeader = 200 * time.Millisecond
	addr, closed := loopbackServer(t, siteWith(t, map[string]int{"index.html": 100}), lim)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /index.html HTTP/1.1\r\nHost: fabriclab\r\n")
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(patience)))
	got, err := io.ReadAll(conn)
	require.NoError(t, err, "the server closed the connection (not our deadline)")
	assert.NotContains(t, string(got), "200 OK")
	assert.Eventually(t, func() bool { return closed.Load() == 1 }, patience, 10*time.Millisecond)
}

func TestServerHeaderSizeCap(t *testing.T) {
	addr, _ := loopbackServer(t, siteWith(t, map[string]int{"index.html": 100}), web.DefaultLimits)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	big := strings.Repeat("a", 2*web.DefaultLimits.HeaderSize)
	go io.WriteString(conn, "GET /index.html HTTP/1.1\r\nHost: fabriclab\r\nX-Big: "+big+"\r\n\r\n")
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(patience)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)

	_, ok := get(t, addr, "/index.html")
	assert.Equal(t, http.StatusOK, ok.StatusCode, "a request of ordinary size is served")

	// The embed page's longest query (256 KiB: a 64 KiB scenario as yaml=) is served.
	_, long := get(t, addr, "/index.html?yaml="+strings.Repeat("A", 256<<10))
	assert.Equal(t, http.StatusOK, long.StatusCode, "the embed page's documented query length is served")
}
