package coll

import (
	"math"
	"slices"
	"strings"

	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// Progress follows a run for a viewer: which step the moved bytes have
// reached, how far each rank's copy of each chunk is reduced, and the
// bandwidth so far. The runner updates it as transfers arrive; it adds no
// events and changes nothing the run does. Its size is bounded: cells for at
// most snap.MaxCollRows×MaxCollCols, spans for MaxCollSpans.
type Progress struct {
	s     *Schedule
	ranks []int
	start unit.Time
	end   unit.Time // when it finished, else 0
	res   *final

	bytes       int64 // the message S
	moved, all  int64 // payload bytes arrived and to arrive
	pos         float64
	stepTotal   []int64 // per step (streamed: per phase) transfers in all
	stepGot     []int64
	phaseOf     []int       // per step: index into s.Phases
	phaseStart  []int       // per phase: its first step
	sendsOf     int         // the step Sends were made for, or −1
	routeList   []snap.Send // Routes as endpoint pairs, once made
	sends       []snap.Send
	rows, cols  int
	rowRanks    int
	kind        snap.CellKind
	colOwner    bool
	sum, max    []int64 // per cell: contributions·bytes (Received: bytes), and its full value
	spanOf      func(step int) int
	spans       []snap.Span
	spanTotal   []int64
	spanGot     []int64
	spanBegun   []bool
	cellsOn     bool
	sendRanges  [][][]deltaRange // stepwise: [step][src][j] the deltas of x.sends[step][src][j]
	deltas      []cellDelta
	unitChunks  int64
	pairDeltas  [][]deltaRange // streamed: [phase][pair]
	streamedRun bool
	lanes       int
	part        int64 // streamed: bytes per chunk part
	// streamed: when each phase's pairs left, and pair indexes by (phase,
	// src endpoint, dst endpoint), to count the bytes of flows still on the way
	slot      [][]uint8 // the slot's cells before the first step and after each (streamed: phase)
	phaseAt   []unit.Time
	pairIndex map[[3]int32]int32
	flowPairs []flowPair // by flow: pairIndex's answer for it, kept (inFlight reads every flow a snapshot)
}

// final is what the run reported at its end.
type final struct {
	algbw, busbw float64
}

// cellDelta adds count contributions of unit bytes to column col of the
// receiving rank's row.
type cellDelta struct{ col, count int32 }

type deltaRange struct{ lo, hi int32 }

// Caps on the per-run model behind the cells (the schedule replayed on one
// pipeline slot); beyond them a run has no cells, only steps and bandwidth.
const (
	maxModelTransfers = 1 << 19 // steps × ranks
	maxModelUnits     = 1 << 20 // ranks × chunks
	maxSlotBytes      = 1 << 20 // the slot's cells after every step
)

func newProgress(s *Schedule, ranks []int, o Options, start unit.Time) *Progress {
	p := &Progress{s: s, ranks: ranks, start: start, bytes: int64(o.Bytes), sendsOf: -1, streamedRun: o.Streamed}
	n := s.Ranks
	p.rowRanks = 1
	if n > snap.MaxCollRows {
		if g := s.gpn; g > 1 && n%g == 0 && n/g <= snap.MaxCollRows {
			p.rowRanks = g
		} else {
			p.rowRanks = int(ceilDiv(int64(n), snap.MaxCollRows))
		}
	}
	p.rows = int(ceilDiv(int64(n), int64(p.rowRanks)))
	if o.Streamed {
		p.phaseOf = nil
		p.stepTotal = make([]int64, len(s.Summary))
		p.stepGot = make([]int64, len(s.Summary))
		for i, ph := range s.Summary {
			p.stepTotal[i] = int64(len(ph.Pairs))
		}
		p.spanOf = func(ph int) int { return ph }
		p.spans = make([]snap.Span, len(s.Summary))
		for i := range p.spans {
			p.spans[i].Phase = i
		}
	} else {
		steps := len(s.Steps)
		p.phaseOf = make([]int, steps)
		p.stepTotal = make([]int64, steps)
		p.stepGot = make([]int64, steps)
		ph := -1
		for i, st := range s.Steps {
			if ph < 0 || s.Phases[ph] != st.Phase {
				ph++
				p.phaseStart = append(p.phaseStart, i)
			}
			p.phaseOf[i] = ph
		}
		nb := min(steps, snap.MaxCollSpans)
		p.spanOf = func(st int) int { return st * nb / max(steps, 1) }
		p.spans = make([]snap.Span, nb)
		for i := range steps {
			p.spans[p.spanOf(i)].Phase = p.phaseOf[i]
		}
	}
	p.spanTotal = make([]int64, len(p.spans))
	p.spanGot = make([]int64, len(p.spans))
	p.spanBegun = make([]bool, len(p.spans))
	return p
}

// phaseOfStep is the phase index of step (streamed: phase) i.
func (p *Progress) phaseOfStep(i int) int {
	if p.phaseOf == nil {
		return i
	}
	return p.phaseOf[i]
}

// setupStepwise sizes the counts for a stepwise run: part[c][k] is the
// bytes of one chunk in channel c's piece k.
func (p *Progress) setupStepwise(part [][]unit.Bytes) {
	s := p.s
	p.lanes = len(part) * max(s.Lanes, 1)
	var perChunk int64 // one chunk's bytes over all instances
	for _, ch := range part {
		for _, b := range ch {
			perChunk += int64(b)
		}
	}
	for st, step := range s.Steps {
		for _, t := range step.Transfers {
			p.all += perChunk * int64(t.Parts)
		}
		p.stepTotal[st] = int64(len(step.Transfers)) * int64(instances(part))
		p.spanTotal[p.spanOf(st)] += p.stepTotal[st]
	}
	p.buildCells(perChunk)
}

func instances(part [][]unit.Bytes) int {
	k := 0
	for _, ch := range part {
		k += len(ch)
	}
	return k
}

// setupStreamed sizes the counts for a streamed run, in which each phase's
// pair carries part·Parts bytes once.
func (p *Progress) setupStreamed(part int64) {
	p.lanes = max(p.s.Lanes, 1)
	p.part = part
	p.phaseAt = make([]unit.Time, len(p.s.Summary))
	p.pairIndex = map[[3]int32]int32{}
	for i, ph := range p.s.Summary {
		for j, k := range ph.Pairs {
			p.all += part * int64(k.Parts)
			if k.Src >= 0 && k.Dst >= 0 {
				p.pairIndex[[3]int32{int32(i), int32(p.ranks[k.Src]), int32(p.ranks[k.Dst])}] = int32(j)
			}
		}
		p.spanTotal[i] = int64(len(ph.Pairs))
	}
	p.buildCells(part)
}

// buildCells replays the schedule on one slot to learn what each transfer
// adds to which cell. perChunk is one chunk's bytes (over every instance, or
// the whole streamed message).
func (p *Progress) buildCells(perChunk int64) {
	s := p.s
	if s.Steps == nil || len(s.Steps)*s.Ranks > maxModelTransfers {
		return
	}
	if s.Op == AllToAll {
		p.buildAllToAllCells(perChunk)
		return
	}
	m := newCellModel(s)
	if m == nil {
		return
	}
	p.unitChunks = m.g
	m.replay(s)
	p.placeColumns(m)
	p.sizeCells(m, perChunk)
	p.recordSlot(m)
	if p.streamedRun {
		p.streamedDeltas(m)
	} else {
		p.stepwiseDeltas(m)
	}
	p.cellsOn = true
}

// row is the cell row of rank r.
func (p *Progress) row(r int) int { return r / p.rowRanks }

// buildAllToAllCells sizes the cells of an all-to-all: a row's bytes
// received from each row.
func (p *Progress) buildAllToAllCells(perChunk int64) {
	s := p.s
	p.kind, p.colOwner, p.cols = snap.Received, true, p.rows
	p.sum, p.max = make([]int64, p.rows*p.cols), make([]int64, p.rows*p.cols)
	if s.pxn {
		for src := range s.Ranks { // a relayed share counts once, from its source
			for dst := range s.Ranks {
				if src != dst {
					p.max[p.row(dst)*p.cols+p.row(src)] += perChunk
				}
			}
		}
	}
	for _, ph := range s.Summary {
		for _, k := range ph.Pairs {
			if !s.pxn {
				p.max[p.row(k.Dst)*p.cols+p.row(k.Src)] += perChunk * int64(k.Parts)
			}
		}
	}
	for r := range s.Ranks { // a rank's own slice never moves
		p.sum[p.row(r)*p.cols+p.row(r)] += perChunk
		p.max[p.row(r)*p.cols+p.row(r)] += perChunk
	}
	p.cellsOn = true
}

// cellModel is the schedule replayed on one slot, per rank and unit (the
// largest run of chunks every transfer moves whole).
type cellModel struct {
	n, units    int
	g           int64          // chunks per unit
	full        int32          // contributions of a fully reduced unit (or a copy of it)
	val         []int32        // [rank*units+unit] contributions held, as the replay goes
	val0        []int32        // val before the first step
	owner       []int          // per unit: the rank that owns it, or −1
	col         []int32        // per unit: its cell column
	perTransfer [][]unitUpdate // per transfer in Steps order: what it adds
}

// unitUpdate adds d contributions to unit u of rank dst.
type unitUpdate struct {
	dst, u int
	d      int32
}

// semanticStep reports whether st moves chunks as the schedule names them
// (not in-network, not an NVLS reduce).
func semanticStep(s *Schedule, st *Step) bool {
	return s.Algo != InNetwork && !strings.Contains(st.Phase, "(NVLS)")
}

// newCellModel sizes the units and what each rank holds of each before the
// first step; nil when the model would be too big.
func newCellModel(s *Schedule) *cellModel {
	n := s.Ranks
	g := int64(s.Chunks)
	for i := range s.Steps {
		if semanticStep(s, &s.Steps[i]) {
			for _, t := range s.Steps[i].Transfers {
				g = gcd(gcd(g, int64(t.Chunk)), int64(t.Parts))
			}
		}
	}
	g = max(g, 1)
	units := int(int64(s.Chunks) / g)
	if n*units > maxModelUnits {
		return nil
	}
	m := &cellModel{n: n, units: units, g: g, full: int32(n)}
	m.val = make([]int32, n*units)
	m.owner = make([]int, units)
	for u := range m.owner {
		m.owner[u] = -1
	}
	switch s.Op {
	case AllGather, Broadcast:
		for i := range s.Steps { // the first sender of a unit holds it
			for _, t := range s.Steps[i].Transfers {
				for u := t.Chunk / int(g); u < (t.Chunk+t.Parts)/int(g); u++ {
					if m.owner[u] < 0 && t.Src >= 0 {
						m.owner[u] = t.Src
						m.val[t.Src*units+u] = m.full
					}
				}
			}
		}
	default:
		for i := range m.val {
			m.val[i] = 1
		}
	}
	m.val0 = slices.Clone(m.val)
	return m
}

// replay runs the steps on val, recording each transfer's updates; a step's
// transfers all read the state before it.
func (m *cellModel) replay(s *Schedule) {
	m.perTransfer = make([][]unitUpdate, 0)
	var buf []unitUpdate
	for i := range s.Steps {
		st := &s.Steps[i]
		buf = buf[:0]
		for _, t := range st.Transfers {
			var us []unitUpdate
			if t.Dst >= 0 {
				us = m.transferUpdates(s, st, t)
			}
			m.perTransfer = append(m.perTransfer, us)
			buf = append(buf, us...)
		}
		for _, e := range buf {
			m.val[e.dst*m.units+e.u] += e.d
		}
	}
}

// transferUpdates is what transfer t of step st adds to its receiver.
func (m *cellModel) transferUpdates(s *Schedule, st *Step, t Transfer) []unitUpdate {
	var us []unitUpdate
	g, units, full, val := int(m.g), m.units, m.full, m.val
	everything := s.Algo == InNetwork || strings.HasPrefix(st.Phase, "broadcast in node")
	lo, hi := t.Chunk/g, (t.Chunk+t.Parts)/g
	switch {
	case everything:
		lo, hi = 0, units // every chunk arrives reduced
	case !semanticStep(s, st): // NVLS reduce: the receiver's own slice is its node's sum
		per := units / max(s.gpn, 1)
		k := t.Dst % max(s.gpn, 1)
		lo, hi = k*per, (k+1)*per
	}
	for u := lo; u < hi; u++ {
		old := val[t.Dst*units+u]
		var d int32
		switch {
		case everything:
			d = full - old
		case !semanticStep(s, st):
			d = int32(s.gpn) - old
		case t.Reduce:
			d = val[t.Src*units+u]
			m.owner[u] = t.Dst
		default:
			d = val[t.Src*units+u] - old
		}
		us = append(us, unitUpdate{t.Dst, u, d})
	}
	return us
}

// placeColumns picks the cell columns: the chunks each rank (row) owns, when
// every rank owns as many, else runs of units.
func (p *Progress) placeColumns(m *cellModel) {
	cnt := make([]int, m.n)
	balanced := true
	for _, o := range m.owner {
		if o < 0 {
			balanced = false
			break
		}
		cnt[o]++
	}
	for _, c := range cnt {
		balanced = balanced && c == cnt[0] && c > 0
	}
	m.col = make([]int32, m.units)
	if balanced {
		p.colOwner, p.cols = true, p.rows
		for u, o := range m.owner {
			m.col[u] = int32(p.row(o))
		}
	} else {
		p.cols = min(m.units, snap.MaxCollCols)
		for u := range m.col {
			m.col[u] = int32(u * p.cols / m.units)
		}
	}
}

// sizeCells sets each cell's starting and full value.
func (p *Progress) sizeCells(m *cellModel, perChunk int64) {
	s := p.s
	cells := p.rows * p.cols
	p.sum, p.max = make([]int64, cells), make([]int64, cells)
	ub := perChunk * m.g // one unit's bytes over all instances
	for r := range m.n {
		for u := range m.units {
			i := p.row(r)*p.cols + int(m.col[u])
			p.max[i] += int64(m.full) * ub
			if s.Op == AllGather || s.Op == Broadcast {
				if m.owner[u] == r {
					p.sum[i] += int64(m.full) * ub
				}
			} else {
				p.sum[i] += ub
			}
		}
	}
}

// recordSlot keeps the slot's state after each step (streamed: each phase),
// per cell, when it fits; it uses up m.val0.
func (p *Progress) recordSlot(m *cellModel) {
	s := p.s
	cells := p.rows * p.cols
	marks := len(s.Steps)
	if p.streamedRun {
		marks = len(s.Summary)
	}
	if (marks+1)*cells > maxSlotBytes {
		return
	}
	n, units, cols, col, val0 := m.n, m.units, p.cols, m.col, m.val0
	per := make([]int64, cells) // units per cell
	for r := range n {
		for u := range units {
			per[p.row(r)*cols+int(col[u])]++
		}
	}
	acc := make([]int64, cells)
	record := func() {
		clear(acc)
		for r := range n {
			for u := range units {
				acc[p.row(r)*cols+int(col[u])] += int64(val0[r*units+u])
			}
		}
		st := make([]uint8, cells)
		for i := range st {
			st[i] = share(acc[i], int64(m.full)*per[i])
		}
		p.slot = append(p.slot, st)
	}
	record()
	ti := 0
	for i := range s.Steps {
		for range s.Steps[i].Transfers {
			for _, e := range m.perTransfer[ti] {
				val0[e.dst*units+e.u] += e.d
			}
			ti++
		}
		if !p.streamedRun || i+1 == len(s.Steps) || s.Steps[i+1].Phase != s.Steps[i].Phase {
			record()
		}
	}
}

// toDeltas appends a transfer's updates summed per column, in the runner's
// order, and returns their range in p.deltas.
func (p *Progress) toDeltas(m *cellModel, us []unitUpdate) deltaRange {
	lo := int32(len(p.deltas))
	for _, e := range us {
		c := m.col[e.u]
		if k := len(p.deltas); k > int(lo) && p.deltas[k-1].col == c {
			p.deltas[k-1].count += e.d
			continue
		}
		p.deltas = append(p.deltas, cellDelta{c, e.d})
	}
	return deltaRange{lo, int32(len(p.deltas))}
}

// streamedDeltas indexes the deltas per phase and pair: a streamed pair
// carries all its phase's steps, their updates added up.
func (p *Progress) streamedDeltas(m *cellModel) {
	s := p.s
	p.pairDeltas = make([][]deltaRange, len(s.Summary))
	for ph := range s.Summary {
		index := map[[2]int]int{}
		for j, k := range s.Summary[ph].Pairs {
			index[[2]int{k.Src, k.Dst}] = j
		}
		acc := make([][]unitUpdate, len(s.Summary[ph].Pairs))
		ti := 0
		for i := range s.Steps {
			for _, t := range s.Steps[i].Transfers {
				if p.phaseIndex(s.Steps[i].Phase) == ph {
					if j, ok := index[[2]int{t.Src, t.Dst}]; ok {
						acc[j] = append(acc[j], m.perTransfer[ti]...)
					}
				}
				ti++
			}
		}
		p.pairDeltas[ph] = make([]deltaRange, len(acc))
		for j, us := range acc {
			p.pairDeltas[ph][j] = p.toDeltas(m, us)
		}
	}
}

// stepwiseDeltas indexes the deltas as the runner's sends[st][src][j]
// (Transfers order).
func (p *Progress) stepwiseDeltas(m *cellModel) {
	s := p.s
	ti := 0
	byTransfer := make([]deltaRange, 0, len(m.perTransfer))
	for i := range s.Steps {
		for range s.Steps[i].Transfers {
			byTransfer = append(byTransfer, p.toDeltas(m, m.perTransfer[ti]))
			ti++
		}
	}
	// sends[st][src] lists the step's transfers of src in Transfers order.
	p.sendRanges = make([][][]deltaRange, len(s.Steps))
	ti = 0
	for i := range s.Steps {
		p.sendRanges[i] = make([][]deltaRange, m.n)
		for _, t := range s.Steps[i].Transfers {
			if t.Src >= 0 {
				p.sendRanges[i][t.Src] = append(p.sendRanges[i][t.Src], byTransfer[ti])
			}
			ti++
		}
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// phaseIndex is the index of the phase named name.
func (p *Progress) phaseIndex(name string) int {
	for i, ph := range p.s.Phases {
		if ph == name {
			return i
		}
	}
	return -1
}

// issued records that a transfer of step (streamed: phase) st left now.
func (p *Progress) issued(st int, now unit.Time) {
	if p == nil {
		return
	}
	if b := p.spanOf(st); !p.spanBegun[b] {
		p.spanBegun[b], p.spans[b].First = true, now
		if p.phaseAt != nil {
			p.phaseAt[st] = now
		}
	}
}

// arrivedStep records that x.sends[st][src][j] of an instance whose chunks
// hold part bytes has arrived now.
func (p *Progress) arrivedStep(st, src, j int, t Transfer, part unit.Bytes, now unit.Time) {
	if p == nil {
		return
	}
	p.moved += int64(part) * int64(t.Parts)
	p.count(st, now)
	if !p.cellsOn {
		return
	}
	row := t.Dst / p.rowRanks
	if p.kind == snap.Received {
		p.received(p.phaseOfStep(st), t.Src, t.Dst, t.Parts, int64(part))
		return
	}
	r := p.sendRanges[st][src][j]
	p.apply(row, r, int64(part)*p.unitChunks)
}

// arrivedPair records that streamed phase ph's pair j, of part bytes per
// chunk part, has arrived now.
func (p *Progress) arrivedPair(ph, j int, k Pair, part int64, now unit.Time) {
	if p == nil {
		return
	}
	p.moved += part * int64(k.Parts)
	p.count(ph, now)
	if !p.cellsOn || k.Dst < 0 {
		return
	}
	row := k.Dst / p.rowRanks
	if p.kind == snap.Received {
		p.received(ph, k.Src, k.Dst, k.Parts, part)
		return
	}
	p.apply(row, p.pairDeltas[ph][j], part*p.unitChunks)
}

// received credits an all-to-all's transfer of parts chunk parts of part
// bytes, in phase ph, to the cell of its destination and source. Under PXN
// only what reaches its destination counts, from the rank that sent it: of
// an NVLink transfer, the one share for the relay itself; a rail transfer
// carries one share from each GPU of the relay's node.
func (p *Progress) received(ph, src, dst, parts int, part int64) {
	row := dst / p.rowRanks
	switch g := p.s.gpn; {
	case !p.s.pxn:
		p.sum[row*p.cols+src/p.rowRanks] += part * int64(parts)
	case ph == 0:
		p.sum[row*p.cols+src/p.rowRanks] += part
	default:
		for r := src / g * g; r < src/g*g+g; r++ {
			p.sum[row*p.cols+r/p.rowRanks] += part
		}
	}
}

func (p *Progress) apply(row int, r deltaRange, unitBytes int64) {
	for _, d := range p.deltas[r.lo:r.hi] {
		p.sum[row*p.cols+int(d.col)] += int64(d.count) * unitBytes
	}
}

// count adds an arrival to step (or phase) st.
func (p *Progress) count(st int, now unit.Time) {
	p.stepGot[st]++
	if tot := p.stepTotal[st]; tot > 0 {
		p.pos += 1 / float64(tot)
	}
	b := p.spanOf(st)
	p.spanGot[b]++
	p.spans[b].Last = now
}

// finished records the run's end and its figures.
func (p *Progress) finished(now unit.Time, algbw, busbw float64) {
	if p == nil {
		return
	}
	p.end = now
	p.res = &final{algbw, busbw}
}

// Snapshot is the progress at now, as a viewer draws it. flows is the
// model's snapshot now (full or compact): a streamed run counts the bytes
// its long transfers have delivered so far.
func (p *Progress) Snapshot(now unit.Time, flows *snap.Snapshot) *snap.Collective {
	s := p.s
	pos, moved, sum := p.pos, p.moved, p.sum
	var partial []float64 // streamed: per phase, the pairs' share delivered on unfinished flows
	if p.streamedRun && p.end == 0 {
		pos, moved, sum, partial = p.inFlight(flows)
	}
	c := &snap.Collective{Op: s.Op, Algo: s.Algo, Ranks: s.Ranks, Lanes: p.lanes, Streamed: p.streamedRun, Pipelined: s.Pipelined,
		Phases: len(s.Phases), PhaseNames: s.Phases, Bytes: p.bytes, Kind: p.kind, Rows: p.rows, Cols: p.cols,
		RowRanks: p.rowRanks, ColOwner: p.colOwner}
	steps := len(p.stepTotal)
	cur := min(int(pos+1e-9), steps-1)
	if p.end > 0 {
		cur = steps - 1
	}
	if steps > 0 {
		ph := p.phaseOfStep(cur)
		c.PhaseIndex, c.Phase = ph, s.Phases[ph]
		if !p.streamedRun {
			first := p.phaseStart[ph]
			last := steps
			if ph+1 < len(p.phaseStart) {
				last = p.phaseStart[ph+1]
			}
			c.Step, c.Steps, c.AllSteps = cur-first+1, last-first, steps
		}
		c.Sends = p.sendsAt(cur)
	}
	c.Routes = p.routes()
	if p.all > 0 {
		c.Done = float64(moved) / float64(p.all)
	}
	end := now
	if p.end > 0 {
		end = min(now, p.end)
	}
	c.Elapsed = max(end-p.start, 0)
	c.AlgBwGBps, c.BusBwGBps = Bandwidths(s.Op, s.Ranks, unit.Bytes(c.Done*float64(p.bytes)), c.Elapsed)
	if p.res != nil && now >= p.end {
		c.Finished, c.Done = true, 1
		c.AlgBwGBps, c.BusBwGBps = p.res.algbw, p.res.busbw
	}
	c.Spans = make([]snap.Span, len(p.spans))
	for i, sp := range p.spans {
		if p.spanTotal[i] > 0 {
			got := float64(p.spanGot[i])
			if partial != nil {
				got += partial[i]
			}
			sp.Done = got / float64(p.spanTotal[i])
		}
		c.Spans[i] = sp
	}
	if p.cellsOn {
		c.Cells = make([]uint8, len(sum))
		for i, v := range sum {
			c.Cells[i] = share(v, p.max[i])
		}
		if k := len(p.slot); k > 1 {
			c.Slot = make([]uint8, len(sum))
			i, frac := int(pos), pos-math.Floor(pos)
			if i >= k-1 || p.end > 0 {
				i, frac = k-2, 1
			}
			for j := range c.Slot {
				a, b := float64(p.slot[i][j]), float64(p.slot[i+1][j])
				c.Slot[j] = uint8(math.Round(a + (b-a)*frac))
			}
		}
	} else {
		c.Rows, c.Cols = 0, 0
	}
	return c
}

// inFlight adds to the counts what the streamed run's unfinished transfers
// have delivered: a flow is the collective's when it left at one of the
// phases' start times between a pair of that phase.
func (p *Progress) inFlight(flows *snap.Snapshot) (pos float64, moved int64, sum []int64, partial []float64) {
	pos, moved = p.pos, p.moved
	partial = make([]float64, len(p.phaseAt))
	copied := false
	n := 0
	if flows != nil {
		n = flows.NumFlows()
	}
	for i := range n {
		f := flows.Flow(i)
		if !f.Started || f.Done || f.Tag != -1 || f.Delivered <= 0 || f.Bytes <= 0 {
			continue
		}
		for ph, at := range p.phaseAt {
			if at != f.Start || !p.spanBegun[ph] {
				continue
			}
			j, ok := p.pairOf(i, ph, f)
			if !ok {
				continue
			}
			frac := float64(f.Delivered) / float64(f.Bytes)
			moved += f.Delivered
			partial[ph] += frac
			pos += frac / float64(max(p.stepTotal[ph], 1))
			if p.cellsOn && p.kind == snap.Reduced {
				if !copied {
					sum = slices.Clone(p.sum)
					copied = true
				}
				k := p.s.Summary[ph].Pairs[j]
				row := k.Dst / p.rowRanks
				ub := float64(p.part * p.unitChunks)
				for _, d := range p.deltas[p.pairDeltas[ph][j].lo:p.pairDeltas[ph][j].hi] {
					sum[row*p.cols+int(d.col)] += int64(frac * float64(d.count) * ub)
				}
			} else if p.cellsOn {
				if !copied {
					sum = slices.Clone(p.sum)
					copied = true
				}
				k := p.s.Summary[ph].Pairs[j]
				sum[k.Dst/p.rowRanks*p.cols+k.Src/p.rowRanks] += f.Delivered
			}
			break
		}
	}
	if !copied {
		sum = p.sum
	}
	return pos, moved, sum, partial
}

// flowPair is a flow's pair index in a phase, or -1 for none; ph is -1
// before it is looked up.
type flowPair struct{ ph, j int32 }

// pairOf is pairIndex's answer for flow i (f) in phase ph: a flow's ends
// never change, so it is looked up once.
func (p *Progress) pairOf(i, ph int, f *snap.Flow) (int32, bool) {
	for i >= len(p.flowPairs) {
		p.flowPairs = append(p.flowPairs, flowPair{-1, -1})
	}
	if c := p.flowPairs[i]; c.ph == int32(ph) {
		return c.j, c.j >= 0
	}
	j, ok := p.pairIndex[[3]int32{int32(ph), int32(f.Src), int32(f.Dst)}]
	if !ok {
		j = -1
	}
	p.flowPairs[i] = flowPair{int32(ph), j}
	return j, ok
}

// share is v/m in 0…255.
func share(v, m int64) uint8 {
	if m <= 0 {
		return 0
	}
	return uint8(min(255, max(0, (v*255+m/2)/m)))
}

// routes are the schedule's channels as endpoint pairs, whole lanes while
// they fit in snap.MaxCollRoutes, made once: from lane 0 in order, a tree's
// lane beside its twin on the other tree (l, l+Lanes/2, …), so that both
// trees of a channel come together.
func (p *Progress) routes() []snap.Send {
	s := p.s
	if p.routeList != nil || len(s.Routes) == 0 {
		return p.routeList
	}
	p.routeList = []snap.Send{}
	if s.Lanes == 0 { // one ring, run on every channel the runner copies
		for c := range min(p.lanes, snap.MaxCollRoutes/len(s.Routes)) {
			for _, h := range s.Routes {
				p.routeList = append(p.routeList, snap.Send{Src: int32(p.ranks[h.From]), Dst: int32(p.ranks[h.To]), Lane: int32(c), Net: !s.SameNode(h.From, h.To)})
			}
		}
		return p.routeList
	}
	byLane := make([][]Hop, s.Lanes)
	for _, h := range s.Routes {
		byLane[h.Lane] = append(byLane[h.Lane], h)
	}
	order := make([]int, 0, s.Lanes)
	half := s.Lanes / 2
	for l := range s.Lanes {
		switch {
		case s.Algo != Tree || s.Lanes%2 == 1:
			order = append(order, l)
		case l < half:
			order = append(order, l, l+half)
		}
	}
	for _, l := range order {
		if len(p.routeList)+len(byLane[l]) > snap.MaxCollRoutes {
			break
		}
		for _, h := range byLane[l] {
			p.routeList = append(p.routeList, snap.Send{Src: int32(p.ranks[h.From]), Dst: int32(p.ranks[h.To]), Lane: int32(h.Lane), Net: !s.SameNode(h.From, h.To)})
		}
	}
	return p.routeList
}

// sendsAt lists step (streamed: phase) st's transfers as endpoint pairs,
// made once per step.
func (p *Progress) sendsAt(st int) []snap.Send {
	if st == p.sendsOf {
		return p.sends
	}
	s := p.s
	seen := map[snap.Send]bool{}
	out := []snap.Send{}
	add := func(src, dst, lane int) {
		e := func(r int) int32 {
			if r < 0 {
				return -1
			}
			return int32(p.ranks[r])
		}
		k := snap.Send{Src: e(src), Dst: e(dst), Lane: int32(lane), Net: !s.SameNode(src, dst)}
		if len(out) < snap.MaxCollSends && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if p.streamedRun {
		for _, k := range s.Summary[st].Pairs {
			add(k.Src, k.Dst, 0)
		}
	} else {
		for _, t := range s.Steps[st].Transfers {
			add(t.Src, t.Dst, t.Lane)
		}
	}
	p.sendsOf, p.sends = st, out
	return out
}
