package framewire_test

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"fabriclab/playback/framewire"
	"fabriclab/sim/snap"
)

// benchRuns are the runs the codec's benchmarks encode and decode: the
// packet-level benchmark and the flow-level 16k all-reduce of `fabriclab bench`.
var benchRuns = []struct {
	name, scenario string
	sets           []string
}{
	{"perm-1024", "perm-1024", nil},
	{"hier-16k", "hierarchical-allreduce", []string{"topology.nodes=2048"}},
}

// BenchmarkEncode writes every frame of a run (recordFrames'), in order;
// ns/frame and B/frame are per frame, B-largest-full what the largest
// frame's links, flows and packets take in memory.
func BenchmarkEncode(b *testing.B) {
	for _, c := range benchRuns {
		b.Run(c.name, func(b *testing.B) {
			frames := recordFrames(b, c.scenario, c.sets...)
			var size int
			for b.Loop() {
				var enc framewire.Encoder
				var buf []byte
				size = 0
				for _, s := range frames {
					buf = enc.Encode(buf[:0], s)
					size += len(buf)
				}
			}
			report(b, frames, size)
		})
	}
}

// BenchmarkDecode reads them back; cpu-ns/frame is the CPU time the process
// used a frame (the collector's included), steadier than ns/frame on a
// machine shared with other work.
func BenchmarkDecode(b *testing.B) {
	for _, c := range benchRuns {
		b.Run(c.name, func(b *testing.B) {
			frames := recordFrames(b, c.scenario, c.sets...)
			var enc framewire.Encoder
			var bufs [][]byte
			size := 0
			for _, s := range frames {
				bufs = append(bufs, enc.Encode(nil, s))
				size += len(bufs[len(bufs)-1])
			}
			cpu := cpuTime()
			for b.Loop() {
				var dec framewire.Decoder
				for _, buf := range bufs {
					_, err := dec.Decode(buf)
					require.NoError(b, err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/float64(len(frames)), "cpu-ns/frame")
			report(b, frames, size)
		})
	}
}

func report(b *testing.B, frames []*snap.Snapshot, size int) {
	n := float64(len(frames))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/frame")
	b.ReportMetric(float64(size)/n, "B/frame")
	big := 0
	for _, s := range frames {
		big = max(big, s.NumLinks()*int(unsafe.Sizeof(snap.Link{}))+s.NumFlows()*int(unsafe.Sizeof(snap.Flow{}))+len(s.Packets)*int(unsafe.Sizeof(snap.Packet{})))
	}
	b.ReportMetric(float64(big), "B-largest-full")
	b.ReportMetric(n, "frames")
}
