package main

import (
	"fmt"
	"io"
	"os"

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
	opt := nccltests.Options{Op: *op, NICGbps: *nic, Fabric: *fabric}
	if err := opt.Check(); err != nil {
		return err
	}
	data, err := readOutput(name)
	if err != nil {
		return err
	}
	o, s, err := nccltests.Read(data, opt)
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
	for i, h := range rep.Header(o) {
		if i == 0 {
			h = "fabriclab explain " + name + ": " + h
		}
		fmt.Fprintf(w, "# %s\n", h)
	}
	fmt.Fprintf(w, "#\n")
	fmt.Fprintf(w, "# %12s  %20s  %27s  %s\n", "size", "time (us)", "busbw (GB/s)", "NCCL would pick")
	fmt.Fprintf(w, "# %12s  %9s %10s  %9s %9s %7s\n", "(B)", "measured", "expected", "measured", "expected", "ratio")
	for _, l := range rep.Lines {
		ratio := "-"
		if l.Ratio > 0 {
			ratio = fmt.Sprintf("%.2f", l.Ratio)
		}
		fmt.Fprintf(w, "  %12d  %9s %10s  %9s %9s %7s  %s\n", int64(l.Size), ncclFloat(l.Measured.TimeUs, 9), ncclFloat(l.Expected.TimeUs, 10),
			ncclFloat(l.Measured.BusBw, 9), ncclFloat(l.Expected.BusBw, 9), ratio, rep.Pick(l))
	}
	fmt.Fprintf(w, "#\nWhat the comparison says:\n")
	for _, c := range rep.Causes {
		fmt.Fprintf(w, "- %s\n", c.Text)
	}
}
