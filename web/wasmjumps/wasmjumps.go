// Package wasmjumps rewrites a WebAssembly module built by Go so that its
// functions jump straight to their targets.
//
// Go's compiler makes each function one loop around a br_table on a block
// number: a jump stores the number and branches back to the loop's head,
// and the table sends it on (the same table resumes a goroutine's frames
// after a switch). So every taken jump is two branches, one indirect, and
// to the engine the whole function is one loop. Rewrite makes a jump
// forward a br to the block before its target, and a jump back one to a
// loop of its own around the blocks from its target to it (RewriteLoops
// only); the dispatch stays for resuming and for the jumps back.
package wasmjumps

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Stats counts what Rewrite changed.
type Stats struct {
	Funcs     int // function bodies
	Rewritten int // bodies in Go's dispatch-loop shape, rewritten
	Forward   int // jumps forward made direct
	Loops     int // jumps back made direct (to a loop of their own)
	Dispatch  int // jumps left to the dispatch
}

type rd struct {
	b []byte
	i int
}

var errShape = errors.New("wasmjumps: unexpected code")

func (r *rd) u32() uint32 {
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 || v > 1<<32-1 {
		panic(errShape)
	}
	r.i += n
	return uint32(v)
}

func (r *rd) s64() int64 {
	var result int64
	var shift uint
	for {
		if r.i >= len(r.b) {
			panic(errShape)
		}
		b := r.b[r.i]
		r.i++
		result |= int64(b&0x7f) << shift
		shift += 7
		if b&0x80 == 0 {
			if shift < 64 && b&0x40 != 0 {
				result |= -1 << shift
			}
			return result
		}
	}
}

func (r *rd) byte() byte {
	if r.i >= len(r.b) {
		panic(errShape)
	}
	b := r.b[r.i]
	r.i++
	return b
}

func appendU32(dst []byte, v uint32) []byte { return binary.AppendUvarint(dst, uint64(v)) }

func appendS32(dst []byte, v int32) []byte {
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v == 0 && b&0x40 == 0 || v == -1 && b&0x40 != 0 {
			return append(dst, b)
		}
		dst = append(dst, b|0x80)
	}
}

// Rewrite returns the module with Go's jumps forward made direct; jumps
// back keep the dispatch. Functions not in the compiler's shape (assembly,
// the runtime's trampolines) stay as they are; a module it cannot read is
// an error.
func Rewrite(in []byte) (out []byte, st Stats, err error) { return rewrite(in, false) }

// RewriteLoops is Rewrite with jumps back made direct too, each to a loop
// of its own. Under Node it was no faster than Rewrite, and its modules
// compress less (BENCHMARKS.md, "WebAssembly against native, third round").
func RewriteLoops(in []byte) (out []byte, st Stats, err error) { return rewrite(in, true) }

func rewrite(in []byte, loops bool) (out []byte, st Stats, err error) {
	defer func() {
		if recover() != nil {
			out, err = nil, errors.New("wasmjumps: a malformed WebAssembly module")
		}
	}()
	if len(in) < 8 || !bytes.Equal(in[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, st, errors.New("wasmjumps: not a WebAssembly module")
	}
	var typeParams []int // per type: its parameter count
	var funcTypes []int  // per function (imports first): its type
	out = append(out, in[:8]...)
	r := &rd{b: in, i: 8}
	for r.i < len(in) {
		id := r.byte()
		size := int(r.u32())
		body := in[r.i : r.i+size]
		r.i += size
		switch id {
		case 1:
			typeParams = readTypes(body)
		case 2:
			funcTypes = append(funcTypes, readImportFuncs(body)...)
		case 3:
			s := &rd{b: body}
			for range s.u32() {
				funcTypes = append(funcTypes, int(s.u32()))
			}
		case 10:
			imports := len(funcTypes) - countFuncs(body)
			body = rewriteCode(body, typeParams, funcTypes[imports:], loops, &st)
		}
		out = append(out, id)
		out = appendU32(out, uint32(len(body)))
		out = append(out, body...)
	}
	return out, st, nil
}

func countFuncs(code []byte) int { return int((&rd{b: code}).u32()) }

func readTypes(b []byte) []int {
	r := &rd{b: b}
	n := r.u32()
	ps := make([]int, n)
	for k := range n {
		if r.byte() != 0x60 {
			panic(errShape)
		}
		np := r.u32()
		r.i += int(np)
		nr := r.u32()
		r.i += int(nr)
		ps[k] = int(np)
	}
	return ps
}

func readImportFuncs(b []byte) []int {
	r := &rd{b: b}
	var fs []int
	for range r.u32() {
		r.i += int(r.u32())
		r.i += int(r.u32())
		switch r.byte() {
		case 0:
			fs = append(fs, int(r.u32()))
		case 1: // table
			r.byte()
			limits(r)
		case 2:
			limits(r)
		case 3:
			r.byte()
			r.byte()
		default:
			panic(errShape)
		}
	}
	return fs
}

func limits(r *rd) {
	if r.byte()&1 != 0 {
		r.u32()
	}
	r.u32()
}

func rewriteCode(sec []byte, typeParams, types []int, loops bool, st *Stats) []byte {
	r := &rd{b: sec}
	n := int(r.u32())
	out := appendU32(nil, uint32(n))
	for k := range n {
		size := int(r.u32())
		fn := sec[r.i : r.i+size]
		r.i += size
		st.Funcs++
		if nf, ok := rewriteFunc(fn, typeParams[types[k]], loops, st); ok {
			st.Rewritten++
			fn = nf
		}
		out = appendU32(out, uint32(len(fn)))
		out = append(out, fn...)
	}
	return out
}
