package web

import (
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"time"
)

// Limits bound what one client can hold of the server: how long it may take
// to send a request, to take a response, and to sit idle between requests,
// how large its headers may be, and how many connections it and everyone
// may have open (see Listener).
type Limits struct {
	ReadHeader  time.Duration // to send the request line and headers
	Read        time.Duration // to send the whole request
	Write       time.Duration // from the end of the request to the end of the response
	Stall       time.Duration // for each write of up to 64 KiB of a response (Listener)
	Idle        time.Duration // a keep-alive connection between requests
	HeaderSize  int           // bytes of request line and headers
	Connections int           // open at once; more wait to be accepted (Listener)
	PerClient   int           // open at once from one address; more are closed (Listener)
}

// DefaultLimits are what fabriclab serve uses. Write leaves ten minutes for
// a response: the 16 MB viz.wasm over a 256 kbit/s link, or its 3 MB brotli
// twin over 50 kbit/s; Stall cuts off a client that stops reading after 30 s
// rather than ten minutes (a response must move 64 KiB every 30 s: 17
// kbit/s). HeaderSize leaves room for the embed page's longest query (256
// KiB: a 64 KiB scenario in yaml= plus set= values). Connections stays well
// under the limit on open files (each connection may hold a socket and a
// file); PerClient is five times what a browser opens to one site (6).
var DefaultLimits = Limits{
	ReadHeader:  10 * time.Second,
	Read:        30 * time.Second,
	Write:       10 * time.Minute,
	Stall:       30 * time.Second,
	Idle:        60 * time.Second,
	HeaderSize:  320 << 10,
	Connections: connectionCap(openFileLimit()),
	PerClient:   32,
}

// connectionCap is the default cap on open connections for a limit of
// fileLimit open files (0: unknown): a quarter of it, at most 256.
func connectionCap(fileLimit uint64) int {
	if fileLimit == 0 || fileLimit/4 > 256 {
		return 256
	}
	return max(int(fileLimit/4), 8)
}

// Dir is a built site's directory opened for serving, confined by os.Root: a
// symbolic link inside it that leads out of it is refused.
type Dir struct {
	root *os.Root
}

// OpenDir opens the site in dir for serving.
func OpenDir(dir string) (*Dir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("serving %s: %w (build the site first: fabriclab build --out %s)", dir, err, dir)
	}
	return &Dir{root: root}, nil
}

// FS is the site's files, for Handler.
func (s *Dir) FS() fs.FS { return s.root.FS() }

// Close closes the site's directory.
func (s *Dir) Close() error { return s.root.Close() }

// Server is an http.Server for the site with the limits applied; serve it
// on Listener(ln, lim), which holds the caps on connections and Stall.
func (s *Dir) Server(lim Limits) *http.Server {
	return &http.Server{
		Handler:           Handler(s.FS()),
		ReadHeaderTimeout: lim.ReadHeader,
		ReadTimeout:       lim.Read,
		WriteTimeout:      lim.Write,
		IdleTimeout:       lim.Idle,
		MaxHeaderBytes:    lim.HeaderSize,
	}
}
