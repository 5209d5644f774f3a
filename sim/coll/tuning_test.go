package coll

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// NCCL's model time (ncclTopoGetAlgoTime) for 8 × A100 in one node, µs, as
// /work/notes/issue26-memo.md §7.2 computes it from tuning.cc (REFERENCE.md,
// "NCCL protocols (latency, µs), ring" and "(bandwidth)").
func TestAlgoTimeMatchesTuningCC(t *testing.T) {
	a100 := Params{Ranks: 8, GPUsPerNode: 8, OneSwitch: true, NVSwitch: true, Arch: Ampere}
	for _, tc := range []struct {
		algo  string
		proto int
		bytes int64
		want  float64
	}{
		{Ring, pLL, 8, 15.0}, {Ring, pLL128, 8, 40.6}, {Ring, pSimple, 8, 56.0},
		{Tree, pLL, 8, 15.2}, {Tree, pLL128, 8, 31.5}, {Tree, pSimple, 8, 64.4},
		{Ring, pLL, 1 << 20, 35.9}, {Tree, pLL, 1 << 20, 87.4},
		{Ring, pLL128, 16 << 20, 173.6}, {Tree, pLL128, 16 << 20, 248.6},
		{Ring, pSimple, 1 << 30, 7885}, {Tree, pSimple, 1 << 30, 9790},
	} {
		got, ok := algoTimeUs(AllReduce, tc.algo, tc.proto, a100, tc.bytes)
		require.True(t, ok)
		assert.InEpsilon(t, tc.want, got, 0.002, "%s/%s at %d bytes", tc.algo, Protocols[tc.proto], tc.bytes)
	}
	_, ok := algoTimeUs(AllReduce, InNetwork, pSimple, a100, 1<<30)
	assert.False(t, ok, "A100 has no NVLS")
}

// REFERENCE.md, "NCCL's choice of algorithm and protocol, all-reduce, 8 ×
// H100, one node": Ring/LL up to about 1 MiB, NVLS above; ring-only LL to
// 2 MiB, LL128 to 32 MiB, Simple from 64 MiB.
func TestTuneFollowsNCCL(t *testing.T) {
	h100 := Params{Ranks: 8, GPUsPerNode: 8, OneSwitch: true, NVSwitch: true}
	for _, tc := range []struct {
		bytes       int64
		algo, proto string
		ringProto   string
	}{
		{8, Ring, LL, LL}, {64 << 10, Ring, LL, LL}, {1 << 20, Ring, LL, LL}, {2 << 20, InNetwork, Simple, LL},
		{4 << 20, InNetwork, Simple, LL128}, {32 << 20, InNetwork, Simple, LL128}, {64 << 20, InNetwork, Simple, Simple},
		{1 << 30, InNetwork, Simple, Simple},
	} {
		algo, proto := Tune(AllReduce, h100, tc.bytes)
		assert.Equal(t, tc.algo+"/"+tc.proto, algo+"/"+proto, "%d bytes", tc.bytes)
		assert.Equal(t, tc.ringProto, TuneProtocol(AllReduce, Ring, h100, tc.bytes), "ring at %d bytes", tc.bytes)
	}
	assert.Equal(t, Simple, TuneProtocol(AllReduce, Hierarchical, h100, 8), "hierarchical runs Simple only")
	assert.Equal(t, LL, TuneProtocol(AllGather, Ring, h100, 8))
	algo, proto := Tune(Broadcast, h100, 8)
	assert.Equal(t, Ring+"/"+LL, algo+"/"+proto, "broadcast: the ring, LL when small")
	algo, proto = Tune(AllToAll, h100, 8)
	assert.Equal(t, Direct+"/"+Simple, algo+"/"+proto, "all-to-all: point-to-point, every peer in one round, Simple")
}

// LL doubles the bytes and meets NCCL's cap (141/370.8 of Simple's busbw on
// one H100 node); LL128 is NCCL's 0.92; Simple and algorithms without
// protocols move the payload.
func TestWireFactor(t *testing.T) {
	h100 := Params{Ranks: 8, GPUsPerNode: 8, OneSwitch: true}
	assert.InDelta(t, 370.8/141, WireFactor(AllReduce, Ring, LL, h100), 1e-9)
	assert.InDelta(t, 1/0.92, WireFactor(AllReduce, Ring, LL128, h100), 1e-9)
	assert.InDelta(t, 1, WireFactor(AllReduce, Ring, Simple, h100), 0)
	assert.InDelta(t, 1, WireFactor(AllReduce, Hierarchical, LL, h100), 0)
	a100 := Params{Ranks: 8, GPUsPerNode: 8, Arch: Ampere}
	assert.InDelta(t, 240/87.7, WireFactor(AllReduce, Ring, LL, a100), 1e-9)
}
