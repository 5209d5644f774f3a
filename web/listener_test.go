package web

import (
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The default cap on connections is a quarter of the open-file limit (each
// connection may hold a socket and a file), at most 256.
func TestConnectionCap(t *testing.T) {
	for _, tc := range []struct {
		files uint64
		cap   int
	}{
		{0, 256},       // unknown
		{1024, 256},    // the usual soft limit
		{400, 100},     // a low one: a quarter
		{1 << 20, 256}, // Go raises the soft limit to the hard one
		{16, 8},        // absurdly low: still serves a browser
	} {
		assert.Equal(t, tc.cap, connectionCap(tc.files), "%d open files", tc.files)
	}
	assert.LessOrEqual(t, DefaultLimits.Connections, 256)
	if n := openFileLimit(); n > 0 {
		assert.LessOrEqual(t, uint64(DefaultLimits.Connections), max(n/4, 8), "well under this process's limit of %d files", n)
	}
}

// A client is an IPv4 address, or an IPv6 /64.
func TestClientOf(t *testing.T) {
	of := func(s string) string { return clientOf(&net.TCPAddr{IP: net.ParseIP(s), Port: 1234}) }
	assert.Equal(t, of("127.0.0.1"), of("::ffff:127.0.0.1"), "an IPv4 address however written")
	assert.NotEqual(t, of("127.0.0.1"), of("127.0.0.2"))
	assert.Equal(t, of("2001:db8::1"), of("2001:db8::ffff:2"), "one /64")
	assert.NotEqual(t, of("2001:db8::1"), of("2001:db8:0:1::1"), "another /64")
}
