package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// TestCourseRDMA checks what the rdma-gpu-server lesson says at every knob
// position (REFERENCE.md, "NIC and PCIe per generation").
func TestCourseRDMA(t *testing.T) {
	// two-paths: "several times as long", not about as long nor hundreds of
	// times; NVLink's 450 GB/s against the NIC's 50 GB/s is "about a ninth".
	r := stepRun(t, "rdma-gpu-server", "two-paths")
	require.Len(t, r.Flows, 2)
	nvlink, nic := r.Flows[0], r.Flows[1]
	ratio := nic.FctUs / nvlink.FctUs
	assert.Greater(t, ratio, 4.0, "several times as long")
	assert.Less(t, ratio, 20.0, "not hundreds of times")
	assert.Less(t, nic.Gbps, 400.0, "the NIC's 400 Gb/s is the narrowest part")
	assert.Equal(t, "pcie5", courseLink(t, r, "n0.gpu0→n0.nic0").Kind, "GPU to NIC is PCIe")

	// nic-per-gpu: eight pairs take as long as the one transfer above; all
	// eight into one GPU's NIC about eight times as long.
	pairs := stepRun(t, "rdma-gpu-server", "nic-per-gpu")
	require.Len(t, pairs.Flows, 8)
	assert.InEpsilon(t, nic.FctUs, pairs.Totals.MaxFctUs, 0.01, "eight transfers take as long as one")
	one := stepRun(t, "rdma-gpu-server", "nic-per-gpu", "traffic.pattern=incast", "traffic.senders=8", "traffic.receiver=8", "traffic.flows=")
	require.Len(t, one.Flows, 8)
	assert.InDelta(t, 8, one.Totals.MaxFctUs/nic.FctUs, 0.5, "about eight times the single transfer")
	// "GPU 0's own transfer ends first …: it enters rail0 on a port of its own, and the leaf shares
	// its way out between input ports": half the port while it runs, the other seven the other half.
	require.Equal(t, 0, one.Flows[0].Src)
	for _, f := range one.Flows[1:] {
		assert.Less(t, one.Flows[0].FctUs, 0.3*f.FctUs, "GPU 0's transfer ends first (flow from %d)", f.Src)
	}
	assert.InDelta(t, 0.5, one.Flows[0].Gbps/courseLink(t, one, "rail0→n1.nic0").Gbps, 0.05, "GPU 0 gets half the port")
	assert.Equal(t, []int{1}, whenShown(t, "rdma-gpu-server", "nic-per-gpu", pairs), "the pairs' sentence")
	assert.Equal(t, []int{0}, whenShown(t, "rdma-gpu-server", "nic-per-gpu", one), "one NIC's sentence")

	// rails: cross-rail transfers take about as long, a few microseconds more,
	// and each climbs to a spine; same-rail ones never do.
	same, cross := compareRun(t, "rdma-gpu-server", "rails")
	assert.Greater(t, cross.Totals.MaxFctUs, same.Totals.MaxFctUs, "two more switches")
	assert.Less(t, cross.Totals.MaxFctUs-same.Totals.MaxFctUs, 10.0, "a few microseconds more")
	spineLinks := func(r *metrics.Result) (n int) {
		for _, l := range r.Links {
			if strings.Contains(l.Name, "spine") && l.Util > 0 {
				n++
			}
		}
		return n
	}
	assert.Zero(t, spineLinks(same), "same rail: no spine link carries anything")
	assert.Equal(t, 16, spineLinks(cross), "cross rail: 8 flows up to a spine and down, each its own link")

	// pcie: A100 (Gen4) caps a 400G NIC near 250 Gb/s; the NIC is the
	// narrowest at 100 and 200; on H100 (Gen5, about 504 Gb/s) 400 fits and 800 does not.
	for _, c := range []struct {
		gpu, gbps string
		capped    bool
	}{
		{"a100", "100", false}, {"a100", "200", false}, {"a100", "400", true}, {"a100", "800", true},
		{"h100", "100", false}, {"h100", "200", false}, {"h100", "400", false}, {"h100", "800", true},
	} {
		res := stepRun(t, "rdma-gpu-server", "pcie", "topology.gpu="+c.gpu, "topology.link_gbps="+c.gbps)
		pcie, port := courseLink(t, res, "n0.gpu0→n0.nic0"), courseLink(t, res, "n0.nic0→rail0")
		assert.Equal(t, c.capped, port.Util < 0.9, "%s at %s: the port is busy more than 90 %% unless PCIe caps it", c.gpu, c.gbps)
		want := 1 // "The NIC is the narrowest link: PCIe is wider than the port"
		if c.capped {
			want = 0
		}
		assert.Equal(t, []int{want}, whenShown(t, "rdma-gpu-server", "pcie", res), "%s at %s", c.gpu, c.gbps)
		switch {
		case c.capped && c.gpu == "a100":
			assert.InDelta(t, 250, res.Flows[0].Gbps, 5, "about 250 Gb/s through PCIe Gen4 x16")
		case c.capped:
			assert.InDelta(t, 504, pcie.Gbps, 1, "PCIe Gen5 x16, about 504 Gb/s here")
		}
	}
	a100 := stepRun(t, "rdma-gpu-server", "pcie")
	assert.InDelta(t, 250, a100.Flows[0].Gbps, 5, "the quiz's answer: about 250 Gb/s at the default")
}
