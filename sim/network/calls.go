package network

import "fabriclab/sim/fabric"

// Calls holds the callbacks workloads schedule with At until their event
// runs. An event carries the callback's slot, not the closure; slots are reused.
type Calls struct {
	fns     []func()
	free    []int32
	pending int
}

// Add keeps fn until Run and returns its slot.
func (c *Calls) Add(fn func()) int32 {
	var slot int32
	if n := len(c.free); n > 0 {
		slot = c.free[n-1]
		c.free = c.free[:n-1]
		c.fns[slot] = fn
	} else {
		slot = int32(len(c.fns))
		c.fns = append(c.fns, fn)
	}
	c.pending++
	return slot
}

// Run runs the callback in slot and frees the slot (before the callback
// runs, so that it may schedule another).
func (c *Calls) Run(slot int32) {
	fn := c.fns[slot]
	c.fns[slot] = nil
	c.free = append(c.free, slot)
	c.pending--
	if fn != nil {
		fn()
	}
}

// Pending is how many callbacks wait for their event.
func (c *Calls) Pending() int { return c.pending }

// Streams remembers the last flow of each ordered stream (fabric.Transfer.Stream).
type Streams struct {
	last map[fabric.StreamKey]int32
}

// Join makes flow i the last of tr's stream. It returns the flow that was
// last before, if tr is ordered and there was one: i waits for it unless it
// has been sent.
func (s *Streams) Join(tr fabric.Transfer, i int32) (prev int32, ok bool) {
	if tr.Stream <= 0 {
		return -1, false
	}
	if s.last == nil {
		s.last = map[fabric.StreamKey]int32{}
	}
	k := fabric.StreamKey{Src: tr.Src, Dst: tr.Dst, Stream: tr.Stream}
	prev, ok = s.last[k]
	s.last[k] = i
	return prev, ok
}

// Local reports whether tr crosses no network: it completes at once, in event order.
func Local(tr fabric.Transfer) bool { return tr.Bytes <= 0 || tr.Src == tr.Dst }
