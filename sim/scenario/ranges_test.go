package scenario

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRanges takes every numeric key of the README's Scenarios table to the
// ends of its documented range and just past them, through --set: the ends
// are accepted, and past them every error names the key that was set (never
// a key derived from it).
func TestRanges(t *testing.T) {
	const (
		lossy    = "network: {flow_control: none}\n"
		dcqcn    = "network: {cc: dcqcn, flow_control: none}\n"
		ibcc     = "topology: {fabric: ib}\nnetwork: {cc: ibcc}\n"
		shared   = "network: {buffer_model: shared}\n"
		classes  = "network: {classes: [{name: a}, {name: b}]}\n"
		flows    = "traffic: {flows: [{src: 0, dst: 1}]}\n"
		storms   = "network: {pfc: {storms: [{endpoint: 0, start: 0, end: 1ms}]}}\n"
		coll     = "collective: {op: allreduce, algo: ring, bytes: 1MiB}\n"
		bcast    = "collective: {op: broadcast, algo: ring, bytes: 1MiB}\n"
		training = "topology: {kind: dgx}\ntraining: {model: custom, batch: 1, layers: [{name: fc, params: 1000, flops: 1000}]}\n"
		fattree  = "topology: {kind: fattree}\n"
		leafsp   = "topology: {kind: leafspine, leaves: 2, hosts_per_leaf: 4, spines: 2}\n"
		dgx      = "topology: {kind: dgx}\n"
		flowSim  = "sim: {fidelity: flow}\n"
	)
	for _, tc := range []struct {
		base, key string
		in, out   []string // values inside the range (its ends) and just outside
	}{
		{"", "seed", []string{"0", "18446744073709551615"}, []string{"-1", "18446744073709551616"}},
		{"", "until", []string{"0", "100s"}, []string{"-1ps", "100000000001us"}},
		{flowSim, "topology.hosts", []string{"2", "65536"}, []string{"1", "65537"}},
		{dgx + flowSim, "topology.nodes", []string{"1", "8192"}, []string{"0", "8193"}},
		{dgx, "topology.gpus_per_node", []string{"2", "16"}, []string{"1", "17"}},
		{dgx, "topology.nics_per_node", []string{"1", "2", "8"}, []string{"0", "3", "9", "-1"}},
		{leafsp, "topology.leaves", []string{"1", "2"}, []string{"0"}},
		{leafsp, "topology.hosts_per_leaf", []string{"2", "4"}, []string{"0"}},
		{leafsp, "topology.spines", []string{"1", "4"}, []string{"0", "3"}},
		{leafsp, "topology.oversubscription", []string{"1", "2"}, []string{"0.5", "5"}},
		{fattree + flowSim, "topology.k", []string{"4", "64"}, []string{"2", "66"}},
		{lossy, "topology.link_gbps", []string{"1", "100000"}, []string{"0.999", "100001", "1e-5"}},
		{lossy, "topology.link_latency", []string{"0", "1s"}, []string{"1000001us"}},
		{lossy, "topology.switch_latency", []string{"0", "1s"}, []string{"1000001us"}},
		{dgx, "topology.nvlink_efficiency", []string{"0.01", "1"}, []string{"0.0099", "1.01", "1e-15"}},
		{lossy, "network.mtu", []string{"256", "9216"}, []string{"255", "9217"}},
		{lossy, "network.buffer", []string{"9KiB", "1GiB"}, []string{"1KiB", "1025MiB"}},
		{dcqcn, "network.ecn.kmin", []string{"0", "1KiB"}, []string{"2MiB"}},
		{dcqcn, "network.ecn.kmax", []string{"0", "4B", "2MiB"}, []string{"3MiB"}},
		{dcqcn, "network.ecn.pmax", []string{"1e-9", "1"}, []string{"0", "1.01"}},
		{dcqcn, "network.cnp_interval", []string{"0", "1s"}, []string{"1000001us"}},
		{dcqcn, "network.dcqcn.time_reset", []string{"1us", "131071us"}, []string{"999ns", "131072us"}},
		{dcqcn, "network.dcqcn.byte_reset", []string{"0", "1GiB"}, []string{"1025MiB"}},
		{dcqcn, "network.dcqcn.threshold", []string{"1", "31"}, []string{"0", "32"}},
		{dcqcn, "network.dcqcn.ai_rate", []string{"0", "1bps", "400Gbps"}, []string{"401Gbps", "-1bps"}},
		{dcqcn, "network.dcqcn.hai_rate", []string{"0", "400Gbps"}, []string{"401Gbps"}},
		{dcqcn, "network.dcqcn.min_dec_fac", []string{"0", "100"}, []string{"-1", "101"}},
		{dcqcn, "network.dcqcn.min_rate", []string{"1bps", "400Gbps"}, []string{"0", "401Gbps"}},
		{dcqcn, "network.dcqcn.rate_reduce_period", []string{"0", "131071us"}, []string{"131072us"}},
		{dcqcn, "network.dcqcn.g", []string{"1e-9", "1"}, []string{"0", "1.01"}},
		{dcqcn, "network.dcqcn.initial_alpha", []string{"1e-9", "1"}, []string{"0", "1.01"}},
		{dcqcn, "network.dcqcn.alpha_update_period", []string{"1us", "131071us"}, []string{"999ns", "131072us"}},
		{ibcc, "network.ibcc.threshold", []string{"0", "2MiB"}, []string{"3MiB"}},
		{ibcc, "network.ibcc.marking_rate", []string{"1", "65535"}, []string{"0", "65536"}},
		{ibcc, "network.ibcc.becn_interval", []string{"0", "1s"}, []string{"1000001us"}},
		{ibcc, "network.ibcc.timer", []string{"1us", "1s"}, []string{"999ns", "1000001us"}},
		{ibcc, "network.ibcc.ccti_increase", []string{"1", "16383"}, []string{"0", "16384"}},
		{ibcc, "network.ibcc.ccti_limit", []string{"1", "16383"}, []string{"0", "16384"}},
		{ibcc, "network.ibcc.ccti_min", []string{"0", "126"}, []string{"-1", "127"}},
		{ibcc, "network.ibcc.cct_step", []string{"1e-9", "64"}, []string{"0", "64.1"}},
		{"", "network.pfc.headroom", []string{"0", "122KiB", "2039KiB"}, []string{"1KiB", "121KiB", "2040KiB"}},
		{"", "network.pfc.xoff", []string{"0", "9KiB", "1926KiB"}, []string{"4KiB", "1927KiB"}},
		{"", "network.pfc.xon", []string{"0", "1B", "1MiB"}, []string{"2MiB"}},
		{storms, "network.pfc.storms[0].endpoint", []string{"0", "8"}, []string{"-1", "9"}},
		{storms, "network.pfc.storms[0].start", []string{"0", "999us"}, []string{"-1ps", "100000001us"}},
		{storms, "network.pfc.storms[0].end", []string{"1ps", "100s"}, []string{"0", "100000001us"}},
		{lossy, "network.rto", []string{"1us", "1s"}, []string{"999ns", "1000001us"}},
		{lossy, "network.ack_every", []string{"1", "1024"}, []string{"0", "1025"}},
		{shared, "network.switch_buffer", []string{"0", "9KiB", "64GiB"}, []string{"1KiB", "65GiB"}},
		{shared, "network.dt_alpha", []string{"0.01", "64"}, []string{"0.0099", "64.1", "1e-300"}},
		{classes, "network.classes[0].weight", []string{"0.001", "1000"}, []string{"0.00099", "1000.1", "1e-300"}},
		{"", "traffic.bytes", []string{"1B", "190MiB"}, []string{"0", "1TiB"}},
		{"", "traffic.start", []string{"0", "100s"}, []string{"100000001us"}},
		{"", "traffic.senders", []string{"1", "8"}, []string{"0", "9"}},
		{"", "traffic.receiver", []string{"-1", "8"}, []string{"-2", "9"}},
		{flows, "traffic.flows[0].src", []string{"0", "8"}, []string{"-1", "9"}},
		{flows, "traffic.flows[0].dst", []string{"1", "8"}, []string{"-1", "9"}},
		{flows, "traffic.flows[0].bytes", []string{"1B", "760GiB"}, []string{"0", "1025GiB"}},
		{flows + flowSim, "traffic.flows[0].bytes", []string{"1TiB"}, []string{"1025GiB"}},
		{flows, "traffic.flows[0].start", []string{"0", "100s"}, []string{"100000001us"}},
		{coll, "collective.bytes", []string{"1B", "40GiB"}, []string{"0"}}, // 1TiB at packet level: sim/plan's TestCollectiveRanges
		{coll + flowSim, "collective.bytes", []string{"1TiB"}, []string{"1025GiB"}},
		{coll, "collective.ranks", []string{"0", "2", "9"}, []string{"1", "10"}},
		{coll, "collective.channels", []string{"1", "64"}, []string{"0", "65"}},
		{coll, "collective.chunk", []string{"0", "4KiB", "1TiB"}, []string{"4095B", "1025GiB"}},
		{coll, "collective.alpha", []string{"0", "1s"}, []string{"1000001us"}},
		{bcast, "collective.root", []string{"0", "8"}, []string{"-1", "9"}},
		{training, "training.layers[0].params", []string{"1", "100000000000"}, []string{"0", "100000000001"}},
		{training, "training.layers[0].flops", []string{"0", "1e15"}, []string{"-1", "1.01e15"}},
		{training, "training.mfu", []string{"0", "0.01", "1"}, []string{"0.0099", "1.01", "-0.1"}},
		{training, "training.accumulation", []string{"0", "1024"}, []string{"-1", "1025"}},
		{"topology: {kind: dgx}\ntraining: {model: gpt2-1.5b, batch: 1024, accumulation: 1}\n", "training.tp", []string{"0", "1", "2", "8"}, []string{"-1", "3", "16", "65"}},
		{training, "training.batch", []string{"0", "16777216"}, []string{"-1", "16777217"}},
		{training, "training.bucket_cap", []string{"1KiB", "1GiB"}, []string{"1023B", "1025MiB"}},
		{training, "training.first_bucket", []string{"1B", "1GiB"}, []string{"0", "1025MiB"}},
		{training, "training.iterations", []string{"1", "100"}, []string{"0", "101"}},
		{training, "training.gpu_hour_price", []string{"0", "2.5", "1000000"}, []string{"-0.01", "1000001", "1e308"}},
		{training, "training.ranks", []string{"0", "2", "8"}, []string{"1", "9"}},
		{"", "sim.sample_interval", []string{"0", "1us", "100s"}, []string{"999ns", "100000001us"}},
	} {
		for _, v := range tc.in {
			set := tc.key + "=" + v
			_, err := ParseWith([]byte("name: r\n"+tc.base), "r.yaml", []string{set})
			assert.NoError(t, err, "%s on %q", set, tc.base)
		}
		for _, v := range tc.out {
			set := tc.key + "=" + v
			_, err := ParseWith([]byte("name: r\n"+tc.base), "r.yaml", []string{set})
			if !assert.Error(t, err, "%s on %q", set, tc.base) {
				continue
			}
			named := false
			for _, e := range unwrapErrors(err) {
				var se *Error
				require.True(t, errors.As(e, &se))
				if se.Key == tc.key {
					named = true
					assert.Equal(t, "--set "+set, se.Source, "%v", e)
					continue
				}
				assert.Contains(t, tc.base, leaf(se.Key)+":", "%s on %q: %v names a key nobody wrote", set, tc.base, e)
			}
			assert.True(t, named, "%s on %q: %v does not name %s", set, tc.base, err, tc.key)
		}
	}
}

func unwrapErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestDerivedThresholds holds the values derived from the link and the buffer
// (ECN marking, PFC and IBCC thresholds) to the key ranges: at every
// combination of the ends of link_gbps, mtu and buffer they validate, so no
// error can name a derived key the user did not write.
func TestDerivedThresholds(t *testing.T) {
	for _, gbps := range []string{"1", "25", "400", "100000"} {
		for _, mtu := range []string{"256", "9216"} {
			for _, buffer := range []string{"19KiB", "2MiB", "1GiB"} {
				for _, net := range []string{
					"{cc: dcqcn, flow_control: none}",
					"{cc: dcqcn, flow_control: none, buffer_model: shared}",
					"{flow_control: pfc, cc: dcqcn}",
				} {
					doc := fmt.Sprintf("topology: {link_gbps: %s, link_latency: 0, switch_latency: 0}\nnetwork: %s\n", gbps, net)
					if buffer == "19KiB" && net == "{flow_control: pfc, cc: dcqcn}" {
						buffer = "39KiB" // PFC's headroom (2 packets, a pause quantum, jitter), and xoff and xon above it
					}
					sets := []string{"network.mtu=" + mtu, "network.buffer=" + buffer}
					_, err := ParseWith([]byte(doc), "d.yaml", sets)
					assert.NoError(t, err, "%s %v", doc, sets)
				}
				doc := fmt.Sprintf("topology: {fabric: ib, link_gbps: %s}\nnetwork: {cc: ibcc, mtu: %s, buffer: %s}\n", gbps, mtu, buffer)
				_, err := Parse([]byte(doc), "d.yaml")
				assert.NoError(t, err, doc)
			}
		}
	}
}
