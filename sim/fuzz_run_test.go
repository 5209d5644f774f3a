package sim_test

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// Bounds that keep one FuzzRun input to a fraction of a second.
const (
	fuzzMaxEndpoints = 64
	fuzzMaxFlows     = 512
	fuzzUntil        = 200 * unit.Microsecond
	fuzzMaxBytes     = 256 * unit.KiB
	fuzzMaxParams    = 65536 // per custom layer
	fuzzWallLimit    = 2 * time.Second
	fuzzHang         = 30 * time.Second
)

// boundForFuzz shrinks an accepted scenario to a quick run, as --set would
// after parsing: at most 200us of simulated time and 256KiB per transfer. It
// reports false for scenarios too big to run quickly however they shrink.
func boundForFuzz(sc *scenario.Scenario) bool {
	n := sc.Endpoints()
	if n > fuzzMaxEndpoints {
		return false
	}
	tr := &sc.Traffic
	flows := map[string]int{scenario.PatternIncast: tr.Senders, scenario.PatternPermutation: n,
		scenario.PatternAllToAll: n * (n - 1), scenario.PatternFlows: len(tr.Flows)}[tr.Pattern]
	if flows > fuzzMaxFlows {
		return false
	}
	switch sc.Training.Model {
	case "", "custom", "resnet50":
	default:
		return false // gradient buckets of gigabytes
	}
	if sc.Until == 0 || sc.Until > fuzzUntil {
		sc.Until = fuzzUntil
	}
	tr.Bytes = min(tr.Bytes, fuzzMaxBytes)
	for i := range tr.Flows {
		tr.Flows[i].Bytes = min(tr.Flows[i].Bytes, fuzzMaxBytes)
	}
	sc.Collective.Bytes = min(sc.Collective.Bytes, fuzzMaxBytes)
	for i := range sc.Training.Layers {
		sc.Training.Layers[i].Params = min(sc.Training.Layers[i].Params, fuzzMaxParams)
	}
	sc.Training.Iterations = min(sc.Training.Iterations, 2)
	return sc.Validate() == nil
}

// rangeEnds are --set values at the ends of the documented ranges, for
// FuzzRun to start from.
var rangeEnds = []string{
	"", "topology.link_gbps=1", "topology.link_gbps=100000", "topology.nvlink_efficiency=0.01",
	"topology.link_latency=1s", "topology.switch_latency=0", "network.mtu=256", "network.mtu=9216",
	"network.ecn.pmax=1e-9", "network.ibcc.cct_step=64", "network.ibcc.ccti_limit=16383",
	"network.dt_alpha=0.01", "network.classes=[{name: a, weight: 0.001}, {name: b, weight: 1000}]",
	"training.mfu=0.01", "collective.chunk=4KiB", "collective.channels=64", "network.ack_every=1024",
	"network.rto=1us", "sim.sample_interval=1us", "sim.fidelity=flow",
}

// FuzzRun runs what validation accepts, with a --set, shrunk by
// boundForFuzz: no input may panic the engine or the models (issue 9:
// nvlink_efficiency: 1e-15 once scheduled an event in the past), or hang.
func FuzzRun(f *testing.F) {
	var docs [][]byte
	for _, b := range scenario.Builtins() {
		data, _ := scenario.Builtin(b.Name)
		docs = append(docs, data)
	}
	data, err := os.ReadFile("scenario/testdata/sections.yaml")
	require.NoError(f, err)
	for _, doc := range strings.Split(string(data), "\n---\n") {
		docs = append(docs, []byte(doc))
	}
	for i, doc := range docs {
		f.Add(doc, "")
		f.Add(doc, rangeEnds[i%len(rangeEnds)])
	}
	// Every end of a range runs on packets, a collective over NVLink and
	// InfiniBand congestion control.
	for _, set := range rangeEnds {
		f.Add([]byte("name: ends\ntraffic: {bytes: 64KiB}\n"), set)
		f.Add([]byte("topology: {kind: dgx}\ncollective: {op: allreduce, algo: ring, bytes: 1MiB}\n"), set)
		f.Add([]byte("topology: {fabric: ib}\nnetwork: {cc: ibcc}\ntraffic: {bytes: 64KiB}\n"), set)
	}
	// Faults: a host's only link down and back (no path around it), a
	// degraded link under spraying, a slow inference GPU.
	f.Add([]byte("topology: {hosts: 3}\ntraffic: {senders: 2, bytes: 256KiB}\nfaults: [{kind: link_down, link: host0->switch, at: 5us, until: 40us}]\n"), "network.reroute_delay=0")
	f.Add([]byte("topology: {kind: fattree, k: 4}\nnetwork: {routing: spray}\ntraffic: {pattern: permutation, bytes: 128KiB}\nfaults: [{kind: link_degraded, link: pod0.edge0→pod0.agg0, gbps: 1, at: 0}, {kind: link_down, link: pod0.agg1->core2, at: 1us}]\n"), "sim.fidelity=flow")
	f.Add([]byte("topology: {kind: dgx}\ninference: {model: gpt2-1.5b, prompt_tokens: 64, output_tokens: 4, requests: 4}\nfaults: [{kind: slow_gpu, gpu: 5, factor: 100}]\nsim: {fidelity: flow}\n"), "")
	// Storage nodes at their ranges' ends, checkpoints and reads in a class of their own.
	f.Add([]byte("topology: {kind: dgx, nodes: 2, storage_nodes: 64, storage_gbps: 1}\ntraining: {model: resnet50, iterations: 2, checkpoint_every: 1, sample_bytes: 1GiB}\n"), "")
	f.Add([]byte("topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 2, storage_nodes: 1, storage_gbps: 100000}\n"+
		"network: {classes: [{name: g}, {name: storage, weight: 0.001}]}\ncollective: {class: g}\n"+
		"training: {model: custom, layers: [{name: fc, params: 1000000, flops: 2000000}], iterations: 2, checkpoint_every: 1, sample_bytes: 1KiB, storage_class: storage}\n"), "")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		sc, err := scenario.ParseWith(data, "fuzz.yaml", sets)
		if err != nil || !boundForFuzz(&sc) {
			return
		}
		done := make(chan error, 1)
		go func() {
			defer func() {
				if v := recover(); v != nil {
					done <- fmt.Errorf("panic: %v\n%s", v, debug.Stack())
				}
			}()
			st, err := sim.Start(sc)
			if err != nil {
				// A workload that cannot run (sim/plan's checks, or past the
				// run's flow budget) is refused before it runs, by design;
				// the refusal must say what to change.
				var se *scenario.Error
				if !errors.As(err, &se) && (!strings.Contains(err.Error(), "flows a run may make") || !strings.Contains(err.Error(), "use ")) {
					done <- err
				} else {
					done <- nil
				}
				return
			}
			start := time.Now()
			for now := unit.Time(0); st.Model.Advance(now); now += 10 * unit.Microsecond {
				if time.Since(start) > fuzzWallLimit {
					break // slow, not wrong
				}
			}
			st.Result()
			done <- nil
		}()
		select {
		case err := <-done:
			require.NoError(t, err, "--set %s\n%s", set, data)
		case <-time.After(fuzzHang):
			t.Fatalf("the run did not finish in %v:\n--set %s\n%s", fuzzHang, set, data)
		}
	})
}
