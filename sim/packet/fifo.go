package packet

// fifo is a queue of packets: a port's egress queue, or one class's share of
// it. It holds them by value, as events do: no packet lives on the heap by
// itself. The packets wait in chunks taken from the model's pool and given
// back as they are spent (an empty queue keeps its last one), so the
// queues' storage is about what they hold at once (a slice per queue, grown
// by append, left each one's high-water mark two or three times over in
// garbage: fresh pages, each a page fault) and it never moves.
type fifo struct {
	head, tail *chunk
	rd, wr     int32 // the front's place in head, the next free place in tail
	n          int32
}

// chunkPkts packets and the link make a chunk 1,016 bytes: the 1 KiB size class.
const chunkPkts = 42

type chunk struct {
	p    [chunkPkts]pkt
	next *chunk
}

// chunks is the model's pool of free chunks.
type chunks struct{ free *chunk }

func (c *chunks) get() *chunk {
	k := c.free
	if k == nil {
		return new(chunk)
	}
	c.free, k.next = k.next, nil
	return k
}

func (c *chunks) put(k *chunk) { k.next, c.free = c.free, k }

func (f *fifo) len() int    { return int(f.n) }
func (f *fifo) front() *pkt { return &f.head.p[f.rd] }

func (f *fifo) add(c *chunks, x *pkt) {
	if f.tail == nil {
		f.tail = c.get()
		f.head = f.tail
	} else if f.wr == chunkPkts {
		k := c.get()
		f.tail.next = k
		f.tail, f.wr = k, 0
	}
	f.tail.p[f.wr].set(x)
	f.wr++
	f.n++
}

// drop removes the front packet, giving each chunk back as it is spent
// but the last: an empty queue keeps its chunk for the next packet.
func (f *fifo) drop(c *chunks) {
	f.n--
	if f.n == 0 { // the last packet: head is tail
		f.rd, f.wr = 0, 0
		return
	}
	if f.rd++; f.rd == chunkPkts {
		k := f.head
		f.head, f.rd = k.next, 0
		c.put(k)
	}
}
