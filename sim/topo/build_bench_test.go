package topo

import (
	"testing"

	"fabriclab/sim/link"
	"fabriclab/sim/unit"
)

// BenchmarkBuildDGX2048: the 16,384-GPU hierarchical all-reduce's fabric
// (2,048 nodes, 8 rails, 35 k nodes and 100 k links).
func BenchmarkBuildDGX2048(b *testing.B) {
	s := Shape{Kind: "dgx", Nodes: 2048, GPUsPerNode: 8, Oversub: 1}
	w := Wiring{Fabric: link.IB, Rate: 400e9, Latency: unit.Microsecond, NVLink: 3600e9}
	b.ReportAllocs()
	for b.Loop() {
		Build(s, w)
	}
}
