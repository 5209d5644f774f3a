package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"fabriclab/sim/nccltests"
	"fabriclab/sim/nodefile"
	"fabriclab/sim/scenario"
)

// cmdExplain reads an nccl-tests output and prints it beside what a healthy
// cluster of the same shape gives, size by size, and where and why the two
// part.
func cmdExplain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", "fabriclab explain FILE|- [--topo NODEFILE] [--nic-gbps 400] [--fabric ib|roce] [--op OP]", stderr)
	nic := fs.Float64("nic-gbps", 0, "each GPU's network rate in Gb/s, all its NICs together; with --topo each NIC's (default: the topology file's, else NCCL's topology lines if the output has them, else 400)")
	topoFile := fs.String("topo", "", "the nodes' topology: NCCL's dump (NCCL_TOPO_DUMP_FILE) or nvidia-smi topo -m's output; sets the GPU, the NICs and which GPUs share one, and their speed")
	fabric := fs.String("fabric", "", "ib or roce (default: roce if NCCL's lines name RoCE, else ib)")
	op := fs.String("op", "", "the collective when the output does not name its program: allreduce, allgather, reducescatter, alltoall, broadcast")
	name, err := parseWithName(fs, args)
	if err != nil {
		return err
	}
	if *nic < 0 || *nic > 100000 {
		return fmt.Errorf("--nic-gbps %g: want a rate from 1 to 100000 Gb/s", *nic)
	}
	if *fabric != "" && *fabric != "ib" && *fabric != "roce" {
		return fmt.Errorf("--fabric %q: want ib or roce", *fabric)
	}
	data, err := readOutput(name)
	if err != nil {
		return err
	}
	o, err := nccltests.Parse(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	s, err := nccltests.ShapeOf(o, *op, *nic, *fabric)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *topoFile != "" {
		data, err := scenario.ReadUserFile(*topoFile, nodefile.MaxBytes)
		if err != nil {
			return fmt.Errorf("--topo: %w", err)
		}
		n, err := nodefile.Parse(data)
		if err != nil {
			return fmt.Errorf("--topo %s: %w", *topoFile, err)
		}
		if err := s.UseNode(n, *nic); err != nil {
			return fmt.Errorf("--topo %s: %w", *topoFile, err)
		}
	}
	rep, err := nccltests.Compare(o, s)
	if err != nil {
		return err
	}
	printExplain(stdout, name, o, rep)
	return nil
}

// readOutput reads the file, or standard input for "-", at most the size
// of a scenario file (8 MiB: far more than any nccl-tests output).
func readOutput(name string) ([]byte, error) {
	if name == "-" {
		return scenario.ReadLimited(os.Stdin, "standard input")
	}
	return scenario.ReadUserFile(name, scenario.MaxSourceBytes)
}

// printExplain prints the comparison: a header that says what was assumed,
// a row per size, then the findings.
func printExplain(w io.Writer, name string, o *nccltests.Output, rep nccltests.Report) {
	s := rep.Shape
	prog := o.Test + "_perf"
	if o.Test == "" {
		prog = ncclTestName(s.Op) + "_perf"
		if s.OpAssumed {
			prog += " (read from the columns: pass --op if it was another test)"
		}
	}
	fmt.Fprintf(w, "# fabriclab explain %s: %s, %d ranks on %d host(s) × %d %s\n", name, prog, s.Ranks(), s.Hosts, s.GPUsPerHost, s.GPUName)
	if n := s.Node; n != nil {
		fmt.Fprintf(w, "# node: %s\n", nodeText(n))
	}
	fmt.Fprintf(w, "# expected: %s\n", assumed(s))
	if o.AvgBusBw == 0 {
		fmt.Fprintf(w, "# the output has no \"# Avg bus bandwidth\" line: it may be cut short (the comparison covers the rows it has)\n")
	}
	fmt.Fprintf(w, "#\n")
	fmt.Fprintf(w, "# %12s  %20s  %27s  %s\n", "size", "time (us)", "busbw (GB/s)", "NCCL would pick")
	fmt.Fprintf(w, "# %12s  %9s %10s  %9s %9s %7s\n", "(B)", "measured", "expected", "measured", "expected", "ratio")
	for _, l := range rep.Lines {
		ratio := "-"
		if l.Ratio > 0 {
			ratio = fmt.Sprintf("%.2f", l.Ratio)
		}
		pick := nccltests.NCCLAlgo(l.Expected.Algo, s.GPUsPerHost == 1)
		if l.Expected.Proto != "" {
			pick += "/" + strings.ToUpper(l.Expected.Proto)
		}
		fmt.Fprintf(w, "  %12d  %9s %10s  %9s %9s %7s  %s\n", int64(l.Size), ncclFloat(l.Measured.TimeUs, 9), ncclFloat(l.Expected.TimeUs, 10),
			ncclFloat(l.Measured.BusBw, 9), ncclFloat(l.Expected.BusBw, 9), ratio, pick)
	}
	fmt.Fprintf(w, "#\nWhat the comparison says:\n")
	for _, c := range rep.Causes {
		fmt.Fprintf(w, "- %s\n", c.Text)
	}
}

// assumed says what the expected column is the figure of.
func assumed(s nccltests.Shape) string {
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
