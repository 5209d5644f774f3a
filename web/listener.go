package web

import (
	"io"
	"math"
	"net"
	"sync"
	"time"
)

// Listener is ln with lim's caps on connections. At most lim.Connections are
// open at once: Accept then waits for one to close, and the kernel queues
// newcomers, so a burst is served late rather than refused and the server
// never runs out of file descriptors. At most lim.PerClient are open from
// one client (an IPv4 address, an IPv6 /64): more are closed as they arrive,
// so that one client cannot take every slot while others wait. Each write of
// a response must finish within lim.Stall (see conn). A cap of 0 is none.
func Listener(ln net.Listener, lim Limits) net.Listener {
	l := &limitListener{Listener: ln, lim: lim, done: make(chan struct{}), clients: map[string]int{}}
	if lim.Connections > 0 {
		l.slots = make(chan struct{}, lim.Connections)
	}
	return l
}

type limitListener struct {
	net.Listener
	lim       Limits
	slots     chan struct{} // one token per open connection; nil: no cap
	done      chan struct{} // closed by Close, to stop an Accept waiting for a slot
	closeOnce sync.Once

	mu      sync.Mutex
	clients map[string]int // open connections per client
}

func (l *limitListener) Accept() (net.Conn, error) {
	if l.slots != nil {
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
	}
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			l.release()
			return nil, err
		}
		client := clientOf(c.RemoteAddr())
		l.mu.Lock()
		over := l.lim.PerClient > 0 && l.clients[client] >= l.lim.PerClient
		if !over {
			l.clients[client]++
		}
		l.mu.Unlock()
		if over {
			c.Close()
			continue
		}
		return &conn{Conn: c, stall: l.lim.Stall, closed: func() { l.closed(client) }}, nil
	}
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// closed gives back a connection's slot.
func (l *limitListener) closed(client string) {
	l.mu.Lock()
	if l.clients[client]--; l.clients[client] <= 0 {
		delete(l.clients, client)
	}
	l.mu.Unlock()
	l.release()
}

func (l *limitListener) release() {
	if l.slots != nil {
		<-l.slots
	}
}

// clientOf is whom a connection counts against: its IP address, or for
// IPv6 its /64 (one host commonly has a whole /64 to pick addresses from).
func clientOf(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	if ip4 := tcp.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return tcp.IP.Mask(net.CIDRMask(64, 128)).String()
}

// stallChunk is the most a write moves under one deadline: a response must
// move stallChunk bytes every Stall (64 KiB per 30 s is 17 kbit/s).
const stallChunk = 64 << 10

// conn holds each write to its peer to the stall deadline: a client that
// stops reading is cut off within Stall, while one that reads, however
// slowly, keeps its response going up to the server's write timeout, which
// the deadline never passes. It gives back its slot when closed.
type conn struct {
	net.Conn
	stall     time.Duration
	closed    func()
	closeOnce sync.Once

	mu  sync.Mutex
	end time.Time // the server's write deadline (zero: none)
}

func (c *conn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	c.end = t
	c.mu.Unlock()
	return c.Conn.SetDeadline(t)
}

func (c *conn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.end = t
	c.mu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

// moving sets the deadline of the next write: Stall from now, or the
// server's own if that comes first.
func (c *conn) moving() {
	if c.stall <= 0 {
		return
	}
	d := time.Now().Add(c.stall)
	c.mu.Lock()
	if !c.end.IsZero() && c.end.Before(d) {
		d = c.end
	}
	c.mu.Unlock()
	c.Conn.SetWriteDeadline(d)
}

func (c *conn) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		c.moving()
		m, err := c.Conn.Write(p[:min(len(p), stallChunk)])
		n += m
		if err != nil {
			return n, err
		}
		p = p[m:]
	}
	return n, nil
}

// ReadFrom keeps the sendfile path (the kernel copies the file to the
// socket) in chunks of stallChunk, each under its own deadline. A
// LimitedReader (what http.ServeContent gives) is unwrapped, because sendfile
// looks through one LimitedReader only.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	rf, ok := c.Conn.(io.ReaderFrom)
	if !ok {
		return io.Copy(struct{ io.Writer }{c}, r)
	}
	src, left := r, int64(math.MaxInt64)
	if lr, ok := r.(*io.LimitedReader); ok {
		src, left = lr.R, lr.N
		defer func() { lr.N = left }()
	}
	var total int64
	for left > 0 {
		c.moving()
		n, err := rf.ReadFrom(&io.LimitedReader{R: src, N: min(left, stallChunk)})
		total += n
		left -= n
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, nil
}

// CloseWrite lets the server half-close, as it does on a bare TCP connection.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return c.Conn.Close()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.closeOnce.Do(c.closed)
	return err
}
