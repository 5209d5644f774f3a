// Package networktest checks that a network model keeps the contract every
// model shares, as testing/fstest checks a file system: a new model passes
// TestModel and needs only its own physics.
package networktest

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/network"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

// New builds a model of a validated scenario.
type New func(testing.TB, *scenario.Scenario) network.Model

// Of is a model's constructor as a New: the scenario's plan, built.
func Of[M network.Model](newModel func(*plan.Plan) M) New {
	return func(t testing.TB, sc *scenario.Scenario) network.Model {
		t.Helper()
		p, err := plan.Resolve(sc)
		require.NoError(t, err)
		return newModel(p)
	}
}

// TestModel checks the model newModel builds: on the same scenarios it
// finishes within tol (a fraction) of the reference model's times; an event
// budget stops it and says so; snapshots label transfers with their tag and
// step; At callbacks run in time order; ordered streams serialise; stepping,
// in time or in events, changes nothing; an idle run ends at once; the same
// seed gives the same JSON.
func TestModel(t *testing.T, newModel, reference New, tol float64) {
	t.Run("AgreesOnStaticTraffic", func(t *testing.T) { testAgreement(t, newModel, reference, tol) })
	t.Run("AgreesOnWorkloads", func(t *testing.T) { testWorkloads(t, newModel, reference, tol) })
	t.Run("EventBudget", func(t *testing.T) { testBudget(t, newModel) })
	t.Run("SnapshotLabels", func(t *testing.T) { testLabels(t, newModel) })
	t.Run("CallbacksInTimeOrder", func(t *testing.T) { testCallbacks(t, newModel) })
	t.Run("StreamsSerialise", func(t *testing.T) { testStreams(t, newModel) })
	t.Run("SteppingChangesNothing", func(t *testing.T) { testStepping(t, newModel) })
	t.Run("EventCapsChangeNothing", func(t *testing.T) { testEventCaps(t, newModel) })
	t.Run("IdleEndsAtOnce", func(t *testing.T) { testIdle(t, newModel) })
	t.Run("Deterministic", func(t *testing.T) { testDeterministic(t, newModel) })
	t.Run("RecordIsSnapshot", func(t *testing.T) { testRecord(t, newModel) })
}

// Builtin loads a built-in scenario with sets applied.
func Builtin(t testing.TB, name string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := plan.Load(name, os.ReadFile, sets)
	require.NoError(t, err)
	return &sc
}

// Parse parses a scenario with sets applied.
func Parse(t testing.TB, yaml string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := plan.ParseWith([]byte(yaml), t.Name(), sets)
	require.NoError(t, err)
	return &sc
}

// noTraffic empties a scenario's own traffic, for workloads that Send.
func noTraffic(sc *scenario.Scenario) *scenario.Scenario {
	sc.Traffic.Pattern, sc.Traffic.Flows = scenario.PatternFlows, nil
	return sc
}

func run(t testing.TB, newModel New, sc *scenario.Scenario) *metrics.Result {
	m := newModel(t, sc)
	m.Run()
	return m.Result()
}

// Static traffic: every flow finishes within tol of the reference's time.
func testAgreement(t *testing.T, newModel, reference New, tol float64) {
	for _, tc := range []struct {
		name    string
		sc      *scenario.Scenario
		perFlow float64 // tolerance per flow (at least tol); the mean takes tol
	}{
		{"incast", Builtin(t, "incast"), tol},
		{"incast-ib", Builtin(t, "incast", "topology.fabric=ib", "network.flow_control=credit", "traffic.bytes=8MiB"), tol},
		// The leaf uplinks and spine downlinks run at exactly 100 % load. Spraying
		// packets at random there makes queues random-walk and PFC pause the
		// senders now and then, which costs the packet model 3–7 % on cross-leaf
		// flows; the flow model splits perfectly evenly and has no queues.
		{"permutation-spray", Builtin(t, "permutation", "network.routing=spray", "traffic.bytes=4MiB"), max(tol, 0.08)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := run(t, newModel, tc.sc), run(t, reference, tc.sc)
			require.Len(t, got.Flows, len(want.Flows))
			for i := range want.Flows {
				require.True(t, want.Flows[i].Finished)
				require.True(t, got.Flows[i].Finished)
				assert.InEpsilon(t, want.Flows[i].FinishUs, got.Flows[i].FinishUs, tc.perFlow, "flow %d %d→%d", i, want.Flows[i].Src, want.Flows[i].Dst)
			}
			assert.InEpsilon(t, want.Totals.MeanFctUs, got.Totals.MeanFctUs, tol)
			assert.InEpsilon(t, want.Totals.SimTimeUs, got.Totals.SimTimeUs, tc.perFlow)
			assert.InEpsilon(t, want.Totals.GoodputGbps, got.Totals.GoodputGbps, tc.perFlow)
		})
	}
}

// RingSteps runs a ring among ranks: every rank sends a chunk to the next,
// and forwards each chunk it receives until each has taken steps hops. It
// returns a function that reports when the last one arrived.
func RingSteps(f fabric.Fabric, ranks []int, chunk unit.Bytes, steps int) func() unit.Time {
	n := len(ranks)
	var end unit.Time
	var hop func(r, s int)
	hop = func(r, s int) {
		if s == steps {
			end = max(end, f.Now())
			return
		}
		f.Send(fabric.Transfer{Src: ranks[r], Dst: ranks[(r+1)%n], Bytes: chunk, Tag: r, Step: s}, func() { hop((r+1)%n, s+1) })
	}
	for r := range n {
		hop(r, 0)
	}
	return func() unit.Time { return end }
}

// Send-driven rings finish within tol of the reference's time.
func testWorkloads(t *testing.T, newModel, reference New, tol float64) {
	for _, tc := range []struct {
		name, yaml string
		ranks      int
		chunk      unit.Bytes
		steps      int
	}{
		{"dgx-node", "name: ring\ntopology: {kind: dgx, nodes: 1}\n", 8, 4 * unit.MiB, 7},
		{"leafspine", "name: ring\ntopology: {kind: leafspine, leaves: 4, hosts_per_leaf: 4, spines: 4}\n", 16, unit.MiB, 15},
		// InfiniBand's static routing: both models take the same paths (ECMP
		// would hash Send-driven flows differently and collide elsewhere).
		{"dgx-cluster-ib", "name: ring\ntopology: {kind: dgx, nodes: 4, gpus_per_node: 4, fabric: ib}\n", 16, unit.MiB, 3},
		{"fattree-ib", "name: ring\ntopology: {kind: fattree, k: 4, fabric: ib}\n", 16, 2 * unit.MiB, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := noTraffic(Parse(t, tc.yaml))
			ranks := make([]int, tc.ranks)
			for i := range ranks {
				ranks[i] = i
			}
			m := newModel(t, sc)
			end := RingSteps(m, ranks, tc.chunk, tc.steps)
			m.Run()
			ref := reference(t, sc)
			refEnd := RingSteps(ref, ranks, tc.chunk, tc.steps)
			ref.Run()
			require.Positive(t, refEnd())
			assert.InEpsilon(t, refEnd().Micros(), end().Micros(), tol)
			assert.Equal(t, m.Now(), end(), "the run ends with the last delivery")
			assert.Equal(t, tc.ranks*tc.steps, m.Result().Totals.FlowsFinished)
		})
	}
}

// An event budget stops a run early, and the result says so; the series
// ends with the run, whole or cut short.
func testBudget(t *testing.T, newModel New) {
	sc := Builtin(t, "incast")
	whole := run(t, newModel, sc)
	require.Empty(t, whole.Totals.Truncated)
	require.Equal(t, whole.Totals.Flows, whole.Totals.FlowsFinished)

	const budget = 40
	m := newModel(t, sc)
	m.SetEventBudget(budget)
	steps := 0
	for m.Advance(m.Now() + unit.Microsecond) {
		steps++
		require.Less(t, steps, 100_000, "the run goes on past its budget")
	}
	r := m.Result()
	assert.Contains(t, r.Totals.Truncated, fmt.Sprintf("stopped after %d events", budget))
	assert.Less(t, r.Totals.SimTimeUs, whole.Totals.SimTimeUs)
	assert.Less(t, r.Totals.FlowsFinished, whole.Totals.FlowsFinished)
	assert.True(t, m.Snapshot().Done)
	assert.False(t, m.Advance(unit.Never), "a stopped run stays stopped")
	assert.Equal(t, r.Totals.SimTimeUs, m.Result().Totals.SimTimeUs)
	for _, res := range []*metrics.Result{whole, r} {
		require.NotNil(t, res.Series)
		require.NotEmpty(t, res.Series.TimeUs)
		assert.Equal(t, res.Totals.SimTimeUs, res.Series.TimeUs[len(res.Series.TimeUs)-1], "the series ends with the run")
	}
}

// Snapshots label each transfer with its Tag and Step; a scenario's own flows have none.
func testLabels(t *testing.T, newModel New) {
	sc := Parse(t, "name: labels\ntopology: {kind: star, hosts: 4, link_gbps: 100}\ntraffic: {pattern: flows, flows: [{src: 3, dst: 2, bytes: 1MiB}]}\n")
	m := newModel(t, sc)
	m.Send(fabric.Transfer{Src: 0, Dst: 1, Bytes: unit.MiB, Tag: 7, Step: 2}, nil)
	m.Send(fabric.Transfer{Src: 1, Dst: 1, Bytes: unit.MiB, Tag: 8, Step: 3}, nil) // local: no flow
	m.Send(fabric.Transfer{Src: 1, Dst: 2, Bytes: unit.MiB, Stream: 1, Tag: 9, Step: 5}, nil)
	m.Send(fabric.Transfer{Src: 1, Dst: 2, Bytes: unit.MiB, Stream: 1, Tag: 10, Step: 6}, nil)
	type label struct{ Src, Dst, Tag, Step int }
	want := []label{{3, 2, -1, -1}, {0, 1, 7, 2}, {1, 2, 9, 5}, {1, 2, 10, 6}}
	for _, at := range []unit.Time{0, 20 * unit.Microsecond, unit.Never} {
		m.Advance(at)
		s := m.Snapshot()
		var got []label
		for _, f := range s.Flows {
			got = append(got, label{f.Src, f.Dst, f.Tag, f.Step})
		}
		assert.Equal(t, want, got, "at %v", at)
	}
}

// At callbacks run at their time, in time order, and in scheduling order at the same time.
func testCallbacks(t *testing.T, newModel New) {
	m := newModel(t, noTraffic(Parse(t, "name: calls\ntopology: {kind: star, hosts: 2}\n")))
	type call struct {
		id int
		at unit.Time
	}
	var got []call
	at := func(id int, when unit.Time) {
		m.At(when, func() {
			assert.Equal(t, when, m.Now(), "callback %d", id)
			got = append(got, call{id, m.Now()})
		})
	}
	us := unit.Microsecond
	for i, when := range []unit.Time{5 * us, us, 3 * us, us, 4 * us, 0} {
		at(i, when)
	}
	m.At(2*us, func() {
		got = append(got, call{10, m.Now()})
		at(11, m.Now()) // after what is already due now
		at(12, 3*us)    // after callback 2, scheduled earlier for the same time
	})
	m.Run()
	assert.Equal(t, []call{{5, 0}, {1, us}, {3, us}, {10, 2 * us}, {11, 2 * us}, {2, 3 * us}, {12, 3 * us}, {4, 4 * us}, {0, 5 * us}}, got)
	assert.Equal(t, 5*us, m.Now(), "the run ends with the last callback")
}

// Transfers on one ordered stream leave the sender one after another; other
// streams and stream 0 start at once.
func testStreams(t *testing.T, newModel New) {
	m := newModel(t, noTraffic(Parse(t, "name: streams\ntopology: {kind: star, hosts: 4, link_gbps: 400}\n")))
	const n = 3
	for range n {
		m.Send(fabric.Transfer{Src: 0, Dst: 1, Bytes: unit.MiB, Stream: 1}, nil)
	}
	m.Send(fabric.Transfer{Src: 0, Dst: 1, Bytes: unit.MiB, Stream: 2}, nil)
	m.Send(fabric.Transfer{Src: 0, Dst: 2, Bytes: unit.MiB}, nil)
	m.Run()
	r := m.Result()
	require.Len(t, r.Flows, n+2)
	// One MiB takes at least this long at 400 Gb/s, whatever else shares the link.
	minSend := (400 * unit.Gbps).TxTime(unit.MiB).Micros()
	for k := 1; k < n; k++ {
		prev, f := r.Flows[k-1], r.Flows[k]
		assert.GreaterOrEqual(t, f.StartUs-prev.StartUs, minSend, "transfer %d waits until %d has been sent", k, k-1)
		assert.Less(t, f.StartUs, prev.FinishUs, "transfer %d starts once %d is sent, not delivered", k, k-1)
	}
	assert.Zero(t, r.Flows[0].StartUs)
	assert.Zero(t, r.Flows[n].StartUs, "another stream starts at once")
	assert.Zero(t, r.Flows[n+1].StartUs, "stream 0 starts at once")
	for i, f := range r.Flows {
		assert.True(t, f.Finished, "flow %d", i)
	}
}

// Stepping with Advance gives the run that Run gives, and the clock ends at each step.
func testStepping(t *testing.T, newModel New) {
	sc := Builtin(t, "incast", "traffic.bytes=1MiB")
	whole := run(t, newModel, sc)
	m := newModel(t, sc)
	var times []unit.Time
	for at := unit.Time(0); m.Advance(at); at += 5 * unit.Microsecond {
		assert.Equal(t, at, m.Now(), "the clock ends at the asked time")
		times = append(times, m.Now())
	}
	assert.Greater(t, len(times), 10)
	assert.True(t, slices.IsSorted(times))
	assert.True(t, m.Snapshot().Done)
	stepped := m.Result()
	assert.Equal(t, whole.Flows, stepped.Flows, "stepping does not change the outcome")
	assert.Equal(t, whole.Totals.SimTimeUs, stepped.Totals.SimTimeUs)
}

// Steps cut after a few events (AdvanceEvents) give the run that Run gives:
// each call handles at most its cap, and the next goes on where it stopped.
func testEventCaps(t *testing.T, newModel New) {
	sc := Builtin(t, "incast", "traffic.bytes=1MiB")
	whole := newModel(t, sc)
	whole.Run()
	for _, n := range []uint64{1, 5} {
		m := newModel(t, sc)
		cut := 0
		for at, more := unit.Time(0), true; more; at += 5 * unit.Microsecond {
			for reached := false; !reached; {
				e0 := m.Events()
				more, reached = m.AdvanceEvents(at, n)
				require.LessOrEqual(t, m.Events()-e0, n, "caps of %d", n)
				if !reached {
					cut++
					require.Equal(t, n, m.Events()-e0, "caps of %d: a step cut short of its cap", n)
				}
			}
			if more {
				require.Equal(t, at, m.Now(), "caps of %d: the clock ends at the asked time", n)
			}
		}
		assert.Positive(t, cut, "caps of %d", n)
		assert.Equal(t, whole.Events(), m.Events(), "caps of %d", n)
		assert.Equal(t, whole.Result(), m.Result(), "caps of %d", n)
	}
}

// A run with nothing to do ends at once, time limit or not.
func testIdle(t *testing.T, newModel New) {
	for _, until := range []string{"0", "7us"} {
		m := newModel(t, noTraffic(Parse(t, "name: idle\ntopology: {kind: star, hosts: 2}\n", "until="+until)))
		assert.False(t, m.Advance(unit.Microsecond), "until %s", until)
		assert.Zero(t, m.Now(), "until %s", until)
		assert.True(t, m.Snapshot().Done)
	}
}

// The same scenario and seed give byte-identical JSON.
func testDeterministic(t *testing.T, newModel New) {
	for _, routing := range []string{"ecmp", "spray"} {
		sc := Builtin(t, "permutation", "network.routing="+routing, "traffic.bytes=256KiB")
		encode := func() string {
			out, err := json.Marshal(run(t, newModel, sc))
			require.NoError(t, err)
			return string(out)
		}
		assert.Equal(t, encode(), encode(), routing)
	}
}

// Record gives Snapshot's links and flows in compact form, sharing a chunk
// with prev only where it is equal, whether prev is the last Record's
// (whose untouched chunks the model may skip) or an older one.
func testRecord(t *testing.T, newModel New) {
	var y strings.Builder
	y.WriteString("name: record\ntopology: {kind: star, hosts: 600, link_gbps: 100}\ntraffic: {pattern: flows, flows: [")
	for i := range 300 { // 600 flows over 5 chunks of links, starting and ending at different times
		fmt.Fprintf(&y, "{src: %d, dst: %d, bytes: %dKiB, start: %dus}, ", 2*i, 2*i+1, 16*(1+i%5), i%7)
		fmt.Fprintf(&y, "{src: %d, dst: %d, bytes: 16KiB, start: %dus}, ", 2*i+1, 2*i, 3*(i%3))
	}
	y.WriteString("]}\n")
	m := newModel(t, Parse(t, y.String()))
	var last, older *snap.Snapshot
	n := 0
	for at, more := unit.Time(0), true; more; at += 500 * unit.Nanosecond {
		more = m.Advance(at)
		prev := last
		if n%5 == 4 {
			prev = older // not the last Record's: every chunk is read
		}
		got, want := m.Record(prev), m.Snapshot()
		require.Equal(t, want.Links, got.Full().Links, "links at %v", at)
		require.Equal(t, want.Flows, got.Full().Flows, "flows at %v", at)
		assert.Equal(t, want.Packets, got.Packets, "packets at %v", at)
		if prev != nil {
			for k, ch := range got.LinkChunks {
				shared := k < len(prev.LinkChunks) && &prev.LinkChunks[k][0] == &ch[0]
				assert.Equal(t, slices.Equal(ch, prev.LinkChunks[k]), shared, "link chunk %d at %v", k, at)
			}
		}
		older, last = last, got
		n++
	}
	assert.Greater(t, n, 20)
}
