package nccltests

import (
	"fmt"
	"strconv"
	"strings"

	"fabriclab/sim/coll"
	"fabriclab/sim/nodefile"
)

// Shape is the cluster an output ran on, as far as the output says, and
// what the comparison assumes where it does not.
type Shape struct {
	Op          string // fabriclab's collective: allreduce, allgather, …
	OpAssumed   bool   // the output does not name its program: Op is read from its columns
	Hosts       int
	GPUsPerHost int
	GPU         string // fabriclab's topology.gpu (h100, a100, …); "" for other GPUs
	GPUName     string // as nccl-tests printed it
	Fabric      string // ib or roce
	NICGbps     float64
	NICFrom     string // where NICGbps comes from: "flag", "NCCL's topology" or "default"
	Algo        string // NCCL_ALGO when NCCL's INFO lines say it was set, else ""
	// Node is the node a topology file describes (explain --topo), nil
	// without one; NICsPerHost is its NICs that serve GPUs (0: one per
	// GPU), and NICGbps each one's rate.
	Node        *nodefile.Node
	NICsPerHost int
}

// NICs is the number of NICs per host: one per GPU unless a topology file
// says otherwise.
func (s Shape) NICs() int {
	if s.NICsPerHost > 0 {
		return s.NICsPerHost
	}
	return s.GPUsPerHost
}

// UseNode takes the node a topology file describes: its NICs (and which
// GPUs share one), their speed unless nicGbps (the flag's) is set, and its
// GPU where the output does not name one fabriclab knows. The file and the
// output must agree on the GPUs per host and on the GPU.
func (s *Shape) UseNode(n *nodefile.Node, nicGbps float64) error {
	if s.GPUsPerHost != n.GPUs {
		return fmt.Errorf("the output has %d GPUs per host and the topology file %d: give the topology of the nodes the test ran on", s.GPUsPerHost, n.GPUs)
	}
	switch {
	case s.GPU == "":
		s.GPU = n.GPU
	case !n.Admits(s.GPU):
		return fmt.Errorf("the output's GPUs are %s and the topology file's %s (%s): give the topology of the nodes the test ran on", s.GPUName, strings.ToUpper(n.GPU), n.GPUFrom)
	}
	s.Node, s.NICsPerHost = n, n.NICsPerNode()
	if n.NICGbps > 0 && nicGbps == 0 {
		s.NICGbps, s.NICFrom = n.NICGbps, "topology file"
	}
	return nil
}

// NICRate is NICGbps as the reports write it: "400", "12.5".
func (s Shape) NICRate() string { return strings.TrimSuffix(fmt.Sprintf("%.1f", s.NICGbps), ".0") }

// Ranks is the number of ranks.
func (s Shape) Ranks() int { return s.Hosts * s.GPUsPerHost }

var (
	netSpeedRe = lazy(`NET\[([0-9.]+)\]`)
	algoEnvRe  = lazy(`NCCL_ALGO set by environment to (\S+)`)
)

// ops maps an nccl-tests program to fabriclab's collective.
var ops = map[string]string{
	"all_reduce": coll.AllReduce, "all_gather": coll.AllGather, "reduce_scatter": coll.ReduceScatter,
	"alltoall": coll.AllToAll, "broadcast": coll.Broadcast,
}

// ShapeOf reads the cluster from the output: its devices (hosts, GPUs per
// host, the GPU), its program and NCCL's INFO lines where present. nicGbps
// and fabric, when not zero or "", are the user's and win.
func ShapeOf(o *Output, op string, nicGbps float64, fabric string) (Shape, error) {
	s := Shape{Fabric: "ib", NICGbps: 400, NICFrom: "default"}
	perHost, line := map[string]int{}, map[string]int{}
	var order []string
	for _, d := range o.Devices {
		if perHost[d.Host] == 0 {
			order, line[d.Host] = append(order, d.Host), d.Line
		}
		perHost[d.Host]++
	}
	s.Hosts, s.GPUsPerHost = len(order), perHost[order[0]]
	for _, h := range order {
		if perHost[h] != s.GPUsPerHost {
			return s, fmt.Errorf("line %d: host %s has %d ranks and %s has %d: explain models hosts of equal size; pass an output of whole nodes", line[h], h, perHost[h], order[0], s.GPUsPerHost)
		}
	}
	if s.Ranks() < 2 {
		return s, fmt.Errorf("line %d: one rank: a collective on one GPU moves nothing over a link; run the test on 2 or more GPUs", o.Devices[0].Line)
	}
	s.GPUName = o.Devices[0].Name
	s.GPU = nodefile.GPUOfName(s.GPUName)
	var err error
	if s.Op, s.OpAssumed, err = opOf(o, op); err != nil {
		return s, err
	}
	for _, line := range o.Info {
		if m := netSpeedRe().FindStringSubmatch(line); m != nil && s.NICFrom == "default" {
			if gbs, e := strconv.ParseFloat(m[1], 64); e == nil && gbs > 0 {
				s.NICGbps, s.NICFrom = gbs*8, "NCCL's topology"
			}
		}
		if strings.Contains(line, "/RoCE") {
			s.Fabric = "roce"
		}
		if m := algoEnvRe().FindStringSubmatch(line); m != nil {
			s.Algo = strings.ToLower(m[1])
		}
	}
	if s.GPU == "a100" && s.NICFrom == "default" {
		s.NICGbps = 200 // HDR, a DGX A100's and most A100 clusters' NICs
	}
	if nicGbps > 0 {
		s.NICGbps, s.NICFrom = nicGbps, "flag"
	}
	if fabric != "" {
		s.Fabric = fabric
	}
	return s, nil
}

// opOf is the collective: the flag's, the program's, else read from the
// first row (redop none and no root: all-gather, which all-to-all shares).
func opOf(o *Output, flag string) (string, bool, error) {
	if flag != "" {
		for _, v := range ops {
			if v == flag {
				return v, false, nil
			}
		}
		return "", false, fmt.Errorf("--op %q: want allreduce, allgather, reducescatter, alltoall or broadcast", flag)
	}
	if o.Test != "" {
		if v, ok := ops[o.Test]; ok {
			return v, false, nil
		}
		return "", false, fmt.Errorf("%s_perf: explain reads all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf and broadcast_perf", o.Test)
	}
	r := o.Rows[0]
	switch {
	case r.Redop != "none" && r.Count*4 < r.Size && r.Root < 0:
		return coll.ReduceScatter, true, nil
	case r.Redop != "none" && r.Root < 0:
		return coll.AllReduce, true, nil
	case r.Redop == "none" && r.Root >= 0:
		return coll.Broadcast, true, nil
	case r.Redop == "none":
		return coll.AllGather, true, nil
	}
	return "", false, fmt.Errorf("line %d: a row with redop %s and root %d: pass --op (reduce_perf is not modelled)", r.Line, r.Redop, r.Root)
}

// YAML is the scenario of a healthy cluster of this shape running the
// collective of bytes with NCCL's own choice of algorithm and protocol
// (algo, when not "", instead), at the flow level.
func (s Shape) YAML(algo string) string {
	if algo == "" {
		algo = "auto"
	}
	var b strings.Builder
	b.WriteString("name: explain\ntopology:\n")
	switch {
	case s.GPUsPerHost > 1:
		fmt.Fprintf(&b, "  kind: dgx\n  nodes: %d\n  gpus_per_node: %d\n", s.Hosts, s.GPUsPerHost)
		if s.NICsPerHost > 0 {
			fmt.Fprintf(&b, "  nics_per_node: %d\n", s.NICsPerHost)
		}
		if s.GPU != "" {
			fmt.Fprintf(&b, "  gpu: %s\n", s.GPU)
		}
	default:
		fmt.Fprintf(&b, "  kind: star\n  hosts: %d\n", s.Hosts)
	}
	fmt.Fprintf(&b, "  fabric: %s\n  link_gbps: %s\n", s.Fabric, strconv.FormatFloat(s.NICGbps, 'f', -1, 64))
	fmt.Fprintf(&b, "collective:\n  op: %s\n  algo: %s\n  bytes: 1GiB\nsim:\n  fidelity: flow\n", s.Op, algo)
	return b.String()
}
