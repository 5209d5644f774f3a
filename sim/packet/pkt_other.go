//go:build !wasm

package packet

// set copies x into p: natively a struct copy is a few wide moves, fewer
// instructions than the fields one by one (pkt_wasm.go).
func (p *pkt) set(x *pkt) { *p = *x }
