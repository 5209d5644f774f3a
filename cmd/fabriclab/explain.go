package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"fabriclab/sim/nccltests"
	"fabriclab/sim/scenario"
)

// cmdExplain reads an nccl-tests output and prints it beside what a healthy
// cluster of the same shape gives, size by size, and where and why the two
// part.
func cmdExplain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", "fabriclab explain FILE|- [--nic-gbps 400] [--fabric ib|roce] [--op OP]", stderr)
	nic := fs.Float64("nic-gbps", 0, "each GPU's network rate in Gb/s, all its NICs together (default: NCCL's topology lines if the output has them, else 400)")
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
	if s.GPUsPerHost > 1 {
		node = fmt.Sprintf("%d node(s) of %d %s on an NVSwitch, a NIC per GPU", s.Hosts, s.GPUsPerHost, gpu)
	} else {
		node = fmt.Sprintf("%d hosts of one GPU on one switch (the GPU's PCIe path is not modelled)", s.Hosts)
	}
	fab := map[string]string{"ib": "InfiniBand", "roce": "RoCE"}[s.Fabric]
	from := map[string]string{"default": "the default: pass --nic-gbps", "flag": "--nic-gbps", "NCCL's topology": "from NCCL's topology lines"}[s.NICFrom]
	if s.Hosts == 1 {
		return fmt.Sprintf("a healthy %s, NCCL's own algorithm and protocol per size", node)
	}
	return fmt.Sprintf("a healthy cluster of %s, %s at %s Gb/s per GPU (%s), NCCL's own algorithm and protocol per size",
		node, fab, s.NICRate(), from)
}
