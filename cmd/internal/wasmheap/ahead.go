package wasmheap

import "runtime/metrics"

// Growing the WebAssembly memory ahead of the heap. The Go runtime grows it
// 4 MiB at a time (one heap arena), and in V8 every grow costs a few to tens
// of milliseconds (the memory's buffer is replaced, and V8 collects its own
// heap for the external memory): perm-1024, whose heap reaches 600 MiB,
// grew it about 150 times, which took 30 % of its computing under Node
// (runtime.growMemory and V8's collector in the CPU profile; see
// BENCHMARKS.md, "compute2"; the reservation at init covers a heap up to
// 512 MiB, this one past it). Allocating one block as large as the memory
// already is, and dropping it, doubles the memory in one grow; the next
// collection frees the block, and the heap then grows into its pages. One
// grow of hundreds of MiB took over 100 ms in Chromium (64 MiB 5–50 ms), so it goes in
// pieces of growStep, one a slice, and only once the heap's free pages run
// low: a block placed in free pages grows nothing and costs their clearing.

const (
	growStep = 32 << 20
	growLow  = 16 << 20
)

// GrowAhead grows the memory by growStep (at most to limit bytes) when the
// heap has less than growLow free, and reports how many bytes it added.
func GrowAhead(limit uint64) uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	for _, v := range s {
		if v.Value.Kind() != metrics.KindUint64 {
			return 0
		}
	}
	n := growBy(s[0].Value.Uint64(), s[1].Value.Uint64()+s[2].Value.Uint64(), limit)
	if n == 0 {
		return 0
	}
	b := make([]byte, n) // fresh pages: not cleared, not touched but one
	b[len(b)-1] = 1
	return uint64(len(b))
}

// growBy is how much to grow a memory of total bytes with free of them
// free in the heap: growStep once free runs below growLow, within limit.
func growBy(total, free, limit uint64) uint64 {
	if free >= growLow || total+growStep > limit {
		return 0
	}
	return growStep
}
