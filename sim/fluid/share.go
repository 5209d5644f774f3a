package fluid

// filler computes max-min fair rates by progressive filling over one set of
// links and the flows on them. Every flow not yet fixed runs at the same
// level; a link with frozen load F, unfixed share W and capacity C fills up
// when the level reaches (C − F)/W. A heap of links by that level gives the
// next bottleneck; its unfixed flows are fixed at the level, which adds to
// the frozen load and takes from the share of every other link they cross.
// The cost is O(entries · log links) for the flow–link entries involved.
type filler struct {
	frozenLoad []float64 // per link: bytes/s of the flows fixed so far
	share      []float64 // per link: Σ shares of the flows not yet fixed
	count      []int32   // per link: flows not yet fixed
	level      []float64 // per link: the level at which it fills
	pos        []int32   // per link: index in heap, -1 when not in it
	heap       []int32
	work       uint64 // flow–link entries and heap moves, for the scaling test (Model.Work)
}

func (w *filler) init(links int) {
	w.frozenLoad = make([]float64, links)
	w.share = make([]float64, links)
	w.count = make([]int32, links)
	w.level = make([]float64, links)
	w.pos = make([]int32, links)
	for i := range w.pos {
		w.pos[i] = -1
	}
}

// run sets fair for every flow on links (which must hold every link of those
// flows), marking each fixed flow with gen.
func (w *filler) run(m *Model, links []int32, gen uint32) {
	w.heap = w.heap[:0]
	for _, l := range links {
		ls := &m.links[l]
		w.work += uint64(len(ls.flows))
		w.frozenLoad[l], w.share[l], w.count[l] = 0, 0, 0
		for _, e := range ls.flows {
			w.share[l] += m.flows[e.flow].weight(int(e.k))
			w.count[l]++
		}
		if w.count[l] > 0 {
			w.level[l] = ls.capacity / w.share[l]
			w.pos[l] = int32(len(w.heap))
			w.heap = append(w.heap, l)
		}
	}
	for i := len(w.heap)/2 - 1; i >= 0; i-- {
		w.down(i)
	}
	level := 0.0
	for len(w.heap) > 0 {
		b := w.heap[0]
		w.removeAt(0)
		level = max(level, w.level[b])
		for _, e := range m.links[b].flows {
			f := &m.flows[e.flow]
			if f.frozen == gen {
				continue
			}
			f.frozen, f.fair = gen, level
			w.work += uint64(len(f.links))
			for k, l := range f.links {
				s := f.weight(k)
				w.frozenLoad[l] += float64(s * level) // float64(…) stops FMA fusion: amd64 and wasm agree
				w.share[l] -= s
				w.count[l]--
				if l == b || w.pos[l] < 0 {
					continue
				}
				if w.count[l] == 0 {
					w.removeAt(int(w.pos[l]))
					continue
				}
				// Rounding must not let a level fall below the one reached.
				w.level[l] = max((m.links[l].capacity-w.frozenLoad[l])/w.share[l], level)
				w.fix(int(w.pos[l]))
			}
		}
	}
}

func (w *filler) less(a, b int32) bool {
	return w.level[a] < w.level[b] || w.level[a] == w.level[b] && a < b
}

func (w *filler) swap(i, j int) {
	w.work++
	h := w.heap
	h[i], h[j] = h[j], h[i]
	w.pos[h[i]], w.pos[h[j]] = int32(i), int32(j)
}

func (w *filler) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !w.less(w.heap[i], w.heap[p]) {
			break
		}
		w.swap(i, p)
		i = p
	}
}

func (w *filler) down(i int) {
	n := len(w.heap)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && w.less(w.heap[c+1], w.heap[c]) {
			c++
		}
		if !w.less(w.heap[c], w.heap[i]) {
			return
		}
		w.swap(i, c)
		i = c
	}
}

func (w *filler) fix(i int) {
	w.up(i)
	w.down(i)
}

func (w *filler) removeAt(i int) {
	last := len(w.heap) - 1
	w.pos[w.heap[i]] = -1
	if i != last {
		w.heap[i] = w.heap[last]
		w.pos[w.heap[i]] = int32(i)
	}
	w.heap = w.heap[:last]
	if i != last {
		w.fix(i)
	}
}

// drainHeap orders the active flows by projected drain time (then index), so
// that one engine event at a time stands for all of them.
type drainHeap struct {
	h     []int32
	moves uint64 // for the scaling test (Model.Work)
}

func (d *drainHeap) len() int   { return len(d.h) }
func (d *drainHeap) top() int32 { return d.h[0] }

func (d *drainHeap) less(fs []flow, a, b int32) bool {
	return fs[a].drainAt < fs[b].drainAt || fs[a].drainAt == fs[b].drainAt && a < b
}

func (d *drainHeap) swap(fs []flow, i, j int) {
	d.moves++
	h := d.h
	h[i], h[j] = h[j], h[i]
	fs[h[i]].heapIdx, fs[h[j]].heapIdx = int32(i), int32(j)
}

// set inserts flow i or restores the order after its drainAt changed.
func (d *drainHeap) set(fs []flow, i int32) {
	if fs[i].heapIdx < 0 {
		fs[i].heapIdx = int32(len(d.h))
		d.h = append(d.h, i)
	}
	d.fix(fs, int(fs[i].heapIdx))
}

func (d *drainHeap) fix(fs []flow, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !d.less(fs, d.h[i], d.h[p]) {
			break
		}
		d.swap(fs, i, p)
		i = p
	}
	n := len(d.h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && d.less(fs, d.h[c+1], d.h[c]) {
			c++
		}
		if !d.less(fs, d.h[c], d.h[i]) {
			return
		}
		d.swap(fs, i, c)
		i = c
	}
}

// remove takes the flow at heap index i out.
func (d *drainHeap) remove(fs []flow, i int32) {
	last := len(d.h) - 1
	fs[d.h[i]].heapIdx = -1
	if int(i) != last {
		d.h[i] = d.h[last]
		fs[d.h[i]].heapIdx = i
	}
	d.h = d.h[:last]
	if int(i) != last {
		d.fix(fs, int(i))
	}
}
