package packet

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
)

// victimGbps is flow i's goodput from its start to its finish (or to the end
// of the run if it did not finish).
func victimGbps(r *metrics.Result, i int) float64 {
	f := r.Flows[i]
	end := f.FinishUs
	if !f.Finished {
		end = r.Totals.SimTimeUs
	}
	return float64(f.Delivered) * 8 / ((end - f.StartUs) * 1e3)
}

// linksNamed is every link called name (a 2:1 leaf has two uplinks to each spine).
func linksNamed(t *testing.T, r *metrics.Result, name string) []metrics.Link {
	t.Helper()
	var out []metrics.Link
	for _, l := range r.Links {
		if l.Name == name {
			out = append(out, l)
		}
	}
	require.NotEmpty(t, out, "no link %q in the result", name)
	return out
}

// lossless checks that a run under PFC (or credits) lost nothing: no drops on
// any link, no retransmissions or timeouts, every flow finished with every byte.
func lossless(t *testing.T, r *metrics.Result) {
	t.Helper()
	assert.Zero(t, r.Totals.Drops)
	assert.Zero(t, r.Totals.Retransmits)
	assert.Zero(t, r.Totals.Timeouts)
	for _, l := range r.Links {
		assert.Zero(t, l.Drops, "%s drops", l.Name)
	}
	assert.Equal(t, r.Totals.Flows, r.Totals.FlowsFinished)
	for i, f := range r.Flows {
		assert.True(t, f.Finished, "flow %d finished", i)
		assert.Equal(t, f.Bytes, f.Delivered, "flow %d delivered every byte", i)
		assert.Zero(t, f.Retransmits, "flow %d", i)
	}
}

// jsonCounters checks, on the JSON that `fabriclab run --json` prints, that
// every total is the sum (or max, or mean) of what the flows and links report.
func jsonCounters(t *testing.T, r *metrics.Result) {
	t.Helper()
	out, err := json.Marshal(r)
	require.NoError(t, err)
	var j struct {
		Totals map[string]float64 `json:"totals"`
		Flows  []map[string]any   `json:"flows"`
		Links  []map[string]any   `json:"links"`
	}
	require.NoError(t, json.Unmarshal(out, &j))
	num := func(m map[string]any, k string) float64 {
		v, _ := m[k].(float64) // omitempty: absent is 0
		return v
	}
	tot := j.Totals
	var pauses, linkMarks, linkDrops, cnps, retx, ooo, delivered, fctSum, fctMax float64
	var finished int
	for _, l := range j.Links {
		pauses += num(l, "pause_frames")
		linkMarks += num(l, "ecn_marks")
		linkDrops += num(l, "drops")
		if num(l, "pause_frames") > 0 {
			assert.Positive(t, num(l, "pause_us"), "%v: paused frames pause for a while", l["name"])
		}
		if num(l, "ecn_marks") > 0 {
			name, _ := l["name"].(string)
			assert.False(t, strings.HasPrefix(name, "leaf0.host") || strings.HasPrefix(name, "leaf1.host") || strings.HasPrefix(name, "host"),
				"%s: hosts do not mark, only switch ports", name)
		}
	}
	for _, f := range j.Flows {
		cnps += num(f, "cnps")
		retx += num(f, "retransmits")
		ooo += num(f, "out_of_order")
		delivered += num(f, "delivered_bytes")
		if f["finished"] == true {
			finished++
			fct := num(f, "fct_us")
			fctSum += fct
			fctMax = max(fctMax, fct)
			assert.InDelta(t, num(f, "finish_us")-num(f, "start_us"), fct, 0.01, "fct = finish − start")
			assert.InDelta(t, num(f, "bytes")*8/(fct*1e3), num(f, "gbps"), 0.01, "gbps = bytes / fct")
		}
	}
	assert.Equal(t, tot["pause_frames"], pauses, "per-link pause frames sum to the total")
	assert.Equal(t, tot["ecn_marks"], linkMarks, "per-link ECN marks sum to the total")
	assert.Equal(t, tot["cnps"], cnps, "per-flow CNPs sum to the total")
	assert.Equal(t, tot["drops"], linkDrops, "per-link drops sum to the total")
	assert.Equal(t, tot["retransmits"], retx, "per-flow retransmits sum to the total")
	assert.Equal(t, tot["out_of_order"], ooo, "per-flow out-of-order packets sum to the total")
	assert.LessOrEqual(t, tot["cnps"], tot["ecn_marks"], "a CNP answers a marked packet")
	assert.Equal(t, tot["flows"], float64(len(j.Flows)))
	assert.Equal(t, tot["flows_finished"], float64(finished))
	if finished > 0 {
		assert.InDelta(t, fctMax, tot["max_fct_us"], 0.01)
		assert.InDelta(t, fctSum/float64(finished), tot["mean_fct_us"], 0.01)
	}
	if finished == len(j.Flows) {
		// Goodput is payload over (last delivery − first start); every flow here starts at 0.
		assert.InDelta(t, delivered*8/(fctMax*1e3), tot["goodput_gbps"], 0.01*tot["goodput_gbps"])
	}
}

// The victim-flow built-in (REFERENCE.md golden scenario 5's lossless incast,
// spread over a leaf-spine): seven senders on both leaves incast to
// leaf1.host0; at 500 µs leaf0.host1 starts an 8 MiB flow to leaf1.host1,
// whose port is idle, over the same uplinks and spine ports.
//
// PFC alone: leaf 1's ingress buffers fill behind the hot port and pause the
// spines, the spines pause leaf 0's uplinks, leaf 0 pauses its hosts — the
// victim's sender among them. The victim waits behind hot packets at every
// hop and gets about a tenth of its line rate (measured: 43.4 Gb/s, seeds 1–6
// 41–43.4). With DCQCN (the nic profile) the hot port marks ECN, the hot
// senders slow at the source, no congestion tree forms (no pause frame at
// all) and the victim runs at 380.5–380.6 Gb/s (seeds 1–6), ~9×; it is never
// marked, since the only port that marks is the hot one. Nothing is dropped
// either way.
//
// The price, shown but not asserted as a goal: the hot senders' first cuts
// (α = 1, a cut every 4 µs while the first queue drains) leave the hot port
// idle part of the time, so the incast takes 4.6–5.0 ms instead of 3.6 ms
// (hot port 72–78 % busy against 100 %). The paper's rules (profile: paper)
// cut them to ~12.5 Gb/s each: 16.2 ms, 22 % busy.
func TestVictimFlowPFCAndDCQCN(t *testing.T) {
	const victim = 7
	_, pfc := runBuiltin(t, "victim-flow")
	_, dc := runBuiltin(t, "victim-flow", "network.cc=dcqcn")
	for _, r := range []*metrics.Result{pfc, dc} {
		require.Len(t, r.Flows, 8)
		require.Equal(t, 1, r.Flows[victim].Src)
		require.Equal(t, 9, r.Flows[victim].Dst)
		require.Equal(t, 500.0, r.Flows[victim].StartUs, "the victim starts once the incast has built up")
	}
	before, after := victimGbps(pfc, victim), victimGbps(dc, victim)

	// (a) PFC alone: far below line rate, and the pauses reach the victim's path.
	assert.Less(t, before, 100.0, "PFC alone: the victim is blocked behind the incast (line rate 392 Gb/s)")
	assert.Positive(t, linkOf(t, pfc, "leaf0.host1→leaf0").PauseFrames, "leaf 0 pauses the victim's sender")
	for _, name := range []string{"leaf0→spine0", "leaf0→spine1", "spine0→leaf1", "spine1→leaf1"} {
		for _, l := range linksNamed(t, pfc, name) {
			assert.Positive(t, l.PauseFrames, "%s (the victim's path) is paused", name)
			assert.Greater(t, l.PauseUs, 1000.0, "%s is paused for most of the victim's life", name)
		}
	}
	// The victim's receiver port is not the problem: it is never paused and
	// its queue (measured: 551 KB, bursts of victim packets released at once
	// by four unpaused uplinks) is a small fraction of the hot port's (15.8 MiB).
	assert.Zero(t, linkOf(t, pfc, "leaf1→leaf1.host1").PauseFrames, "the victim's own receiver port is never paused")
	assert.Less(t, 10*linkOf(t, pfc, "leaf1→leaf1.host1").MaxQueueBytes, linkOf(t, pfc, "leaf1→leaf1.host0").MaxQueueBytes,
		"nor congested like the hot port")

	// (b) DCQCN: the victim recovers.
	assert.Greater(t, after, 300.0, "PFC+DCQCN: the victim runs near line rate")
	assert.GreaterOrEqual(t, after, 4*before, "at least four times the PFC-alone figure")
	assert.Zero(t, dc.Flows[victim].CNPs, "the victim is never marked")
	assert.Equal(t, 400.0, dc.Flows[victim].MinRateGbps, "nor slowed")
	assert.Zero(t, linkOf(t, dc, "leaf0.host1→leaf0").PauseFrames, "DCQCN: nothing pauses the victim's sender")
	assert.Less(t, dc.Totals.PauseFrames*20, pfc.Totals.PauseFrames, "pause frames drop sharply")
	for i := range victim {
		assert.Positive(t, dc.Flows[i].CNPs, "hot flow %d is told to slow down", i)
	}

	// (c) Lossless both ways.
	lossless(t, pfc)
	lossless(t, dc)

	// (d) Every counter adds up.
	sumCounters(t, pfc)
	sumCounters(t, dc)
	jsonCounters(t, pfc)
	jsonCounters(t, dc)
	assert.Zero(t, pfc.Totals.ECNMarks, "no marks without congestion control")
	assert.Zero(t, pfc.Totals.CNPs)
	assert.Positive(t, dc.Totals.ECNMarks)
	assert.Positive(t, dc.Totals.CNPs)
	assert.Equal(t, dc.Totals.ECNMarks, linkOf(t, dc, "leaf1→leaf1.host0").ECNMarks, "only the hot port marks")

	hot := linkOf(t, dc, "leaf1→leaf1.host0")
	t.Logf("victim: PFC %.1f Gb/s (fct %.1f µs), PFC+DCQCN %.1f Gb/s (fct %.1f µs), ×%.1f; pause frames %d → %d; ECN marks %d, CNPs %d; incast max fct %.0f → %.0f µs, hot port util %.1f%% → %.1f%%",
		before, pfc.Flows[victim].FctUs, after, dc.Flows[victim].FctUs, after/before, pfc.Totals.PauseFrames, dc.Totals.PauseFrames,
		dc.Totals.ECNMarks, dc.Totals.CNPs, pfc.Totals.MaxFctUs, dc.Totals.MaxFctUs,
		100*linkOf(t, pfc, "leaf1→leaf1.host0").Util, 100*hot.Util)
}

// The ib-vs-roce-incast built-in and its two --set variants (REFERENCE.md
// golden scenario 5): all three are lossless and fair, reach their fabric's
// payload ceiling (scenario 3: 397.5 Gb/s NDR, 392.1 Gb/s RoCEv2) without
// congestion control, and only RoCE with PFC alone pauses a lot.
func TestIBVsRoCEIncast(t *testing.T) {
	roce := []string{"topology.fabric=roce", "network.flow_control=pfc"}
	_, ib := runBuiltin(t, "ib-vs-roce-incast")
	_, pfc := runBuiltin(t, "ib-vs-roce-incast", roce...)
	_, dc := runBuiltin(t, "ib-vs-roce-incast", append(roce, "network.cc=dcqcn")...)
	for _, r := range []*metrics.Result{ib, pfc, dc} {
		require.Len(t, r.Flows, 8)
		lossless(t, r)
		jsonCounters(t, r)
		sumCounters(t, r)
	}
	for _, r := range []*metrics.Result{ib, pfc} {
		for i, f := range r.Flows {
			assert.InDelta(t, r.Totals.MaxFctUs, f.FctUs, 0.1*r.Totals.MaxFctUs, "flow %d: a fair share", i)
		}
	}
	assert.InDelta(t, 397.5, ib.Totals.GoodputGbps, 4, "NDR ceiling")
	assert.InDelta(t, 392.1, pfc.Totals.GoodputGbps, 4, "RoCEv2 ceiling")
	assert.Zero(t, ib.Totals.PauseFrames, "credits send no pause frames")
	assert.Positive(t, pfc.Totals.PauseFrames)
	assert.Less(t, dc.Totals.PauseFrames*20, pfc.Totals.PauseFrames, "DCQCN pauses far less")
	assert.Positive(t, dc.Totals.CNPs)
	assert.Less(t, ib.Totals.MaxFctUs, pfc.Totals.MaxFctUs, "InfiniBand's smaller headers finish first")
	t.Logf("max fct / pause frames / drops / goodput: ib credit %.1f µs / %d / %d / %.1f Gb/s; roce pfc %.1f µs / %d / %d / %.1f Gb/s; roce pfc+dcqcn %.1f µs / %d / %d / %.1f Gb/s",
		ib.Totals.MaxFctUs, ib.Totals.PauseFrames, ib.Totals.Drops, ib.Totals.GoodputGbps,
		pfc.Totals.MaxFctUs, pfc.Totals.PauseFrames, pfc.Totals.Drops, pfc.Totals.GoodputGbps,
		dc.Totals.MaxFctUs, dc.Totals.PauseFrames, dc.Totals.Drops, dc.Totals.GoodputGbps)
}
