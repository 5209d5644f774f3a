package sim_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/infer"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/snap"
	"fabriclab/sim/unit"
)

const serving = `
name: serving
topology: {kind: dgx, nodes: 2}
inference: {model: llama3-8b, prompt_tokens: 2048, output_tokens: 16, requests: 1, prefill_gpus: 8}
sim: {fidelity: flow}
`

// One request alone: its first token when prefill ends, its KV cache over
// the network (prefill on node 0, decode on node 1: 256 MiB at the NIC's
// rate), then one decode step per further token, each a little longer than
// the one before (the cache grows a token a step).
func TestOneRequestsWay(t *testing.T) {
	r := run(t, serving)
	in := r.Inference
	require.NotNil(t, in)
	sc, err := scenario.Parse([]byte(serving), "serving")
	require.NoError(t, err)
	p, err := plan.Resolve(&sc)
	require.NoError(t, err)
	c := p.Inference.Config
	assert.Equal(t, int64(2048*131072), in.KVBytesPerRequest)
	assert.InDelta(t, c.PrefillTime().Micros(), in.TTFTP50Us, 0.001)
	nic := p.Wiring.NIC.GBps() * 1e9
	assert.InEpsilon(t, float64(in.KVBytesPerRequest)/nic*1e6, in.KVTransferUs, 0.02, "the cache crosses at the NIC's rate")
	steps := unit.Time(0)
	for k := range 15 {
		steps += c.StepTime(1, int64(2048+k))
	}
	assert.InDelta(t, in.TTFTP50Us+in.KVTransferUs+steps.Micros(), in.LatencyP50Us, 0.01)
	assert.InDelta(t, (in.KVTransferUs+steps.Micros())/15, in.TPOTUs, 0.01, "time per output token counts the transfer")
}

// Requests arriving faster than the prefill GPUs finish them queue: the
// time to first token grows with the rate, and so do tokens per second
// until decode is full.
func TestRequestsQueueForPrefill(t *testing.T) {
	at := func(rate string) (ttft99, tokens float64) {
		in := run(t, serving, "inference.requests=64", "inference.prefill_gpus=2", "inference.requests_per_s="+rate).Inference
		require.NotNil(t, in)
		return in.TTFTP99Us, in.TokensPerSecond
	}
	slowT, slowTok := at("10")
	fastT, fastTok := at("200")
	prefill := 75045.158 // µs, TestPrefillTime's figure on H100
	assert.InDelta(t, prefill, slowT, 1, "at 10/s two prefill GPUs keep up")
	assert.Greater(t, fastT, 10*prefill, "at 200/s the 64th request waits for 31 prefills before its own")
	assert.Greater(t, fastTok, 2*slowTok)
}

// The service works at packet level too, and the same as at flow level but
// for the transfers' packets.
func TestInferencePacketLevel(t *testing.T) {
	flow := run(t, serving, "topology.nodes=1", "inference.prefill_gpus=4").Inference
	pkt := run(t, serving, "topology.nodes=1", "inference.prefill_gpus=4", "sim.fidelity=packet").Inference
	require.NotNil(t, pkt)
	assert.Equal(t, flow.TTFTP50Us, pkt.TTFTP50Us)
	assert.InEpsilon(t, flow.KVTransferUs, pkt.KVTransferUs, 0.05)
	assert.Equal(t, int64(2048*131072), infer.KVBytesPerToken(32, 8, 128)*2048)
}

// A service that cannot run is refused before the run, naming the key and the fix.
func TestInferenceErrors(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"inference.prompt_tokens=7200", "past llama3-8b's context of 8192 tokens"},
		{"inference.batch=4000", "at most batch:"},
		{"inference.prefill_gpus=16", "inference.prefill_gpus: 16 is too many"},
		{"collective.op=allreduce", "a scenario runs one workload"},
		{"inference.model=resnet50", "inference.model"},
		{"inference.requests=8000", "tokens to decode"},
		{"inference.requests_per_s=0", "inference.requests_per_s"},
	} {
		_, err := plan.ParseWith([]byte(serving), "serving.yaml", []string{c.set, "inference.output_tokens=1024"})
		if assert.Error(t, err, c.set) {
			assert.Contains(t, err.Error(), c.want, c.set)
		}
	}
}

// The canvas's picture of the service: every arrived request is in one
// place, the places follow each other in time, and at the end all are done.
func TestInferenceSnapshot(t *testing.T) {
	sc, err := scenario.ParseWith([]byte(serving), "serving", []string{"inference.requests=8", "inference.requests_per_s=100", "inference.prefill_gpus=2"})
	require.NoError(t, err)
	st, err := sim.Start(sc)
	require.NoError(t, err)
	at := func(ms int) *snap.Inference {
		st.Model.Advance(unit.Time(ms) * unit.Millisecond)
		s := st.Snapshot().Inference
		require.NotNil(t, s)
		assert.Equal(t, s.Arrived, s.Queued+s.Prefilling+s.Sending+s.Decoding+s.Done, "at %d ms", ms)
		return s
	}
	s := at(25) // 3 arrived (0, 10, 20 ms), two prefilling, one queued
	assert.Equal(t, []int{3, 1, 2, 0}, []int{s.Arrived, s.Queued, s.Prefilling, s.Done})
	s = at(90) // requests 0 and 1 prefilled at 75 and 85 ms: their caches on the way or decoding
	assert.Equal(t, 2, s.Sending+s.Decoding)
	assert.Equal(t, 2, s.Prefilling, "requests 2 and 3, at 75 and 85 ms")
	assert.InDelta(t, 75045.158, s.TTFTP50, 0.001)
	st.Model.Run()
	s = st.Snapshot().Inference
	assert.Equal(t, 8, s.Done)
	assert.Equal(t, int64(8*16), s.Tokens)
	assert.Equal(t, int64(2048*131072), s.KVBytes)
}
