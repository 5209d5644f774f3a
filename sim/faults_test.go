package sim_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/train"
	"fabriclab/sim/unit"
)

// flowFct is flow i's completion time, or 0 if it did not finish.
func flowFct(r *metrics.Result, i int) float64 {
	if !r.Flows[i].Finished {
		return 0
	}
	return r.Flows[i].FctUs
}

// REFERENCE.md, "Stragglers and failures (issue 30)", "a synchronous job
// waits for its slowest rank": one GPU at 1.5× compute makes the iteration
// exactly what it is with every GPU that slow, and the others' timelines
// wait for it.
func TestStragglerSetsTheIteration(t *testing.T) {
	one := builtin(t, "straggler")
	all := make([]string, 16)
	for g := range all {
		all[g] = fmt.Sprintf("{kind: slow_gpu, gpu: %d, factor: 1.5}", g)
	}
	every := builtin(t, "straggler", "faults=["+strings.Join(all, ", ")+"]")
	require.NotNil(t, one.Training)
	require.NotNil(t, one.Faults)
	require.NotNil(t, one.Faults.BaselineUs)
	assert.Equal(t, every.Training.IterationUs, one.Training.IterationUs, "one slow GPU sets everyone's iteration")
	assert.Greater(t, *one.Faults.DelayUs, 0.4*(*one.Faults.BaselineUs), "compute is most of the iteration: 1.5× of it shows")
	assert.Equal(t, "iteration", one.Faults.Measure)
	waits := func(g int) bool {
		for _, iv := range one.Training.Timeline[g].Intervals {
			if iv.Kind == "idle" && iv.Label == train.WaitsForSlowest {
				return true
			}
		}
		return false
	}
	assert.False(t, waits(3), "the slow GPU computes")
	assert.True(t, waits(0), "a fast GPU waits for it")

	// The GPUs' busy share counts each GPU's own compute: fifteen of sixteen
	// compute for 1/1.5 of the slow one's time and wait the rest (it said
	// 99.8 %, the slow GPU's share, for all of them); scaling efficiency is
	// what the iteration would need at full speed over what it took.
	tr, ev := one.Training, every.Training
	share := tr.ComputeUs / tr.IterationUs
	assert.InDelta(t, ev.GPUUtil, share, 1e-4, "every GPU slow: each is busy the whole compute")
	assert.InDelta(t, share*(15/1.5+1)/16, tr.GPUUtil, 1e-4, "one slow GPU: the others wait a third of its compute")
	assert.InDelta(t, share/1.5, tr.ScalingEfficiency, 1e-4, "at full speed the compute takes 1/1.5 of it")
}

// REFERENCE.md, "Stragglers and failures (issue 30)", "static routing
// against adaptive routing around a down link", both models: static
// routing keeps h0's flow on the dead leaf0–spine0 cable until the subnet
// manager reroutes it reroute_delay later, so it finishes that much late;
// adaptive routing moves off at once.
func TestStaticWaitsAdaptiveAvoids(t *testing.T) {
	for _, fid := range []string{"packet", "flow"} {
		t.Run(fid, func(t *testing.T) {
			static := builtin(t, "link-down", "sim.fidelity="+fid)
			adaptive := builtin(t, "link-down", "sim.fidelity="+fid, "network.routing=adaptive")
			require.Len(t, static.Faults.Faults, 1)
			s, a := static.Faults.Faults[0], adaptive.Faults.Faults[0]
			require.NotNil(t, s.ReroutedUs)
			require.NotNil(t, a.ReroutedUs)
			assert.Equal(t, 220.0, *s.ReroutedUs, "at 20 µs + the 200 µs reroute delay")
			assert.Equal(t, 20.0, *a.ReroutedUs, "at once")
			assert.InDelta(t, 200, *static.Faults.DelayUs, 2, "static: h0's flow waits out the reroute delay")
			assert.Less(t, *adaptive.Faults.DelayUs, 160.0, "adaptive: both flows share spine 1 from 20 µs")
			assert.Equal(t, 2, static.Totals.FlowsFinished)
			assert.Equal(t, 2, adaptive.Totals.FlowsFinished)
		})
	}
}

// REFERENCE.md, "Stragglers and failures (issue 30)", "a down link on a
// lossless fabric": InfiniBand's credits hold the packets for the dead link
// (nothing dropped, nothing resent); on lossy Ethernet its queue drops.
func TestDownLinkLosesNothingLossless(t *testing.T) {
	ib := builtin(t, "link-down")
	assert.Zero(t, ib.Totals.Drops)
	assert.Zero(t, ib.Totals.Retransmits)
	assert.Zero(t, ib.Totals.Timeouts)
	assert.Positive(t, ib.Faults.Faults[0].HeldBytes, "the switch held h0's packets")
	pfc := builtin(t, "link-down", "topology.fabric=roce", "network.flow_control=pfc")
	assert.Zero(t, pfc.Totals.Drops, "PFC: nothing dropped either")
	lossy := builtin(t, "link-down", "topology.fabric=ethernet", "network.flow_control=none")
	assert.Positive(t, lossy.Faults.Faults[0].Drops, "lossy: the dead link's queue drops")
}

// REFERENCE.md, "Stragglers and failures (issue 30)", the reroute delay:
// static routing reroutes reroute_delay after the link fails, and the flow
// model counts the time h0's flow waited.
func TestRerouteAfterTheDelay(t *testing.T) {
	for _, d := range []float64{50, 400} {
		r := builtin(t, "link-down", "sim.fidelity=flow", fmt.Sprintf("network.reroute_delay=%gus", d))
		f := r.Faults.Faults[0]
		require.NotNil(t, f.ReroutedUs)
		assert.Equal(t, 20+d, *f.ReroutedUs)
		assert.Equal(t, 1, f.FlowsStalled)
		assert.InDelta(t, d, f.StalledFlowUs, 0.01, "h0's flow waited from the failure to the reroute")
		assert.Greater(t, flowFct(r, 0), 20+d)
	}
}

// A degraded link runs at its fault's rate: h0's flow alone on
// leaf0–spine0 at 100 Gb/s from 20 µs finishes as the rate says, in both
// models.
func TestDegradedLinkRunsAtItsRate(t *testing.T) {
	for _, fid := range []string{"packet", "flow"} {
		r := builtin(t, "link-down", "sim.fidelity="+fid, "faults=[{kind: link_degraded, link: leaf0->spine0, gbps: 100, at: 20us}]")
		base := builtin(t, "link-down", "sim.fidelity="+fid, "faults=")
		sent := 20 / flowFct(base, 0) * float64(8<<20)    // bytes by 20 µs at the baseline's rate
		want := 20 + (float64(8<<20)-sent)*8/(100e3*0.97) // the rest at 100 Gb/s (payload share ≈ 0.97)
		assert.InEpsilon(t, want, flowFct(r, 0), 0.03, "%s: %.1f µs", fid, flowFct(r, 0))
		assert.Equal(t, "link_degraded", r.Faults.Faults[0].Kind)
	}
}

// REFERENCE.md, "Stragglers and failures (issue 30)", "routes follow a
// reroute", both models: the routing picture follows h0's flow off the dead
// leaf0–spine0 cable at the reroute (its path, the flows each uplink
// carries) and back onto it when the cable returns.
func TestRoutesFollowTheReroute(t *testing.T) {
	for _, fid := range []string{"packet", "flow"} {
		t.Run(fid, func(t *testing.T) {
			sc, err := scenario.Load("link-down", os.ReadFile, []string{"sim.fidelity=" + fid, "faults[0].until=300us"})
			require.NoError(t, err)
			st, err := sim.Start(sc)
			require.NoError(t, err)
			tp := st.Model.Topology()
			id := func(name string) int32 {
				for l := range tp.Links {
					if tp.LinkName(l) == name {
						return int32(l)
					}
				}
				require.Failf(t, "no link", name)
				return -1
			}
			dead, other := id("leaf0→spine0"), id("leaf0→spine1")
			at := func(us float64) *snap.Snapshot {
				st.Model.Advance(unit.Time(us * float64(unit.Microsecond)))
				s := st.Snapshot()
				require.NotNil(t, s.Routing)
				return s
			}
			for _, c := range []struct {
				us      float64
				on, off int32
				what    string
			}{
				{100, dead, other, "stalled on the dead link before the reroute"},
				{250, other, dead, "over spine 1 after the reroute at 220 µs"},
				{310, dead, other, "back over spine 0 once the cable returns at 300 µs"},
			} {
				s := at(c.us)
				require.False(t, s.Flows[0].Done, "at %g µs", c.us)
				path := s.Routing.Routes.AppendPath(nil, 0, s.Time)
				assert.Contains(t, path, c.on, "%s: h0's path", c.what)
				assert.NotContains(t, path, c.off, "%s: h0's path", c.what)
				assert.Positive(t, s.Routing.LinkFlows[c.on], "%s: flows on the uplink it takes", c.what)
				if c.off == dead {
					assert.Zero(t, s.Routing.LinkFlows[dead], "%s: no flow counted on the dead uplink", c.what)
				}
			}
		})
	}
}

// REFERENCE.md, "Stragglers and failures (issue 30)": the packet model
// counts the flows a down link stalls as the flow model does.
func TestBothModelsCountStalledFlows(t *testing.T) {
	for _, fid := range []string{"packet", "flow"} {
		r := builtin(t, "link-down", "sim.fidelity="+fid)
		f := r.Faults.Faults[0]
		assert.Equal(t, 1, f.FlowsStalled, "%s: h0's flow", fid)
		assert.Positive(t, f.StalledBytes, fid)
		assert.InDelta(t, 200, f.StalledFlowUs, 1, "%s: from the failure at 20 µs to the reroute at 220 µs", fid)
		adaptive := builtin(t, "link-down", "sim.fidelity="+fid, "network.routing=adaptive")
		assert.Zero(t, adaptive.Faults.Faults[0].FlowsStalled, "%s: adaptive routing moves off at once", fid)
	}
}
