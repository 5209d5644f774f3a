package packet

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

func runYAML(t *testing.T, yaml string, sets ...string) (*Model, *metrics.Result) {
	t.Helper()
	sc, err := scenario.ParseWith([]byte(yaml), t.Name(), sets)
	require.NoError(t, err)
	m := New(resolve(t, &sc))
	m.Run()
	return m, m.Result()
}

func linkOf(t *testing.T, r *metrics.Result, name string) metrics.Link {
	t.Helper()
	for _, l := range r.Links {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no link %q in the result", name)
	return metrics.Link{}
}

// Incast from the hosts of leaf 0 to one host of leaf 1, spread over four spines:
// the congested port is leaf1→host4; PFC pauses climb back through the spines
// to the senders.
const crossLeafIncast = `
name: cross-leaf-incast
topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 4, fabric: roce, link_gbps: 100}
network: {flow_control: pfc, buffer: 512KiB, routing: adaptive}
traffic: {pattern: flows, bytes: 4MiB, flows: [{src: 0, dst: 4}, {src: 1, dst: 4}, {src: 2, dst: 4}, {src: 3, dst: 4}]}
`

func TestPFCPausesSpreadUpstream(t *testing.T) {
	_, r := runYAML(t, crossLeafIncast)
	assert.Zero(t, r.Totals.Drops)
	assert.Positive(t, linkOf(t, r, "spine0→leaf1").PauseFrames, "leaf 1 pauses the spine")
	assert.Positive(t, linkOf(t, r, "leaf0→spine0").PauseFrames, "the spine pauses leaf 0")
	assert.Positive(t, linkOf(t, r, "leaf0.host0→leaf0").PauseFrames, "leaf 0 pauses the senders")
	assert.Positive(t, linkOf(t, r, "leaf0.host0→leaf0").PauseUs)
	assert.Zero(t, linkOf(t, r, "leaf1→leaf1.host0").PauseFrames, "nothing pauses the congested port itself")
	var frames int64
	for _, l := range r.Links {
		frames += l.PauseFrames
	}
	assert.Equal(t, r.Totals.PauseFrames, frames, "every frame sent is received")
}

func TestCreditNeverOverrunsBuffers(t *testing.T) {
	m, r := runYAML(t, crossLeafIncast, "topology.fabric=ib", "network.flow_control=credit")
	assert.Zero(t, r.Totals.Drops)
	assert.Zero(t, r.Totals.PauseFrames)
	assert.Equal(t, r.Totals.Flows, r.Totals.FlowsFinished)
	// A port's queue is fed by the ports upstream of it, each limited to one buffer of credit.
	buf := int64(512 << 10)
	assert.LessOrEqual(t, linkOf(t, r, "spine0→leaf1").MaxQueueBytes, buf, "the spine has one input with traffic")
	assert.Positive(t, linkOf(t, r, "leaf1→leaf1.host0").MaxQueueBytes)
	assert.LessOrEqual(t, linkOf(t, r, "leaf1→leaf1.host0").MaxQueueBytes, 4*buf, "four spines feed the receiver's port")
	for i := range m.ports {
		assert.LessOrEqual(t, m.ports[i].credit, buf, "credit never exceeds the buffer")
	}
}

func TestGoBackNDeliversEverythingOnce(t *testing.T) {
	_, r := runYAML(t, `
name: lossy
topology: {kind: star, hosts: 5, fabric: roce, link_gbps: 100}
network: {flow_control: none, buffer: 64KiB, rto: 20us}
traffic: {pattern: incast, senders: 4, bytes: 1MiB}
`)
	assert.Positive(t, r.Totals.Drops)
	assert.Positive(t, r.Totals.Retransmits)
	assert.Zero(t, r.Totals.OutOfOrder, "go-back-N receivers discard what follows a gap")
	for i, f := range r.Flows {
		require.True(t, f.Finished, "flow %d", i)
		assert.Equal(t, f.Bytes, f.Delivered, "flow %d: each byte counted once", i)
	}
	assert.Equal(t, r.Totals.Drops, linkOf(t, r, "switch→host4").Drops, "drops happen at the receiver's port")
}

func TestUntilStopsEarly(t *testing.T) {
	_, r := runYAML(t, "name: u\ntraffic: {pattern: incast, senders: 8, bytes: 64MiB}\nuntil: 1ms\n")
	assert.Equal(t, 1000.0, r.Totals.SimTimeUs)
	assert.Zero(t, r.Totals.FlowsFinished)
	for _, f := range r.Flows {
		assert.False(t, f.Finished)
		assert.Zero(t, f.FctUs)
		assert.Positive(t, f.Delivered)
		assert.Less(t, f.Delivered, f.Bytes)
	}
}

func TestSeries(t *testing.T) {
	_, r := runYAML(t, "name: s\ntraffic: {pattern: incast, senders: 8, bytes: 8MiB}\nsim: {sample_interval: 10us}\n")
	s := r.Series
	require.NotNil(t, s)
	assert.Equal(t, 10.0, s.IntervalUs)
	n := len(s.TimeUs)
	require.Greater(t, n, 100)
	assert.Len(t, s.Goodput, n)
	require.Len(t, s.FlowGbps, 8)
	for _, g := range s.FlowGbps {
		assert.Len(t, g, n)
	}
	// In the middle of the run the receiver's link is saturated and shared eight ways.
	mid := n / 2
	assert.InEpsilon(t, 392.1, s.Goodput[mid], 0.03)
	// Each flow's share, averaged over the middle half, is an eighth of it.
	var sum float64
	for _, g := range s.FlowGbps[3][n/4 : 3*n/4] {
		sum += g
	}
	assert.InEpsilon(t, 392.1/8, sum/float64(3*n/4-n/4), 0.1)
	require.NotEmpty(t, s.Queues)
	assert.True(t, strings.HasPrefix(s.Queues[0].Name, "switch→host8"))
	assert.Len(t, s.Queues[0].Bytes, n)
}

// Long runs keep at most maxSamples samples by halving their resolution.
func TestSeriesStaysBounded(t *testing.T) {
	_, r := runYAML(t, "name: s\ntopology: {link_gbps: 100}\ntraffic: {pattern: incast, senders: 2, bytes: 64MiB}\n")
	assert.LessOrEqual(t, len(r.Series.TimeUs), network.MaxSamples)
	assert.Greater(t, len(r.Series.TimeUs), network.MaxSamples/4)
	assert.Greater(t, r.Series.IntervalUs, 10.0)
}

func TestDerangementHasNoFixedPoint(t *testing.T) {
	m, _ := runYAML(t, "name: p\ntopology: {kind: star, hosts: 33}\ntraffic: {pattern: permutation, bytes: 4KiB}\n")
	seen := map[int32]bool{}
	for _, f := range m.flows {
		assert.NotEqual(t, f.src, f.dst)
		assert.False(t, seen[f.dst], "each host receives once")
		seen[f.dst] = true
	}
	assert.Len(t, seen, 33)
}

func TestStaticRoutingIsDestinationBased(t *testing.T) {
	// d-mod-k: all traffic to one destination takes one spine, whoever sends it.
	_, r := runYAML(t, crossLeafIncast, "topology.fabric=ib", "network.flow_control=credit", "network.routing=static")
	used := 0
	for _, l := range r.Links {
		if strings.HasPrefix(l.Name, "leaf0→spine") && l.Util > 0 {
			used++
		}
	}
	assert.Equal(t, 1, used)
}

func TestAdvanceAndSnapshots(t *testing.T) {
	sc, err := scenario.Parse([]byte("name: s\ntraffic: {pattern: incast, senders: 8, bytes: 1MiB}\n"), "s")
	require.NoError(t, err)
	whole := New(resolve(t, &sc))
	whole.Run()
	stepped := New(resolve(t, &sc))
	var prev *snap.Snapshot
	packets, toReceiver := 0, 0
	for ti := unit.Time(0); stepped.Advance(ti); ti += 5 * unit.Microsecond {
		s := stepped.Snapshot()
		assert.Equal(t, ti, s.Time, "the clock ends at the asked time")
		if prev != nil {
			for i := range s.Links {
				assert.GreaterOrEqual(t, s.Links[i].TxBytes, prev.Links[i].TxBytes)
			}
		}
		assert.Equal(t, len(s.Packets), cap(s.Packets), "the packets sized once (the player counts what they hold)")
		for _, p := range s.Packets {
			packets++
			assert.True(t, p.Progress >= 0 && p.Progress < 1, "progress %v", p.Progress)
			assert.Positive(t, p.Count)
			require.Less(t, p.Flow, len(s.Flows))
			f := s.Flows[p.Flow]
			// The link carries the flow: its sender's uplink or the receiver's downlink.
			l := stepped.topo.Links[p.Link]
			onPath := l.From == stepped.topo.Endpoints[f.Src] || l.To == stepped.topo.Endpoints[f.Dst]
			assert.True(t, onPath, "packet of flow %d (%d→%d) on %s", p.Flow, f.Src, f.Dst, stepped.topo.LinkName(p.Link))
			if l.To == stepped.topo.Endpoints[8] {
				toReceiver++
			}
		}
		prev = s
	}
	assert.True(t, stepped.Snapshot().Done)
	a, b := whole.Result(), stepped.Result()
	a.Totals.Events, b.Totals.Events = 0, 0
	assert.Equal(t, a.Flows, b.Flows, "stepping does not change the outcome")
	// The links were busy: snapshots saw packets in flight, some on the receiver's link.
	assert.Positive(t, packets, "packets in flight")
	assert.Positive(t, toReceiver, "packets on the receiver's link")
}

// The counter series ends at the run's totals and never goes down.
func TestCounterSeries(t *testing.T) {
	for _, y := range []string{
		"name: c\ntraffic: {pattern: incast, senders: 8, bytes: 4MiB}\n",
		"name: c\nnetwork: {cc: dcqcn}\ntraffic: {pattern: incast, senders: 8, bytes: 4MiB}\n",
		"name: c\ntopology: {fabric: ib}\nnetwork: {cc: ibcc}\ntraffic: {pattern: incast, senders: 8, bytes: 4MiB}\n",
		"name: c\nnetwork: {flow_control: none, buffer: 128KiB}\ntraffic: {pattern: incast, senders: 4, bytes: 1MiB}\nuntil: 1ms\n",
	} {
		_, r := runYAML(t, y)
		c := r.Series.Counters
		require.NotNil(t, c, y)
		n := len(r.Series.TimeUs)
		if c.CNPs == nil {
			c.CNPs = make([]int64, n) // only with cc: dcqcn
		}
		if c.FECNMarks == nil {
			c.FECNMarks, c.BECNs = make([]int64, n), make([]int64, n) // only with cc: ibcc
		}
		for _, s := range [][]int64{c.Drops, c.PauseFrames, c.ECNMarks, c.CNPs, c.FECNMarks, c.BECNs} {
			require.Len(t, s, n)
			for i := 1; i < n; i++ {
				assert.GreaterOrEqual(t, s[i], s[i-1])
			}
		}
		tot := r.Totals
		assert.Equal(t, tot.Drops, c.Drops[n-1], y)
		assert.Equal(t, tot.PauseFrames, c.PauseFrames[n-1], y)
		assert.Equal(t, tot.ECNMarks, c.ECNMarks[n-1], y)
		assert.Equal(t, tot.CNPs, c.CNPs[n-1], y)
		assert.Equal(t, tot.FECNMarks, c.FECNMarks[n-1], y)
		assert.Equal(t, tot.BECNs, c.BECNs[n-1], y)
	}
}
