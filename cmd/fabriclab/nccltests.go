package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"fabriclab/sim/coll"
	"fabriclab/sim/nccltests"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// maxNCCLTestsSizes bounds the sizes of one nccl-tests run.
const maxNCCLTestsSizes = 64

// parseNCCLSize reads a size as nccl-tests' -b and -e take it: a whole number
// of bytes with an optional K, M or G (powers of 1024), or any fabriclab size
// (1GiB, 64MB).
func parseNCCLSize(flagName, s string) (unit.Bytes, error) {
	mult := int64(1)
	num := s
	switch {
	case strings.HasSuffix(s, "K"), strings.HasSuffix(s, "k"):
		mult, num = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"), strings.HasSuffix(s, "m"):
		mult, num = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"), strings.HasSuffix(s, "g"):
		mult, num = 1<<30, s[:len(s)-1]
	}
	if v, err := strconv.ParseInt(num, 10, 64); err == nil && v >= 1 && v <= int64(scenario.MaxFlowBytes)/mult {
		return unit.Bytes(v * mult), nil
	}
	if b, err := unit.ParseBytes(s); err == nil && b >= 1 && b <= scenario.MaxFlowBytes {
		return b, nil
	}
	return 0, fmt.Errorf("-%s %q: want a size from 1 byte to 1 TiB, e.g. 8, 64K, 8G or 1GiB", flagName, s)
}

// ncclSizes lists the sizes from min to max, each factor times the one
// before (or, with factor 1, increment more).
func ncclSizes(minB, maxB unit.Bytes, factor int, increment unit.Bytes) ([]unit.Bytes, error) {
	if minB > maxB {
		return nil, fmt.Errorf("-b %s is above -e %s", minB, maxB)
	}
	if factor < 1 || factor == 1 && increment < 1 {
		return nil, fmt.Errorf("-f %d: use a factor of 2 or more (e.g. -f 2), or -f 1 with -i BYTES", factor)
	}
	var sizes []unit.Bytes
	for s := minB; s <= maxB; {
		sizes = append(sizes, s)
		if len(sizes) > maxNCCLTestsSizes {
			return nil, fmt.Errorf("-b %s -e %s makes more than %d sizes: use a larger -f or -i", minB, maxB, maxNCCLTestsSizes)
		}
		if factor > 1 {
			if s > maxB/unit.Bytes(factor) {
				break
			}
			s *= unit.Bytes(factor)
		} else {
			s += increment
		}
	}
	return sizes, nil
}

// cmdNCCLTests runs a scenario's collective over message sizes and prints
// the table nccl-tests' all_reduce_perf (and its siblings) print: the layout
// of nccl-tests' src/util.cu (writeBenchmarkLinePreamble,
// writeBenchmarkLineBody, the header and footer). The model has no in-place
// difference, so both halves of a row agree; #wrong is 0 (no data moves).
func cmdNCCLTests(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("nccl-tests", "fabriclab nccl-tests FILE|NAME [-b 8] [-e 8G] [-f 2] [--op allreduce] [--algo ring] [--set key.path=value]...", stderr)
	var sets setFlags
	fs.Var(&sets, "set", "override a scenario key, e.g. --set topology.nodes=4 (repeatable)")
	minS := fs.String("b", "8", "minimum size in bytes (K, M, G: powers of 1024)")
	maxS := fs.String("e", "8G", "maximum size in bytes")
	factor := fs.Int("f", 2, "multiply the size by this each step")
	incS := fs.String("i", "0", "with -f 1: add this many bytes each step")
	op := fs.String("op", "", "the collective: allreduce, reducescatter, allgather, broadcast, alltoall (default: the scenario's, else allreduce)")
	algo := fs.String("algo", "", "the algorithm (default: the scenario's, else ring)")
	name, err := parseWithName(fs, args)
	if err != nil {
		return err
	}
	minB, err := parseNCCLSize("b", *minS)
	if err != nil {
		return err
	}
	maxB, err := parseNCCLSize("e", *maxS)
	if err != nil {
		return err
	}
	var inc unit.Bytes
	if *incS != "0" {
		if inc, err = parseNCCLSize("i", *incS); err != nil {
			return err
		}
	}
	sizes, err := ncclSizes(minB, maxB, *factor, inc)
	if err != nil {
		return err
	}
	read := readOnce() // the file is read once, for every size
	base, err := plan.Load(name, read, sets)
	if err != nil {
		return err
	}
	opName, algoName := ncclCollective(&base, *op, *algo)
	sets = append(sets, "collective.op="+opName, "collective.algo="+algoName)
	if base.Traffic.Pattern != scenario.PatternNone && base.Collective.Op == "" {
		sets = append(sets, "traffic=") // the collective runs alone: its traffic keys would be ignored, an error
	}
	rows, ranks, err := nccltests.Run(name, read, sets, sizes)
	if err != nil {
		return err
	}
	for i := range rows {
		if rows[i].Channels <= 1 { // a streamed run counts its lanes, one for a plain schedule
			rows[i].Channels = max(base.Collective.Channels, 1)
		}
	}
	fmt.Fprintf(stdout, "# fabriclab nccl-tests: %s, %s/%s on %d ranks (flow control %s, routing %s, sim.fidelity %s)\n",
		base.Name, opName, algoName, ranks, base.Network.FlowControl, base.Network.Routing, fidelity(&base))
	fmt.Fprintf(stdout, "# Collective test starting: %s_perf\n", nccltests.Program(opName))
	gpn := base.NodeGPUs()
	nGpus := 1 // one process per GPU across nodes, as under mpirun
	if gpn > 1 && ranks <= gpn {
		nGpus = ranks // one process drives a node's GPUs
	}
	fmt.Fprintf(stdout, "# nThread 1 nGpus %d minBytes %d maxBytes %d step: %s warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n",
		nGpus, minB, maxB, stepText(*factor, inc))
	printNCCLDevices(stdout, ranks, gpn, nGpus, base.Topology.NVLink)
	host := "h0" // rank 0's, as NCCL prints it
	if gpn > 1 {
		host = "n0"
	}
	printNCCLTable(stdout, opName, base.Collective.Root, ranks, host, rows)
	fmt.Fprintf(stdout, "# Collective test concluded: %s_perf\n#\n", nccltests.Program(opName))
	return nil
}

// ncclBusIDs are the PCI bus numbers of an HGX H100 board's eight GPUs, as
// nccl-tests prints them (../shared/nccl-outputs/01).
var ncclBusIDs = [8]int{0x29, 0x2f, 0x35, 0x3b, 0x43, 0x49, 0x4f, 0x55}

// printNCCLDevices prints nccl-tests' "# Using devices" list: a line per
// rank with its process, host (the node: n0, n1, … or the host h0, h1, …),
// local device and GPU. One process drives a node's GPUs when they are all
// the ranks (nGpus > 1), else each rank is its own process.
func printNCCLDevices(stdout io.Writer, ranks, gpn, nGpus, nvlink int) {
	fmt.Fprintf(stdout, "#\n# Using devices\n")
	gpu := "NVIDIA H100 80GB HBM3"
	if nvlink == 3 {
		gpu = "NVIDIA A100-SXM4-80GB"
	}
	for r := range ranks {
		host, dev := fmt.Sprintf("h%d", r), 0
		if gpn > 1 {
			host, dev = fmt.Sprintf("n%d", r/gpn), r%gpn
		}
		pid := 1000 + r
		if nGpus > 1 {
			pid = 1000
		}
		fmt.Fprintf(stdout, "#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%02x:00] %s\n", r, pid, host, dev, ncclBusIDs[dev%8]+dev/8, gpu)
	}
}

// ncclTuningLine is the line NCCL prints for a collective with
// NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING (enqueue.cc:822–824): its
// algorithm and protocol in NCCL's names (collectives.cc:95–126), the
// bytes of one rank's count (a share for all-gather and reduce-scatter).
// NCCL prints none for all-to-all, which is point-to-point.
func ncclTuningLine(host, op string, ranks int, r nccltests.Expected) string {
	name := map[string]string{coll.AllReduce: "AllReduce", coll.AllGather: "AllGather", coll.ReduceScatter: "ReduceScatter", coll.Broadcast: "Broadcast"}[op]
	if name == "" {
		return ""
	}
	bytes := int64(r.Size)
	if op == coll.AllGather || op == coll.ReduceScatter {
		bytes /= int64(max(ranks, 1))
	}
	algo := map[string]string{coll.InNetwork: "NVLS", coll.NVLSTree: "NVLS_TREE"}[r.Algo]
	if r.Algo == coll.InNetwork && host != "n0" {
		algo = "COLLNET_DIRECT" // SHARP on a switch of hosts, as NCCL's CollNet plugin runs it
	}
	if algo == "" {
		algo = strings.ToUpper(r.Algo)
	}
	proto := strings.ToUpper(r.Proto)
	if proto == "" {
		proto = "SIMPLE"
	}
	return fmt.Sprintf("%s:1000:1000 [0] NCCL INFO %s: %d Bytes -> Algo %s proto %s channel{Lo..Hi}={0..%d}\n", host, name, bytes, algo, proto, max(r.Channels-1, 0))
}

// ncclCollective is the collective and algorithm to run: the flags', else
// the scenario's, else allreduce and ring.
func ncclCollective(base *scenario.Scenario, op, algo string) (string, string) {
	if op == "" {
		op = base.Collective.Op
	}
	if op == "" {
		op = coll.AllReduce
	}
	if algo == "" {
		algo = base.Collective.Algo
	}
	if algo == "" {
		algo = coll.Ring
	}
	return op, algo
}

// printNCCLTable prints the table as nccl-tests does, below the header
// lines: the column heads, a row per size (out of place and in place alike)
// after the line NCCL's TUNING debug output gives its algorithm and
// protocol, and the average bus bandwidth.
func printNCCLTable(stdout io.Writer, op string, bcastRoot, ranks int, host string, rows []nccltests.Expected) {
	fmt.Fprintf(stdout, "#\n")
	fmt.Fprintf(stdout, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          \n", "", "", "", "", "")
	fmt.Fprintf(stdout, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "size", "count", "type", "redop", "root",
		"time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong")
	fmt.Fprintf(stdout, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s \n", "(B)", "(elements)", "", "", "",
		"(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "")
	redop, root := "sum", -1
	switch op {
	case coll.AllGather, coll.AllToAll:
		redop = "none"
	case coll.Broadcast:
		redop, root = "none", bcastRoot
	}
	var sum float64
	for _, r := range rows {
		fmt.Fprint(stdout, ncclTuningLine(host, op, ranks, r))
		count := int64(r.Size) / 4 // float
		if op == coll.AllGather || op == coll.ReduceScatter || op == coll.AllToAll {
			count /= int64(max(ranks, 1)) // nccl-tests counts one rank's share
		}
		fmt.Fprintf(stdout, "%12d  %12d  %8s  %6s  %6d", r.Size, count, "float", redop, root)
		for range 2 {
			fmt.Fprintf(stdout, "  %7s  %6s  %6s  %6d", ncclFloat(r.TimeUs, 7), ncclFloat(r.AlgBw, 6), ncclFloat(r.BusBw, 6), 0)
		}
		fmt.Fprintln(stdout)
		sum += r.BusBw
	}
	fmt.Fprintf(stdout, "# %-20s : %d %s\n", "Out of bounds values", 0, "OK")
	fmt.Fprintf(stdout, "# %-20s : %s \n", "Avg bus bandwidth", strconv.FormatFloat(sum/float64(len(rows)), 'g', 6, 64))
	fmt.Fprintf(stdout, "#\n")
}

// ncclFloat writes v in width characters as nccl-tests does (getFloatStr):
// two decimals, or fewer when the number is too wide.
func ncclFloat(v float64, width int) string {
	for _, f := range []string{"%*.2f", "%*.1f", "%*.0f"} {
		if s := fmt.Sprintf(f, width, v); len(s) <= width {
			return s
		}
	}
	if width >= 7 {
		return fmt.Sprintf("%*.1e", width, v)
	}
	return fmt.Sprintf("%*.0e", width, v)
}

func stepText(factor int, inc unit.Bytes) string {
	if factor > 1 {
		return fmt.Sprintf("%d(factor)", factor)
	}
	return fmt.Sprintf("%d(bytes)", inc)
}

func fidelity(sc *scenario.Scenario) string {
	if sc.Sim.Fidelity == "" {
		return scenario.Packet
	}
	return sc.Sim.Fidelity
}
