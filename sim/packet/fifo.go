package packet

// fifo is a queue of packets: a port's egress queue, or one class's share of
// it. It holds them by value, as events do: no packet lives on the heap.
type fifo struct {
	items []pkt
	head  int
}

func (f *fifo) len() int    { return len(f.items) - f.head }
func (f *fifo) front() *pkt { return &f.items[f.head] }

func (f *fifo) add(x *pkt) {
	f.items = append(f.items, pkt{})
	f.items[len(f.items)-1].set(x)
}

// drop removes the front packet, reusing the storage when the queue
// empties and compacting it once more than half is spent.
func (f *fifo) drop() {
	f.head++
	if f.head == len(f.items) {
		f.items, f.head = f.items[:0], 0
	} else if f.head > 64 && f.head*2 > len(f.items) {
		n := copy(f.items, f.items[f.head:])
		f.items, f.head = f.items[:n], 0
	}
}
