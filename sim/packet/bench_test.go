package packet

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

func benchScenario(b *testing.B, name string, sets ...string) {
	sc, err := scenario.Load(name, os.ReadFile, sets)
	require.NoError(b, err)
	b.ReportAllocs()
	var events uint64
	for b.Loop() {
		m := New(resolve(b, &sc))
		m.Run()
		events += m.eng.Events()
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkIncast(b *testing.B)        { benchScenario(b, "incast") }
func BenchmarkPerm1024Spray(b *testing.B) { benchScenario(b, "perm-1024") }
func BenchmarkPerm1024ECMP(b *testing.B)  { benchScenario(b, "perm-1024", "network.routing=ecmp") }
func BenchmarkIncastDCQCN(b *testing.B)   { benchScenario(b, "incast-dcqcn") }
func BenchmarkPerm1024DCQCN(b *testing.B) { benchScenario(b, "perm-1024", "network.cc=dcqcn") }
func BenchmarkIncastIBCC(b *testing.B)    { benchScenario(b, "incast-ibcc") }
func BenchmarkIncastCredit(b *testing.B)  { benchScenario(b, "incast-ibcc", "network.cc=none") }

// BenchmarkPktCopy compares a packet copied as a struct with pkt.set, which
// in WebAssembly copies field by field (pkt_wasm.go): there the struct copy
// (24 bytes, over the 16 the compiler copies inline) is a call to
// memory.copy. Natively set is the struct copy. Run it in WebAssembly with
// GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run '^$' -bench PktCopy ./sim/packet
func BenchmarkPktCopy(b *testing.B) {
	src, dst := make([]pkt, 1024), make([]pkt, 1024)
	b.Run("struct", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			dst[i&1023] = src[(i*7)&1023]
		}
	})
	b.Run("set", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			dst[i&1023].set(&src[(i*7)&1023])
		}
	})
}

// BenchmarkSnapshotPerm1024 is the canvas's snapshot of perm-1024 20 µs
// in (22,609 packets on the wire), which the player takes every frame.
func BenchmarkSnapshotPerm1024(b *testing.B) {
	sc, err := scenario.Load("perm-1024", os.ReadFile, nil)
	require.NoError(b, err)
	m := New(resolve(b, &sc))
	m.Advance(20 * unit.Microsecond)
	b.ReportAllocs()
	for b.Loop() {
		m.Snapshot()
	}
}
