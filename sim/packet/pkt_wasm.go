//go:build wasm

package packet

// set copies x into p field by field: in WebAssembly a copy of a struct
// over 16 bytes is a call to memory.copy, dearer than its eight stores.
func (p *pkt) set(x *pkt) {
	p.flow, p.seq, p.payload, p.size, p.inLink = x.flow, x.seq, x.payload, x.size, x.inLink
	p.class, p.ecn, p.hop = x.class, x.ecn, x.hop
}
