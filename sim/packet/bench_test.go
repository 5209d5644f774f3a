package packet

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
)

func benchScenario(b *testing.B, name string, sets ...string) {
	sc, err := scenario.Load(name, os.ReadFile, sets)
	require.NoError(b, err)
	b.ReportAllocs()
	var events uint64
	for b.Loop() {
		m := New(&sc)
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
