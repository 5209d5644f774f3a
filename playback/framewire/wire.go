package framewire

import (
	"encoding/binary"
	"fmt"
	"math"
)

// writer appends a frame's values: integers as varints, floats as their
// exact 64 bits, strings and lists with their length first.
type writer struct{ b []byte }

func (w *writer) int(v int64)   { w.b = binary.AppendVarint(w.b, v) }
func (w *writer) uint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) f64(v float64) { w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v)) }
func (w *writer) str(s string)  { w.uint(uint64(len(s))); w.b = append(w.b, s...) }

func (w *writer) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// reader reads what writer wrote. The first error sticks: later reads
// return zeros, and err names the section and the byte it was at.
type reader struct {
	b       []byte
	off     int
	section string
	err     error
	nums    []uint64 // room for a chunk's numbers (getLinks)
}

// scratch is room for n numbers.
func (r *reader) scratch(n int) []uint64 {
	if cap(r.nums) < n {
		r.nums = make([]uint64, n)
	}
	return r.nums[:n]
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("section %s at byte %d: %s", r.section, r.off, what)
	}
}

func (r *reader) int() int64 {
	u := r.varint("a broken number")
	if u&1 != 0 {
		return ^int64(u >> 1)
	}
	return int64(u >> 1)
}

func (r *reader) uint() uint64 { return r.varint("a broken count") }

// varint reads an unsigned varint as binary.Uvarint does, its loop written
// here: in WebAssembly the calls into encoding/binary (Varint, Uvarint) for
// every number were a quarter of the canvas's thread while a run computed
// (BENCHMARKS.md, issue 29). A broken one fails with what.
func (r *reader) varint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for i, s := r.off, uint(0); i < len(r.b) && i-r.off < binary.MaxVarintLen64; i, s = i+1, s+7 {
		c := r.b[i]
		if c < 0x80 {
			if i-r.off == binary.MaxVarintLen64-1 && c > 1 {
				break // past 64 bits
			}
			r.off = i + 1
			return v | uint64(c)<<s
		}
		v |= uint64(c&0x7f) << s
	}
	r.fail(what)
	return 0
}

// uvarints reads len(v) unsigned varints from byte off into v, in one loop
// with a local offset, and returns where the next value starts; -1 if one
// is broken or the frame ends first, with nothing recorded: the caller
// then reads number by number (the slow way), which names the error. In
// WebAssembly a call per number was most of Decode (BENCHMARKS.md, issue 29).
func (r *reader) uvarints(off int, v []uint64) int {
	b := r.b
	for j := range v {
		if off >= len(b) {
			return -1
		}
		c := b[off]
		off++
		if c < 0x80 {
			v[j] = uint64(c)
			continue
		}
		x := uint64(c & 0x7f)
		for s := uint(7); ; s += 7 {
			if off >= len(b) || s > 63 {
				return -1
			}
			c = b[off]
			off++
			if c < 0x80 {
				if s == 63 && c > 1 {
					return -1 // past 64 bits
				}
				x |= uint64(c) << s
				break
			}
			x |= uint64(c&0x7f) << s
		}
		v[j] = x
	}
	return off
}

// zigzag is the signed number of a varint's bits (binary.Varint's).
func zigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (r *reader) f64() float64 {
	if r.err != nil || r.need(8) {
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.off:]))
	r.off += 8
	return v
}

func (r *reader) bool() bool {
	if r.err != nil || r.need(1) {
		return false
	}
	v := r.b[r.off]
	if v > 1 {
		r.fail(fmt.Sprintf("a flag of %d (0 or 1)", v))
		return false
	}
	r.off++
	return v == 1
}

func (r *reader) str() string {
	n := r.count(1)
	if r.err != nil {
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

// count reads a list's length, each element taking at least min bytes: a
// length the rest of the frame cannot hold is an error, not an allocation.
func (r *reader) count(min int) int { return r.fits(r.uint(), min) }

// fits is n if the rest of the frame can hold n elements of min bytes.
func (r *reader) fits(n uint64, min int) int {
	if r.err == nil && n > uint64(len(r.b)-r.off)/uint64(min) {
		r.fail(fmt.Sprintf("%d elements, more than the %d bytes left hold", n, len(r.b)-r.off))
		return 0
	}
	return int(n)
}

// index reads a count that must lie in [lo, hi].
func (r *reader) index(lo, hi int, what string) int {
	v := r.int()
	if r.err == nil && (v < int64(lo) || v > int64(hi)) {
		r.fail(fmt.Sprintf("%s %d outside %d…%d", what, v, lo, hi))
		return lo
	}
	return int(v)
}

// need reports (and records) that fewer than n bytes are left.
func (r *reader) need(n int) bool {
	if len(r.b)-r.off < n {
		r.fail(fmt.Sprintf("the frame ends: %d bytes wanted, %d left", n, len(r.b)-r.off))
		return true
	}
	return false
}

// list writes a list's length so that a nil list comes back nil: 0 for
// nil, else the length + 1.
func (w *writer) list(n int, null bool) {
	if null {
		w.uint(0)
	} else {
		w.uint(uint64(n) + 1)
	}
}

// list reads what writer.list wrote: the length, and whether the list is nil.
func (r *reader) list(min int) (int, bool) {
	n := r.uint()
	if n == 0 || r.err != nil {
		return 0, true
	}
	return r.fits(n-1, min), false
}

func (w *writer) int32s(v []int32) {
	w.list(len(v), v == nil)
	for _, x := range v {
		w.int(int64(x))
	}
}

func (r *reader) int32s() []int32 {
	n, null := r.list(1)
	if null || r.err != nil {
		return nil
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(r.int())
	}
	return out
}
