package nccltests

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"fabriclab/sim/nodefile"
	"fabriclab/sim/unit"
)

// Options are what the user says of the cluster where the output does not:
// fabriclab explain's flags, the explain page's fields. The zero value
// takes everything from the output.
type Options struct {
	Op      string  // the collective when the output does not name its program ("": read it)
	NICGbps float64 // each GPU's network rate (0: NCCL's topology lines, else the default)
	Fabric  string  // ib or roce ("": roce if NCCL's lines name it, else ib)
}

// Check refuses options out of range, naming the flag.
func (opt Options) Check() error {
	if opt.NICGbps < 0 || opt.NICGbps > 100000 || math.IsNaN(opt.NICGbps) {
		return fmt.Errorf("--nic-gbps %g: want a rate from 1 to 100000 Gb/s", opt.NICGbps)
	}
	if opt.Fabric != "" && opt.Fabric != "ib" && opt.Fabric != "roce" {
		return fmt.Errorf("--fabric %q: want ib or roce", opt.Fabric)
	}
	return nil
}

// Read parses an output and works out the cluster it ran on; its errors
// name the line.
func Read(data []byte, opt Options) (*Output, Shape, error) {
	if err := opt.Check(); err != nil {
		return nil, Shape{}, err
	}
	o, err := Parse(bytes.NewReader(data))
	if err != nil {
		return nil, Shape{}, err
	}
	s, err := ShapeOf(o, opt.Op, opt.NICGbps, opt.Fabric)
	if err != nil {
		return nil, Shape{}, err
	}
	return o, s, nil
}

// Header is what the comparison assumed, a line each: the program and the
// ranks, the node a topology file described (when one did), what the
// expected column is the figure of, and whether the output looks cut short.
func (r Report) Header(o *Output) []string {
	s := r.Shape
	prog := o.Test + "_perf"
	if o.Test == "" {
		prog = Program(s.Op) + "_perf"
		if s.OpAssumed {
			prog += " (read from the columns: pass --op if it was another test)"
		}
	}
	lines := []string{fmt.Sprintf("%s, %d ranks on %d host(s) × %d %s", prog, s.Ranks(), s.Hosts, s.GPUsPerHost, s.GPUName)}
	if n := s.Node; n != nil {
		lines = append(lines, "node: "+nodeText(n))
	}
	lines = append(lines, "expected: "+assumed(s))
	if o.AvgBusBw == 0 {
		lines = append(lines, `the output has no "# Avg bus bandwidth" line: it may be cut short (the comparison covers the rows it has)`)
	}
	return lines
}

// Pick is what NCCL would pick at l's size, in NCCL's words: NVLS_TREE/SIMPLE.
func (r Report) Pick(l Line) string {
	pick := NCCLAlgo(l.Expected.Algo, r.Shape.GPUsPerHost == 1)
	if l.Expected.Proto != "" {
		pick += "/" + strings.ToUpper(l.Expected.Proto)
	}
	return pick
}

// Parting is the size where measured and expected busbw part the most (the
// ratio furthest from 1, either way), and true; when every size is within
// the healthy band (ok), the largest, where bandwidth decides, and false.
// 0 when no size has both.
func (r Report) Parting() (unit.Bytes, bool) {
	var at, last unit.Bytes
	worst := 0.0
	for _, l := range r.Lines {
		if l.Ratio <= 0 {
			continue
		}
		last = l.Size
		if d := math.Abs(math.Log(l.Ratio)); d > worst {
			at, worst = l.Size, d
		}
	}
	if worst <= -math.Log(ok) {
		return last, false
	}
	return at, true
}

// Program is the nccl-tests program that runs op, less its _perf.
func Program(op string) string {
	for prog, v := range ops {
		if v == op {
			return prog
		}
	}
	return "all_reduce"
}

// assumed says what the expected column is the figure of.
func assumed(s Shape) string {
	gpu := strings.ToUpper(s.GPU)
	if gpu == "" {
		gpu = "H100 (the GPU is not one fabriclab knows)"
	}
	var node string
	switch {
	case s.GPUsPerHost > 1 && s.NICs() < s.GPUsPerHost:
		node = fmt.Sprintf("%d node(s) of %d %s on an NVSwitch, %d NICs per node each shared by %d GPUs", s.Hosts, s.GPUsPerHost, gpu, s.NICs(), s.GPUsPerHost/s.NICs())
	case s.GPUsPerHost > 1:
		node = fmt.Sprintf("%d node(s) of %d %s on an NVSwitch, a NIC per GPU", s.Hosts, s.GPUsPerHost, gpu)
	default:
		node = fmt.Sprintf("%d hosts of one GPU on one switch (the GPU's PCIe path is not modelled)", s.Hosts)
	}
	fab := map[string]string{"ib": "InfiniBand", "roce": "RoCE"}[s.Fabric]
	from := map[string]string{"default": "the default: pass --nic-gbps", "flag": "--nic-gbps", "NCCL's topology": "from NCCL's topology lines", "topology file": "from the topology file"}[s.NICFrom]
	if s.Hosts == 1 {
		return fmt.Sprintf("a healthy %s, NCCL's own algorithm and protocol per size", node)
	}
	per := "per GPU"
	if s.Node != nil {
		per = "per NIC"
	}
	return fmt.Sprintf("a healthy cluster of %s, %s at %s Gb/s %s (%s), NCCL's own algorithm and protocol per size",
		node, fab, s.NICRate(), per, from)
}

// nodeText says what a topology file describes, and what fabriclab made of it.
func nodeText(n *nodefile.Node) string {
	gpu := strings.ToUpper(n.GPU)
	if n.GPUGuess {
		gpu += " (or another GPU of its NVLink: the file does not say)"
	}
	speed := "speed not given"
	if n.NICGbps > 0 {
		speed = strconv.FormatFloat(n.NICGbps, 'f', -1, 64) + " Gb/s"
	}
	share := "a NIC per GPU"
	if n.NICsPerNode() < n.GPUs {
		share = fmt.Sprintf("each shared by %d GPUs", n.GPUs/n.NICsPerNode())
	}
	gdr := "GPUDirect RDMA"
	if !n.Path.GDR() {
		gdr = "no GPUDirect RDMA by default: staged through host memory"
	}
	from := n.GPUFrom
	if nv := "NV" + strconv.Itoa(n.NVLinks); from != nv {
		from += ", " + nv
	}
	text := fmt.Sprintf("%s: %d × %s from %s; %d NICs (%s, %s), %s; GPU to NIC up to %s (%s)",
		n.Format, n.GPUs, gpu, from, n.NICsPerNode(), strings.Join(n.NICs, ", "), speed, share, n.Path, gdr)
	if len(n.Unused) > 0 {
		text += fmt.Sprintf("; %s nearest no GPU, left out", strings.Join(n.Unused, ", "))
	}
	if full := nodefile.NVLinkFull(n.GPU); n.NVLinks != full {
		text += fmt.Sprintf("; NV%d where the model's %s has %d NVLinks: the expected NVLink figures are its", n.NVLinks, strings.ToUpper(n.GPU), full)
	}
	return text
}
