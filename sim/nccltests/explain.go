package nccltests

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"fabriclab/sim/coll"
	"fabriclab/sim/unit"
)

// Line is one size measured beside what was expected.
type Line struct {
	Size     unit.Bytes
	Measured Result // out of place, as nccl-tests' average line takes it
	Expected Expected
	Ratio    float64 // measured busbw over expected; 0 where either is 0
}

// Cause is one finding, a sentence the user can act on.
type Cause struct {
	Kind     string // latency, bandwidth, algo, gdr, pcie, pxn, nics, slow, nvlink, faster, knee, unsteady, busbw
	From, To unit.Bytes
	Text     string
}

// Report is an output explained.
type Report struct {
	Shape  Shape
	Lines  []Line
	Causes []Cause
}

// Alternative is what another algorithm would give at a size.
type Alternative struct {
	Algo string
	Expected
}

// Sizes are the output's sizes above 0 (size-0 rows time nothing).
func (o *Output) Sizes() []unit.Bytes {
	var out []unit.Bytes
	for _, r := range o.Rows {
		if r.Size > 0 {
			out = append(out, unit.Bytes(r.Size))
		}
	}
	return out
}

// Explain sets the output's rows beside exp (one per size of Sizes, in
// order) and finds where and why they part. alts are other algorithms at
// the largest size (for a run that used one of them).
func Explain(o *Output, s Shape, exp []Expected, alts []Alternative) Report {
	rep := Report{Shape: s}
	i := 0
	for _, r := range o.Rows {
		if r.Size <= 0 || i >= len(exp) {
			continue
		}
		l := Line{Size: unit.Bytes(r.Size), Measured: r.Out, Expected: exp[i]}
		if r.Out.BusBw > 0 && exp[i].BusBw > 0 {
			l.Ratio = r.Out.BusBw / exp[i].BusBw
		}
		rep.Lines = append(rep.Lines, l)
		i++
	}
	rep.Causes = append(rep.Causes, latency(rep.Lines)...)
	rep.Causes = append(rep.Causes, bandwidth(o, s, rep.Lines, alts)...)
	rep.Causes = append(rep.Causes, stagedPath(s)...)
	rep.Causes = append(rep.Causes, knee(rep.Lines, s.GPUsPerHost == 1, largeRatio(rep.Lines))...)
	rep.Causes = append(rep.Causes, unsteady(rep.Lines)...)
	rep.Causes = append(rep.Causes, busbwNote(s, rep.Lines)...)
	return rep
}

const (
	smallMax = 64 << 10 // up to here a call's time is latency
	largeMin = 64 << 20 // from here busbw is the bandwidth
	ok       = 0.85     // within this of expected (either way) is healthy
	tooSlow  = 1.5      // a small call this many times the expected time is latency-bound
)

// latency compares the small sizes' times.
func latency(lines []Line) []Cause {
	var got, want []float64
	var from, to unit.Bytes
	for _, l := range lines {
		if l.Size <= smallMax && l.Expected.TimeUs > 0 {
			if from == 0 {
				from = l.Size
			}
			to = l.Size
			got, want = append(got, l.Measured.TimeUs), append(want, l.Expected.TimeUs)
		}
	}
	if len(got) == 0 {
		return nil
	}
	g, w := median(got), median(want)
	c := Cause{Kind: "latency", From: from, To: to}
	switch {
	case g > tooSlow*w:
		c.Text = fmt.Sprintf("Small messages (%s to %s) take %.0f µs a call against %.0f µs expected: latency-bound. "+
			"On one node that is the host's work per call (the kernel launch, NCCL's enqueue: nccl-tests -G 1 runs them as a CUDA graph and removes most of it); "+
			"across nodes also the network's round trip (ib_write_lat between two nodes) and NCCL_PROTO, if it leaves out LL and LL128.", from, to, g, w)
	case g < w/tooSlow:
		c.Text = fmt.Sprintf("Small messages (%s to %s) take %.0f µs a call, less than the %.0f µs expected: nccl-tests ran with CUDA graphs (-G) or a lighter host path than NCCL's defaults; latency is not your problem.", from, to, g, w)
	default:
		c.Text = fmt.Sprintf("Small messages (%s to %s) take %.0f µs a call, as expected (%.0f µs): latency is healthy.", from, to, g, w)
	}
	return []Cause{c}
}

// large is the lines where bandwidth decides: the largest three from
// 64 MiB (the curve's plateau), else the largest three.
func large(lines []Line) []Line {
	var out []Line
	for _, l := range lines {
		if l.Size >= largeMin && l.Ratio > 0 {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		for _, l := range lines {
			if l.Ratio > 0 {
				out = append(out, l)
			}
		}
	}
	return out[max(0, len(out)-3):]
}

var (
	hcaRe        = lazy(`NCCL_IB_HCA set to (\S+)`)
	hostBridgeRe = lazy(`GPU/\w+ :.*NET/\d+ \(\d+/[0-9.]+/(PHB|SYS)\)`)
	ibConnRe     = lazy(`via NET/IB\w*/\d+`)
	pxnOffRe     = lazy(`NCCL_PXN_DISABLE set by environment to 1|NCCL_P2P_PXN_LEVEL set by environment to 0`)
)

// ibWithoutGDR is the first of NCCL's connection lines over InfiniBand
// (or RoCE) when none of them says GDRDMA: NCCL then moves every byte
// between the GPU and the NIC through host memory. "" when the output has
// no such line or one uses GPUDirect RDMA.
func ibWithoutGDR(info []string) string {
	first := ""
	for _, line := range info {
		if !ibConnRe().MatchString(line) {
			continue
		}
		if strings.Contains(line, "GDRDMA") {
			return ""
		}
		if first == "" {
			first = line[strings.Index(line, "via NET/"):]
		}
	}
	return first
}

// hcaListed is the number of NICs an NCCL_IB_HCA value names, 0 when it
// excludes (^) rather than lists.
func hcaListed(v string) int {
	v = strings.TrimPrefix(v, "=")
	if v == "" || strings.HasPrefix(v, "^") {
		return 0
	}
	return len(strings.Split(v, ","))
}

// bandwidth compares the large sizes' busbw and names the likeliest cause
// of a shortfall.
func bandwidth(o *Output, s Shape, lines []Line, alts []Alternative) []Cause {
	big := large(lines)
	if len(big) == 0 {
		return nil
	}
	var ratios, got, want []float64
	for _, l := range big {
		ratios, got, want = append(ratios, l.Ratio), append(got, l.Measured.BusBw), append(want, l.Expected.BusBw)
	}
	r, g, w := median(ratios), median(got), median(want)
	c := Cause{Kind: "bandwidth", From: big[0].Size, To: big[len(big)-1].Size}
	last := big[len(big)-1]
	picked := NCCLAlgo(last.Expected.Algo, s.GPUsPerHost == 1)
	switch {
	case r > 1/ok:
		c.Kind = "faster"
		c.Text = fmt.Sprintf("From %s, busbw reaches %.0f GB/s, more than the %.0f GB/s expected: the cluster has more network per GPU than assumed (%s Gb/s per GPU, %s): pass --nic-gbps with your NICs' rate per GPU (all of a GPU's NICs together).",
			c.From, g, w, s.NICRate(), s.NICFrom)
		return []Cause{c}
	case r >= ok:
		c.Text = fmt.Sprintf("From %s, busbw reaches %.0f GB/s, %.0f %% of the %.0f GB/s expected with NCCL's %s: the bandwidth is healthy.", c.From, g, 100*r, w, picked)
		return []Cause{c}
	}
	for _, a := range alts {
		if a.BusBw > 0 && a.Algo != last.Expected.Algo && a.BusBw < ok*last.Expected.BusBw && math.Abs(last.Measured.BusBw/a.BusBw-1) < 0.1 {
			c.Kind = "algo"
			c.Text = fmt.Sprintf("At %s, busbw is %.0f GB/s: what NCCL's %s gives (%.0f GB/s expected), not the %s NCCL picks by itself (%.0f GB/s). The run likely used %s: NCCL_ALGO set to it%s does that; unset it to get NCCL's choice.",
				last.Size, last.Measured.BusBw, NCCLAlgo(a.Algo, s.GPUsPerHost == 1), a.BusBw, picked, last.Expected.BusBw, NCCLAlgo(a.Algo, s.GPUsPerHost == 1), nvlsHint(last.Expected.Algo))
			return []Cause{c}
		}
	}
	for _, line := range o.Info {
		if strings.Contains(line, "GPU Direct RDMA Disabled") {
			c.Kind = "gdr"
			c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s expected, and NCCL says GPUDirect RDMA is off (%q): every byte is copied through host memory. "+
				"Put the GPU and its NIC under one PCIe switch, or raise NCCL_NET_GDR_LEVEL (PHB, SYS) if the platform supports peer-to-peer across the host bridge.", c.From, g, 100*r, w, strings.TrimSpace(line[strings.Index(line, "GPU Direct"):]))
			return []Cause{c}
		}
	}
	if conn := ibWithoutGDR(o.Info); conn != "" && s.Hosts > 1 {
		c.Kind = "gdr"
		c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s expected, and NCCL's connections across nodes do without GPUDirect RDMA (%q, where GPUDirect RDMA reads .../GDRDMA): every byte is copied through host memory. "+
			"Load the nvidia-peermem module (or use a driver and kernel with DMA-BUF), make sure ACS is off on bare metal (lspci -vvv: ACSCtl SrcValid-), and check that NCCL_DEBUG=INFO's connection lines end in GDRDMA.", c.From, g, 100*r, w, conn)
		return []Cause{c}
	}
	for _, line := range o.Info {
		if m := hostBridgeRe().FindStringSubmatch(line); m != nil && s.Hosts > 1 {
			c.Kind = "pcie"
			c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s expected, and NCCL's topology puts the GPU and its NIC on either side of the CPU (path %s: %q): "+
				"GPUDirect RDMA through the CPU's host bridge often runs well under the NIC's rate. Seat the NIC and the GPU under one PCIe switch (nvidia-smi topo -m shows PIX or PXB between them).", c.From, g, 100*r, w, m[1], line[strings.Index(line, "GPU/"):])
			return []Cause{c}
		}
	}
	if s.Hosts > 1 && s.GPUsPerHost > 1 && (s.Op == coll.AllToAll || s.Op == coll.AllGather) {
		for _, line := range o.Info {
			if m := pxnOffRe().FindString(line); m != "" {
				c.Kind = "pxn"
				c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s expected, and PXN is off (%s): each GPU reaches the other nodes only through its own NIC, so data for a GPU on another rail crosses the spine, and the messages of a node's GPUs to one peer are not gathered onto one NIC. "+
					"Unset it (NCCL turns PXN on by itself where NVLink joins a node's GPUs) and run again; if busbw stays low, check that each rail's NICs share a leaf switch.", c.From, g, 100*r, w, m)
				return []Cause{c}
			}
		}
	}
	switch {
	case s.Hosts > 1 && s.GPUsPerHost > 1:
		nics := s.NICs()
		k := int(math.Round(r * float64(nics)))
		c.Kind = "nics"
		hcaText, hcaFew, alt := "", "", ""
		for _, line := range o.Info {
			if m := hcaRe().FindStringSubmatch(line); m != nil {
				hcaText = fmt.Sprintf(" (NCCL_IB_HCA is %s)", m[1])
				if n := hcaListed(m[1]); n > 0 && n < nics {
					of := "of a node (the topology file's)"
					if s.Node == nil {
						of = "assumed per node"
					}
					hcaFew = fmt.Sprintf("NCCL_IB_HCA lists %d of the %d NICs %s (%s), and NCCL uses those alone: list every NIC, or unset it and let NCCL find them. ", n, nics, of, m[1])
					hcaText = ""
				}
			}
		}
		for _, a := range alts {
			if ka := int(math.Round(last.Measured.BusBw / a.BusBw * float64(nics))); a.BusBw > 0 && (a.Algo == coll.Ring || a.Algo == coll.Tree) && ka != k && alt == "" {
				alt = fmt.Sprintf(", or %d of %d against NCCL's %s if the run was held to it (NCCL_ALGO)", ka, nics, NCCLAlgo(a.Algo, false))
				break
			}
		}
		per, fix := "a %s Gb/s NIC per GPU", "if the nodes have fewer or slower NICs, pass --nic-gbps with their rate per GPU."
		if s.Node != nil {
			per, fix = fmt.Sprintf("%d NICs of %%s Gb/s per node (the topology file's)", nics), "if the NICs are slower than the file says, pass --nic-gbps."
		}
		c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s expected with "+fmt.Sprintf(per, s.NICRate())+": as if %d of the %d NICs of each node carried the traffic%s. "+hcaFew+
			"Check that NCCL_IB_HCA lists every NIC%s, that every port is up at its full rate (ibstat: a port that came up at a lower rate, 100 on an HDR 200 card, slows its rail), that ACS is off on bare metal (lspci -vvv: ACSCtl SrcValid-), and that each GPU's NIC is on its own PCIe switch (nvidia-smi topo -m: PIX); "+fix,
			c.From, g, 100*r, w, max(k, 1), nics, alt, hcaText)
		if hcaFew == "" {
			return []Cause{c, slowNode(c)}
		}
	case s.Hosts > 1:
		c.Kind = "nics"
		c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s a %s Gb/s NIC gives (%s). Check the port's rate (ibstat: a port that came up at a lower rate than its card's, 100 on an HDR 200 card, caps the NIC there; reseat or replace the cable), the NIC's PCIe slot (lspci -vv: LnkSta x16 at its generation), and that GPUDirect RDMA is on (NCCL_DEBUG=INFO says so); if the NIC is slower, pass --nic-gbps.",
			c.From, g, 100*r, w, s.NICRate(), s.NICFrom)
		return []Cause{c, slowNode(c)}
	default:
		c.Kind = "nvlink"
		c.Text = fmt.Sprintf("From %s, busbw is %.0f GB/s, %.0f %% of the %.0f GB/s NVLink gives with NCCL's %s. Check nvidia-smi nvlink --status for a link down or slow, that NCCL_P2P_DISABLE is unset, and that the GPUs are on an NVSwitch (PCIe cards have no NVLink).",
			c.From, g, 100*r, w, picked)
	}
	return []Cause{c}
}

// slowNode is the other reading of a shortfall across nodes that NCCL's
// lines do not explain: one node slower than the rest, which one output
// cannot tell from slow NICs everywhere.
func slowNode(c Cause) Cause {
	return Cause{Kind: "slow", From: c.From, To: c.To, Text: "Or one node is slower than the others: a ring or a tree runs at the pace of its slowest member, so one node with a bad port, a PCIe link below its width or GPUs held to low clocks holds every large size down by the same amount. " +
		"Run the test on pairs of nodes, each pair with a node known to be good: the pairs that include the slow node fall short together and the others reach the expected busbw; then check that node (ibstat, lspci -vv: LnkSta, nvidia-smi -q -d PERFORMANCE)."}
}

// nvlsHint adds what turns NVLS off when the expected algorithm is one.
func nvlsHint(algo string) string {
	if algo == coll.InNetwork || algo == coll.NVLSTree {
		return " or NCCL_NVLS_ENABLE=0 (NVLS also needs the fabric manager running, and IMEX across nodes)"
	}
	return ""
}

// largeRatio is the median ratio of the sizes where bandwidth decides, 0
// when none has one.
func largeRatio(lines []Line) float64 {
	var r []float64
	for _, l := range large(lines) {
		r = append(r, l.Ratio)
	}
	if len(r) == 0 {
		return 0
	}
	return median(r)
}

// knee finds middle sizes well under expected while the large sizes
// (their median ratio big) are healthy, or well under big when they are
// not: a dip of its own, not the whole curve's shortfall, which bandwidth
// explains.
func knee(lines []Line, hosts bool, big float64) []Cause {
	var mid []Line
	for _, l := range lines {
		if l.Size > smallMax && l.Size < largeMin && l.Ratio > 0 {
			mid = append(mid, l)
		}
	}
	worst := -1
	for i, l := range mid {
		if l.Ratio < 0.7 && (big == 0 || big >= ok || l.Ratio < 0.7*big) && (worst < 0 || l.Ratio < mid[worst].Ratio) {
			worst = i
		}
	}
	if worst < 0 {
		return nil
	}
	from, to := worst, worst
	for from > 0 && mid[from-1].Ratio < ok {
		from--
	}
	for to < len(mid)-1 && mid[to+1].Ratio < ok {
		to++
	}
	w := mid[worst]
	return []Cause{{Kind: "knee", From: mid[from].Size, To: mid[to].Size, Text: fmt.Sprintf(
		"From %s to %s, busbw falls to %.0f %% of expected (%.1f against %.1f GB/s at %s), where NCCL changes protocol or algorithm (fabriclab expects %s with %s there). "+
			"NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING prints NCCL's choice per size; a different choice, or NCCL_PROTO or NCCL_ALGO set, explains the dip.",
		mid[from].Size, mid[to].Size, 100*w.Ratio, w.Measured.BusBw, w.Expected.BusBw, w.Size, NCCLAlgo(w.Expected.Algo, hosts), strings.ToUpper(orSimple(w.Expected.Proto)))}}
}

// unsteady finds a large size whose busbw falls well under what a smaller
// one reached: a healthy curve rises and flattens.
func unsteady(lines []Line) []Cause {
	best := 0.0
	var at unit.Bytes
	for _, l := range lines {
		b := l.Measured.BusBw
		if l.Size >= 1<<20 && best > 0 && b < 0.8*best {
			return []Cause{{Kind: "unsteady", From: l.Size, To: lines[len(lines)-1].Size, Text: fmt.Sprintf(
				"At %s, busbw falls to %.1f GB/s after reaching %.1f GB/s at %s: a steady fabric gives a curve that rises and flattens. "+
					"Something else shares the GPUs or links (another job, a checkpoint), memory runs short, or one rank is slow: run each node alone, then pairs, and watch nvidia-smi for clocks held down and ECC errors.",
				l.Size, b, best, at)}}
		}
		if b > best {
			best, at = b, l.Size
		}
	}
	return nil
}

// stagedPath says what the topology file says of GPUDirect RDMA, when a GPU
// is further from its NIC than PXB: NCCL then stages the data through host
// memory by default (NCCL_NET_GDR_LEVEL), which fabriclab does not model.
func stagedPath(s Shape) []Cause {
	n := s.Node
	if n == nil || n.Path.GDR() || s.Hosts < 2 {
		return nil
	}
	return []Cause{{Kind: "gdr", Text: fmt.Sprintf("The topology file puts GPU %d %s from its NIC %s (across the CPU): NCCL uses GPUDirect RDMA only up to PXB by default (NCCL_NET_GDR_LEVEL), so across nodes that GPU's data is staged through host memory. "+
		"The expected figures assume GPUDirect RDMA (fabriclab does not model the staging, whose cost depends on the host's memory and PCIe): a shortfall across nodes may be this. Seat each NIC under its GPUs' PCIe switch (PIX or PXB).",
		n.PathGPU, n.Path, n.NICs[n.NICOf[n.PathGPU]])}}
}

// busbwNote answers "why is busbw above my link rate?" when it is.
func busbwNote(s Shape, lines []Line) []Cause {
	nic := s.NICGbps / 8
	ownNIC := "Each GPU has its own NIC"
	if s.NICs() < s.GPUsPerHost {
		ownNIC = fmt.Sprintf("Each node has %d NICs", s.NICs())
	}
	factor, inside := "(n−1)/n for "+s.Op, "NVLink carries the part of the data that stays inside the node"
	switch s.Op {
	case coll.AllReduce:
		factor, inside = "2(n−1)/n for all-reduce", "NVLink and in-switch reduction (NVLS, SHARP) carry part of the sum inside the node"
	case coll.AllGather:
		factor = "(n−1)/n for all-gather"
	case coll.ReduceScatter:
		factor = "(n−1)/n for reduce-scatter"
	case coll.AllToAll:
		factor = "(n−1)/n for all-to-all"
	case coll.Broadcast:
		factor = "1 for broadcast"
	}
	for _, l := range lines {
		if s.Hosts > 1 && l.Measured.BusBw > 1.05*nic {
			return []Cause{{Kind: "busbw", From: l.Size, To: l.Size, Text: fmt.Sprintf(
				"busbw (%.0f GB/s at %s) is above one NIC's %.0f GB/s, and that is normal: busbw is algbw times nccl-tests' factor (%s), the rate each rank's busiest link would need in a ring. "+
					"%s, and %s, so busbw can exceed a NIC's rate.",
				l.Measured.BusBw, l.Size, nic, factor, ownNIC, inside)}}
		}
	}
	return nil
}

// NCCLAlgo is fabriclab's algorithm in NCCL's name (in-network reduction
// is NVLS on a node's NVSwitch, CollNet with SHARP on a switch of hosts).
func NCCLAlgo(algo string, hosts bool) string {
	switch algo {
	case coll.InNetwork:
		if hosts {
			return "COLLNET_DIRECT"
		}
		return "NVLS"
	case coll.NVLSTree:
		return "NVLS_TREE"
	}
	return strings.ToUpper(algo)
}

func orSimple(p string) string {
	if p == "" {
		return "simple"
	}
	return p
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
