package packet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fluidDCQCN is an independent discrete-time model of N long DCQCN flows
// (the nic profile's rules, written from rdma-hw.cc, not from dcqcn.go) into
// one bottleneck of capacity c bits/s: a fluid queue, RED marking on it, a
// CNP per flow at most every cnp seconds when one of its packets in that
// time was marked (the chance of that from the marking probability), and
// each sender's α timer, rate-decrease check and increase timer. Step 0.5 µs;
// feedback delay d. It returns the time-averaged queue (bytes) and the
// bottleneck's utilisation after warm.
func fluidDCQCN(n int, c, kmin, kmax, pmax, pkt, d float64, seed uint64, warm, until float64) (queue, util float64) {
	const (
		dt      = 0.5e-6
		tAlpha  = 1e-6
		tDec    = 4e-6
		tInc    = 300e-6
		cnp     = 4e-6
		g       = 1.0 / 256
		stagesF = 1
	)
	rAI, rHAI := 5e6*c/25e9, 50e6*c/25e9
	type sender struct {
		rc, rt, alpha               float64
		started, alphaCN, decCN     bool
		stage                       int
		nextAlpha, nextDec, nextInc float64
		lastCNP                     float64
		pending                     []float64 // CNP arrival times
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	s := make([]sender, n)
	for i := range s {
		s[i] = sender{rc: c, rt: c, lastCNP: -1}
	}
	q := 0.0
	var qSum, served, samples float64
	for t := 0.0; t < until; t += dt {
		in := 0.0
		p := 0.0
		switch {
		case q > kmax:
			p = 1
		case q > kmin:
			p = pmax * (q - kmin) / (kmax - kmin)
		}
		for i := range s {
			f := &s[i]
			in += f.rc * dt / 8
			// Receiver: a marked packet in this step, a CNP if allowed.
			if pkts := f.rc * dt / 8 / pkt; p > 0 && rng.Float64() < 1-math.Pow(1-p, pkts) && (f.lastCNP < 0 || t-f.lastCNP >= cnp) {
				f.lastCNP = t
				f.pending = append(f.pending, t+d)
			}
			for len(f.pending) > 0 && f.pending[0] <= t {
				f.pending = f.pending[1:]
				if !f.started {
					f.started, f.alpha = true, 1
					f.nextAlpha, f.nextDec = t+tAlpha, t+tDec
				} else {
					f.alphaCN = true
				}
				f.decCN = true
			}
			if !f.started {
				continue
			}
			for f.nextAlpha <= t {
				if f.alphaCN {
					f.alpha = (1-g)*f.alpha + g
					f.alphaCN = false
				} else {
					f.alpha *= 1 - g
				}
				f.nextAlpha += tAlpha
			}
			for f.nextDec <= t {
				if f.decCN {
					if f.stage != 0 {
						f.rt = f.rc
					}
					f.rc *= 1 - f.alpha/2
					f.stage, f.decCN = 0, false
					f.nextInc = f.nextDec + tInc
				}
				f.nextDec += tDec
			}
			if f.nextInc > 0 && f.nextInc <= t {
				switch {
				case f.stage < stagesF:
				case f.stage == stagesF:
					f.rt += rAI
				default:
					f.rt += rHAI
				}
				f.rt = math.Min(f.rt, c)
				f.rc = (f.rc + f.rt) / 2
				f.stage++
				f.nextInc += tInc
			}
		}
		out := math.Min(q+in, c*dt/8)
		q = q + in - out
		if t >= warm {
			qSum += q
			served += out
			samples++
		}
	}
	return qSum / samples, served / (samples * c * dt / 8)
}

// jain is Jain's fairness index of xs.
func jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	return s * s / (float64(len(xs)) * s2)
}

// TestDCQCNLongFlows (REFERENCE.md, DCQCN as ConnectX NICs run it): N long
// flows into one port at 100G and 400G reach utilisation ≥ 0.97 of the
// payload rate, share it fairly (Jain ≥ 0.98 for N ≥ 4), and hold the
// queue within 0.75–1.15 of what the independent fluid model of the same
// rules gives. Measured over 10–20 ms, after the start-up (16 flows at 100G take ~10 ms to drain the first PFC-built queue).
func TestDCQCNLongFlows(t *testing.T) {
	for _, gbps := range []int{100, 400} {
		for _, n := range []int{2, 4, 8, 16} {
			t.Run(fmt.Sprintf("%dG-N%d", gbps, n), func(t *testing.T) {
				flows := ""
				for i := range n {
					flows += fmt.Sprintf("{src: %d, dst: %d}, ", i, n)
				}
				yaml := fmt.Sprintf(`
name: long-flows
topology: {kind: star, hosts: %d, fabric: roce, link_gbps: %d}
network: {flow_control: pfc, cc: dcqcn}
traffic: {pattern: flows, bytes: 4GiB, flows: [%s]}
until: 20ms
sim: {sample_interval: 100us}
`, n+1, gbps, flows)
				m, r := runYAML(t, yaml)
				s := r.Series
				require.Len(t, s.FlowGbps, n)
				per := make([]float64, n)
				var total, samples float64
				var qs []int64
				for _, qq := range s.Queues {
					if qq.Name == fmt.Sprintf("switch→host%d", n) {
						qs = qq.Bytes
					}
				}
				require.NotEmpty(t, qs)
				var qSum float64
				for k, tu := range s.TimeUs {
					if tu <= 10000 {
						continue
					}
					samples++
					for i := range n {
						per[i] += s.FlowGbps[i][k]
						total += s.FlowGbps[i][k]
					}
					qSum += float64(qs[k])
				}
				require.Positive(t, samples)
				payload := float64(gbps) * 4096 / (4096 + 82)
				util := total / samples / payload
				mean := qSum / samples
				kmin, kmax, pmax := m.net.DCQCN.KMin, m.net.DCQCN.KMax, m.net.DCQCN.PMax
				fq, futil := fluidDCQCN(n, float64(gbps)*1e9, float64(kmin), float64(kmax), pmax, 4096+82, 4e-6, 1, 10e-3, 20e-3)
				assert.GreaterOrEqual(t, util, 0.97, "utilisation")
				if n >= 4 {
					assert.GreaterOrEqual(t, jain(per), 0.98, "Jain fairness")
				}
				assert.Zero(t, r.Totals.Drops)
				assert.GreaterOrEqual(t, mean/fq, 0.75, "mean queue %.0f B against the fluid model's %.0f B", mean, fq)
				assert.LessOrEqual(t, mean/fq, 1.15, "mean queue %.0f B against the fluid model's %.0f B", mean, fq)
				t.Logf("%dG N=%d: util %.3f (fluid %.3f), Jain %.4f, mean queue %.0f B (fluid %.0f B, ×%.2f), CNPs %d",
					gbps, n, util, futil, jain(per), mean, fq, mean/fq, r.Totals.CNPs)
			})
		}
	}
}

// TestDCQCNIncastNIC (REFERENCE.md, DCQCN as ConnectX NICs run it): the
// built-in 8 → 1 × 64 MiB incast at 400G keeps ≥ 0.85 of the 392.1 Gb/s
// payload rate with zero drops; the paper's rules get far less.
func TestDCQCNIncastNIC(t *testing.T) {
	_, r := runBuiltin(t, "incast-dcqcn")
	_, paper := runBuiltin(t, "incast-dcqcn", "network.dcqcn.profile=paper")
	lossless(t, r)
	assert.GreaterOrEqual(t, r.Totals.GoodputGbps, 0.85*392.1)
	assert.Less(t, paper.Totals.GoodputGbps, 0.5*392.1, "the paper's rules climb back additively")
	assert.Positive(t, r.Totals.CNPs)
	t.Logf("incast-dcqcn goodput: nic %.1f Gb/s (%.3f), paper %.1f Gb/s; pause frames %d / %d", r.Totals.GoodputGbps, r.Totals.GoodputGbps/392.1,
		paper.Totals.GoodputGbps, r.Totals.PauseFrames, paper.Totals.PauseFrames)
}
