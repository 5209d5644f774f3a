package web_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
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
