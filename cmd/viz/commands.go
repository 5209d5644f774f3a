package main

import (
	"sync"

	"fabriclab/protocol"
)

// commandQueue carries commands from JavaScript callbacks to Update. It
// holds at most maxQueued bytes: a page that floods messages between two
// frames cannot fill the heap; what does not fit is dropped and counted.
type commandQueue struct {
	mu      sync.Mutex
	items   [][]byte
	bytes   int
	dropped int
	wake    func() // asks for the frame that runs them (frames.go), or nil
}

// maxQueued is what commands waiting for one Update may take, in bytes (64
// of the longest; each counts 64 bytes more for its bookkeeping).
const maxQueued = 64 * protocol.MaxCommand

func (q *commandQueue) push(b []byte) {
	q.mu.Lock()
	if n := len(b) + 64; q.bytes+n > maxQueued {
		q.dropped++
	} else {
		q.items = append(q.items, b)
		q.bytes += n
	}
	q.mu.Unlock()
	if q.wake != nil {
		q.wake()
	}
}

// drain takes the waiting commands, and how many were dropped since the last drain.
func (q *commandQueue) drain() (items [][]byte, dropped int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	items, dropped = q.items, q.dropped
	q.items, q.bytes, q.dropped = nil, 0, 0
	return items, dropped
}

// hasLoad says a load command waits in h's queue already (one the page sent
// before the program was ready). Other commands (play, a lesson's quiz) ask
// for no run of their own.
func hasLoad(h host) bool {
	q := h.commands()
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, b := range q.items {
		if c, err := protocol.DecodeCommand(b); err == nil {
			if _, ok := c.(protocol.Load); ok {
				return true
			}
		}
	}
	return false
}
