package wasmjumps

import "sort"

// item is a piece of a segment: bytes copied as they are, or a branch
// out of the segment, re-encoded where the segment lands.
type item struct {
	start, end int  // bytes of fn (plain), or of the branch
	kind       byte // 0 plain, 'U' branch to the unwind exit, 'J' a jump
	op         byte // br or br_if
	inner      int  // blocks open inside the segment at the branch
	pc         int32
	target     int
}

type region struct {
	a, b     int // its first and last segment
	top      bool
	children []child
}

type child struct {
	seg int     // a segment, or -1
	r   *region // a loop, if seg < 0
}

func (c child) first() int {
	if c.r != nil {
		return c.r.a
	}
	return c.seg
}

type label struct {
	kind byte // 'U' unwind exit, 'T' the dispatch loop, 'O' a loop, 'B' a block before child m
	r    *region
	m    int
}

func rewriteFunc(fn []byte, nparams int, withLoops bool, st *Stats) (out []byte, ok bool) {
	defer func() {
		if recover() != nil { // not in the shape this reads: left as it is
			out, ok = nil, false
		}
	}()
	r := &rd{b: fn}
	type localDecl struct {
		n uint32
		t byte
	}
	var decls []localDecl
	nlocals := nparams
	for range r.u32() {
		d := localDecl{r.u32(), r.byte()}
		decls = append(decls, d)
		nlocals += int(d.n)
	}
	rp := uint32(nlocals)
	prologue := r.i
	if fn[r.i] == 0x23 && fn[r.i+1] == 0x00 && fn[r.i+2] == 0x21 {
		r.i += 3
		r.u32()
	}
	prologueEnd := r.i
	unwind := false
	if fn[r.i] == 0x02 && fn[r.i+1] == 0x40 && fn[r.i+2] == 0x03 {
		unwind = true
		r.i += 2
	}
	if fn[r.i] != 0x03 || fn[r.i+1] != 0x40 {
		return nil, false
	}
	r.i += 2
	nb := 0
	for fn[r.i] == 0x02 && fn[r.i+1] == 0x40 {
		nb++
		r.i += 2
	}
	if nb < 2 || fn[r.i] != 0x20 || fn[r.i+1] != 0x00 || fn[r.i+2] != 0x0e {
		return nil, false
	}
	r.i += 3
	table := make([]int, r.u32()+1)
	for k := range table {
		table[k] = int(r.u32())
		if table[k] >= nb {
			return nil, false
		}
	}
	if r.byte() != 0x0b {
		return nil, false
	}
	// The segments: segment k runs from the end of ladder block k to the next end.
	segs := make([][]item, nb)
	k, inner := 0, 0
	plain := r.i
	flush := func(end int) {
		if end > plain {
			segs[k] = append(segs[k], item{start: plain, end: end})
		}
	}
	var prev1, prev2 int = -1, -1 // the starts of the two instructions before
	var tail int
scan:
	for {
		at := r.i
		op := r.byte()
		switch op {
		case 0x02, 0x03, 0x04:
			if bt := fn[r.i]; bt == 0x40 || bt >= 0x6f && bt <= 0x7f {
				r.i++
			} else {
				r.s64()
			}
			inner++
		case 0x0b:
			if inner > 0 {
				inner--
				break
			}
			flush(at)
			if k == nb-1 {
				tail = r.i
				break scan
			}
			k++
			plain = r.i
			prev1, prev2 = -1, -1
			continue
		case 0x0c, 0x0d:
			d := int(r.u32())
			if d < inner {
				break
			}
			ext := d - inner
			switch {
			case ext == nb-1-k && op == 0x0c:
				// i32.const C; local.set 0; br loop
				if prev2 < 0 || fn[prev2] != 0x41 || fn[prev1] != 0x21 || fn[prev1+1] != 0x00 || prev1+2 != at {
					panic(errShape)
				}
				c := &rd{b: fn, i: prev2 + 1}
				pc := c.s64()
				if c.i != prev1 || pc < 0 || pc > 1<<16 {
					panic(errShape)
				}
				flush(prev2)
				t := table[len(table)-1]
				if int(pc) < len(table)-1 {
					t = table[pc]
				}
				segs[k] = append(segs[k], item{start: prev2, end: r.i, kind: 'J', inner: inner, pc: int32(pc), target: t})
				plain = r.i
				prev1, prev2 = -1, -1
				continue
			case ext == nb-k && unwind:
				flush(at)
				segs[k] = append(segs[k], item{start: at, end: r.i, kind: 'U', op: op, inner: inner})
				plain = r.i
				prev1, prev2 = -1, -1
				continue
			default:
				panic(errShape)
			}
		case 0x0e:
			for range r.u32() + 1 {
				if int(r.u32()) >= inner {
					panic(errShape)
				}
			}
		case 0x20:
			if r.u32() == 0 && (prev2 < 0 || fn[prev2] != 0x21 || fn[prev2+1] != 0x00 || fn[prev1] != 0x41 || fn[prev1+1] != 0x00) {
				panic(errShape) // PC_B read other than as call_indirect's scratch
			}
		case 0x10, 0x21, 0x22, 0x23, 0x24:
			r.u32()
		case 0x11:
			r.u32()
			r.u32()
		case 0x41, 0x42:
			r.s64()
		case 0x43:
			r.i += 4
		case 0x44:
			r.i += 8
		case 0x3f, 0x40:
			r.i++
		case 0xfc:
			switch r.u32() {
			case 0, 1, 2, 3, 4, 5, 6, 7:
			case 10:
				r.i += 2
			case 11:
				r.i++
			default:
				panic(errShape)
			}
		default:
			switch {
			case op >= 0x28 && op <= 0x3e:
				r.u32()
				r.u32()
			case op == 0x00 || op == 0x01 || op == 0x0f || op == 0x1a || op == 0x1b || op >= 0x45 && op <= 0xc4:
			default:
				panic(errShape)
			}
		}
		prev2, prev1 = prev1, at
	}
	if tail == 0 {
		panic(errShape)
	}

	// Loops: each target of a jump back heads one, up to its last jump back;
	// a loop that would overlap another's end stays with the dispatch.
	ends := map[int]int{}
	for s, items := range segs {
		for _, it := range items {
			if withLoops && it.kind == 'J' && it.target <= s {
				ends[it.target] = max(ends[it.target], s)
			}
		}
	}
	heads := make([]int, 0, len(ends))
	for h := range ends {
		heads = append(heads, h)
	}
	sort.Ints(heads)
	var spans [][2]int
	var open [][2]int
	for _, h := range heads {
		e := ends[h]
		for len(open) > 0 && open[len(open)-1][1] < h {
			open = open[:len(open)-1]
		}
		if len(open) > 0 && open[len(open)-1][1] < e {
			continue
		}
		if h == 0 && e == nb-1 {
			continue // the dispatch loop is one already
		}
		spans = append(spans, [2]int{h, e})
		open = append(open, [2]int{h, e})
	}
	top := &region{a: 0, b: nb - 1, top: true}
	next := 0
	var build func(g *region)
	build = func(g *region) {
		for s := g.a; s <= g.b; {
			if next < len(spans) && spans[next][0] == s {
				c := &region{a: spans[next][0], b: spans[next][1]}
				next++
				build(c)
				g.children = append(g.children, child{seg: -1, r: c})
				s = c.b + 1
				continue
			}
			g.children = append(g.children, child{seg: s})
			s++
		}
	}
	build(top)

	// Emit. With loops of its own, a function dispatches on a local of its
	// own, rp: PC_B is also call_indirect's scratch, and a loop's head
	// must tell a resumption (rp ≠ 0) from an iteration. Every segment
	// then starts by clearing it.
	loops := len(spans) > 0
	out = make([]byte, 0, len(fn)+len(fn)/8)
	if loops {
		out = appendU32(out, uint32(len(decls)+1))
		for _, d := range decls {
			out = appendU32(out, d.n)
			out = append(out, d.t)
		}
		out = append(out, 1, 0x7f)
		out = append(out, fn[prologue:prologueEnd]...)
		out = append(out, 0x20, 0x00, 0x21)
		out = appendU32(out, rp)
	} else {
		rp = 0
		out = append(out, fn[:prologueEnd]...)
	}
	var ext []label
	if unwind {
		out = append(out, 0x02, 0x40)
		ext = append(ext, label{kind: 'U'})
	}
	depth := func(it item, want func(label) bool) int {
		for j := len(ext) - 1; j >= 0; j-- {
			if want(ext[j]) {
				return it.inner + len(ext) - 1 - j
			}
		}
		return -1
	}
	childOf := func(g *region, s int) int {
		for m, c := range g.children {
			if c.r != nil && s >= c.r.a && s <= c.r.b || c.seg == s {
				return m
			}
		}
		panic(errShape)
	}
	var emit func(g *region)
	emit = func(g *region) {
		out = append(out, 0x03, 0x40)
		if g.top {
			ext = append(ext, label{kind: 'T', r: g})
		} else {
			ext = append(ext, label{kind: 'O', r: g})
		}
		n := len(g.children)
		for m := n - 1; m >= 1; m-- {
			out = append(out, 0x02, 0x40)
			ext = append(ext, label{kind: 'B', r: g, m: m})
		}
		// The dispatch, in a block of its own ending before child 0.
		out = append(out, 0x02, 0x40)
		if g.top {
			out = append(out, 0x20)
			out = appendU32(out, rp)
			out = append(out, 0x0e)
			out = appendU32(out, uint32(len(table)-1))
			for _, s := range table {
				out = appendU32(out, uint32(childOf(g, s)))
			}
		} else {
			lo, hi := -1, -1
			for p, s := range table[:len(table)-1] {
				if s >= g.a && s <= g.b {
					if lo < 0 {
						lo = p
					}
					hi = p
				}
			}
			if lo >= 0 {
				out = append(out, 0x20)
				out = appendU32(out, rp)
				out = append(out, 0x45, 0x0d, 0x00) // i32.eqz; br_if 0
				out = append(out, 0x20)
				out = appendU32(out, rp)
				out = append(out, 0x41)
				out = appendS32(out, int32(lo))
				out = append(out, 0x6b, 0x0e) // i32.sub; br_table
				out = appendU32(out, uint32(hi-lo+1))
				for p := lo; p <= hi; p++ {
					m := 0
					if s := table[p]; s >= g.a && s <= g.b {
						m = childOf(g, s)
					}
					out = appendU32(out, uint32(m))
				}
				out = appendU32(out, 0)
			}
		}
		out = append(out, 0x0b)
		for m, c := range g.children {
			if c.r != nil {
				emit(c.r)
			} else {
				if loops {
					out = append(out, 0x41, 0x00, 0x21) // the segment runs with rp 0
					out = appendU32(out, rp)
				}
				for _, it := range segs[c.seg] {
					switch it.kind {
					case 0:
						out = append(out, fn[it.start:it.end]...)
					case 'U':
						out = append(out, it.op)
						out = appendU32(out, uint32(depth(it, func(l label) bool { return l.kind == 'U' })))
					case 'J':
						d := -1
						if it.target > c.seg {
							d = depth(it, func(l label) bool { return l.kind == 'B' && l.r.children[l.m].first() == it.target })
						} else {
							d = depth(it, func(l label) bool { return l.kind == 'O' && l.r.a == it.target })
						}
						if d >= 0 {
							if it.target > c.seg {
								st.Forward++
							} else {
								st.Loops++
							}
							out = append(out, 0x0c)
							out = appendU32(out, uint32(d))
							break
						}
						st.Dispatch++
						out = append(out, 0x41)
						out = appendS32(out, it.pc)
						out = append(out, 0x21)
						out = appendU32(out, rp)
						out = append(out, 0x0c)
						out = appendU32(out, uint32(depth(it, func(l label) bool { return l.kind == 'T' })))
					}
				}
			}
			if m < n-1 {
				out = append(out, 0x0b)
				ext = ext[:len(ext)-1]
			}
		}
		out = append(out, 0x0b) // the loop's end
		ext = ext[:len(ext)-1]
	}
	emit(top)
	out = append(out, fn[tail:]...)
	return out, true
}
