package main

import (
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// serve warns on stderr when --addr binds every interface, and only then.
func TestServeWarnsOnEveryInterface(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn bool
	}{
		{"localhost:0", false},
		{"127.0.0.1:0", false},
		{"[::1]:0", false},
		{":0", true},
		{"0.0.0.0:0", true},
		{"[::]:0", true},
	} {
		ln, err := net.Listen("tcp", tc.addr)
		if err != nil {
			t.Logf("%s: cannot listen here (%v); skipped", tc.addr, err)
			continue
		}
		var stderr strings.Builder
		warnIfPublic(&stderr, tc.addr, ln.Addr())
		ln.Close()
		if tc.warn {
			assert.Contains(t, stderr.String(), "warning: --addr "+tc.addr+" listens on every network interface", tc.addr)
			assert.Contains(t, stderr.String(), "use --addr localhost:", tc.addr)
		} else {
			assert.Empty(t, stderr.String(), tc.addr)
		}
	}
}
