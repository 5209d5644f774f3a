package sim_test

import (
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
	fuzzWallLimit    = 5 * time.Second
	fuzzHang         = 60 * time.Second
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

// FuzzRun runs what validation accepts, shrunk by boundForFuzz: no input may
// panic the engine or the models (issue 9: nvlink_efficiency: 1e-15 once
// scheduled an event in the past), or hang.
func FuzzRun(f *testing.F) {
	for _, b := range scenario.Builtins() {
		data, _ := scenario.Builtin(b.Name)
		f.Add(data)
	}
	data, err := os.ReadFile("scenario/testdata/sections.yaml")
	require.NoError(f, err)
	for _, doc := range strings.Split(string(data), "\n---\n") {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse(data, "fuzz.yaml")
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
				done <- err
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
			require.NoError(t, err, "%s", data)
		case <-time.After(fuzzHang):
			t.Fatalf("the run did not finish in %v:\n%s", fuzzHang, data)
		}
	})
}
