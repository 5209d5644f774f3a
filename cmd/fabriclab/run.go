package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// setFlags collects repeated --set key.path=value flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ",") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "fabriclab run FILE|NAME [--set key.path=value]... [--seed N] [--json]", stderr)
	var sets setFlags
	fs.Var(&sets, "set", "override a scenario key, e.g. --set network.routing=spray (repeatable)")
	seed := fs.String("seed", "", "random seed (same as --set seed=N)")
	asJSON := fs.Bool("json", false, "print the full result as JSON")
	series := fs.Bool("series", true, "include time series in the JSON")
	name, err := parseWithName(fs, args)
	if err != nil {
		return err
	}
	if *seed != "" {
		if _, err := strconv.ParseUint(*seed, 10, 64); err != nil {
			return fmt.Errorf("--seed %q: want a whole number ≥ 0, e.g. --seed 7", *seed)
		}
		sets = append(sets, "seed="+*seed)
	}
	sc, err := plan.Load(name, scenario.ReadFile, sets)
	if err != nil {
		return err
	}
	res, err := sim.Run(sc)
	if err != nil {
		return err
	}
	if *asJSON {
		if !*series {
			res.Series = nil
		}
		return res.WriteJSON(stdout)
	}
	printSummary(stdout, &sc, res)
	return nil
}

// parseWithName parses flags that may come before or after one scenario name.
func parseWithName(fs *flag.FlagSet, args []string) (string, error) {
	var name string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return "", errUsage
		}
		rest = fs.Args()
		if len(rest) > 0 {
			if name != "" {
				return "", fmt.Errorf("one scenario at a time: got %q and %q", name, rest[0])
			}
			name, rest = rest[0], rest[1:]
		}
	}
	if name == "" {
		fs.Usage()
		return "", errUsage
	}
	return name, nil
}

func cmdScenarios(stdout io.Writer) error {
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, b := range scenario.Builtins() {
		fmt.Fprintf(w, "%s\t%s\n", b.Name, b.Summary)
	}
	return w.Flush()
}

const maxFlowRows = 16

func printSummary(w io.Writer, sc *scenario.Scenario, r *metrics.Result) {
	t := &r.Totals
	fmt.Fprintf(w, "%s — %s, %s %g Gb/s, flow control %s, routing %s, %d endpoints, seed %d\n\n",
		sc.Name, sc.Topology.Kind, sc.Topology.Fabric, sc.Topology.LinkGbps,
		sc.Network.FlowControl, sc.Network.Routing, sc.Endpoints(), sc.Seed)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "flow\tsrc\tdst\tbytes\tstart µs\tfinish µs\tfct µs\tGb/s\t\n")
	for i, f := range r.Flows {
		if i == maxFlowRows {
			fmt.Fprintf(tw, "…\t%d more\t\t\t\t\t\t\t\n", len(r.Flows)-maxFlowRows)
			break
		}
		finish, fct, gbps := "—", "—", "—"
		if f.Finished {
			finish, fct, gbps = ff(f.FinishUs, 1), ff(f.FctUs, 1), ff(f.Gbps, 1)
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", i, f.Src, f.Dst, humanBytes(f.Bytes), ff(f.StartUs, 1), finish, fct, gbps)
	}
	tw.Flush()

	links := append([]metrics.Link(nil), r.Links...)
	sort.SliceStable(links, func(a, b int) bool {
		if links[a].MaxQueueBytes != links[b].MaxQueueBytes {
			return links[a].MaxQueueBytes > links[b].MaxQueueBytes
		}
		return links[a].Util > links[b].Util
	})
	fmt.Fprintf(w, "\nbusiest links (by peak queue):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "link\tGb/s\tutil\tpeak queue\tdrops\tpaused µs\tpause frames\t\n")
	for i, l := range links {
		if i == 8 {
			break
		}
		fmt.Fprintf(tw, "%s\t%g\t%.1f%%\t%s\t%d\t%s\t%d\t\n", l.Name, l.Gbps, l.Util*100, humanBytes(l.MaxQueueBytes), l.Drops, ff(l.PauseUs, 1), l.PauseFrames)
	}
	tw.Flush()

	fct := "none finished"
	if t.FlowsFinished > 0 {
		fct = fmt.Sprintf("mean fct %s µs, max %s µs", ff(t.MeanFctUs, 1), ff(t.MaxFctUs, 1))
	}
	if t.Truncated != "" {
		fmt.Fprintf(w, "\nnote: %s\n", t.Truncated)
	}
	fmt.Fprintf(w, "\ntotals: %d/%d flows finished in %s µs; goodput %s Gb/s; %s\n",
		t.FlowsFinished, t.Flows, ff(t.SimTimeUs, 1), ff(t.GoodputGbps, 1), fct)
	fmt.Fprintf(w, "        drops %d, retransmits %d, timeouts %d, pause frames %d, out-of-order %d, events %d\n",
		t.Drops, t.Retransmits, t.Timeouts, t.PauseFrames, t.OutOfOrder, t.Events)
	if t.ECNMarks+t.CNPs+t.FECNMarks+t.BECNs > 0 {
		fmt.Fprintf(w, "        ECN marks %d, CNPs %d, FECN marks %d, BECNs %d\n", t.ECNMarks, t.CNPs, t.FECNMarks, t.BECNs)
	}
	if c := r.Collective; c != nil {
		algo := c.Algo
		if c.Protocol != "" {
			algo += " (" + c.Protocol + ")"
		}
		fmt.Fprintf(w, "\ncollective: %s/%s on %d ranks, %s in %s µs: algbw %s GB/s, busbw %s GB/s\n",
			c.Op, algo, c.Ranks, humanBytes(c.Bytes), ff(c.TimeUs, 1), ff(c.AlgBwGBps, 2), ff(c.BusBwGBps, 2))
	}
	if tr := r.Training; tr != nil {
		fmt.Fprintf(w, "\ntraining: %s on %d × %s: iteration %s µs (compute %s µs, exposed communication %s µs), GPU busy %s%%, scaling efficiency %s%%\n",
			tr.Model, tr.Ranks, tr.GPU, ff(tr.IterationUs, 1), ff(tr.ComputeUs, 1), ff(tr.ExposedCommUs, 1),
			ff(tr.GPUUtil*100, 1), ff(tr.ScalingEfficiency*100, 1))
		sharding := tr.Sharding
		if tr.Checkpointing != "" {
			sharding += ", checkpointing " + tr.Checkpointing
		}
		fmt.Fprintf(w, "          batch %d × %d micro-batches per GPU, sharding %s, tp %d, mfu %s: %s samples/s in all, %s per GPU\n",
			tr.Batch, max(tr.Accumulation, 1), sharding, max(tr.TP, 1), ff(tr.MFU, 3),
			ff(tr.SamplesPerSecond, 0), ff(tr.SamplesPerSecond/float64(max(tr.Ranks, 1)), 0))
		pipeline := ""
		if tr.PP > 1 {
			pipeline = fmt.Sprintf("; pipeline of %d stages, %s: bubble %s%%", tr.PP, tr.PPSchedule, ff(tr.BubbleFraction*100, 1))
		}
		fmt.Fprintf(w, "          memory %s per GPU (the fullest)%s\n", ff(float64(tr.MemoryBytes)/1e9, 1)+" GB", pipeline)
		printStorage(w, tr.Storage)
		printCost(w, tr.Cost)
	}
	printFaults(w, r.Faults)
	if in := r.Inference; in != nil {
		fmt.Fprintf(w, "\ninference: %s on %d prefill + %d decode × %s, %d requests of %d prompt and %d output tokens\n",
			in.Model, in.PrefillGPUs, in.DecodeGPUs, in.GPU, in.Requests, in.PromptTokens, in.OutputTokens)
		fmt.Fprintf(w, "           KV cache %s per token, %s per request, %s µs over the fabric; prefill %s µs, decode step %s µs\n",
			humanBytes(in.KVBytesPerToken), humanBytes(in.KVBytesPerRequest), ff(in.KVTransferUs, 1), ff(in.PrefillUs, 1), ff(in.DecodeStepUs, 1))
		fmt.Fprintf(w, "           time to first token p50 %s µs, p99 %s µs; %s µs per output token; %s tokens/s in all, %s per GPU\n",
			ff(in.TTFTP50Us, 1), ff(in.TTFTP99Us, 1), ff(in.TPOTUs, 1), ff(in.TokensPerSecond, 1), ff(in.TokensPerSecondPerGPU, 1))
		if c := in.Cost; c != nil {
			per := ff(c.GPUHoursPerMillion, 3) + " GPU-hours"
			if c.CostPerMillion != nil {
				per += fmt.Sprintf(" (%s at %s per GPU-hour)", money(c.CostPerMillion), strconv.FormatFloat(c.GPUHourPrice, 'g', -1, 64))
			}
			fmt.Fprintf(w, "           a million output tokens: %s\n", per)
		}
	}
}

// printStorage prints what checkpoints and data-loader reads took and cost.
func printStorage(w io.Writer, st *metrics.Storage) {
	if st == nil {
		return
	}
	if st.Checkpoints > 0 {
		fmt.Fprintf(w, "          checkpoint: %s to %d storage nodes in %s µs, %d written; an iteration %s µs while one is written, %s µs without: %s µs exposed in all\n",
			humanBytes(st.CheckpointBytes), st.Nodes, ff(st.CheckpointUs, 1), st.Checkpoints, ff(st.IterationCheckpointUs, 1), ff(st.IterationUs, 1), ff(st.CheckpointExposedUs, 1))
	}
	if st.ReadBytes > 0 {
		fmt.Fprintf(w, "          data loader: %s per iteration from %d storage nodes in %s µs\n", humanBytes(st.ReadBytes), st.Nodes, ff(st.ReadUs, 1))
	}
}

func ff(v float64, digits int) string { return strconv.FormatFloat(v, 'f', digits, 64) }

func humanBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return ff(float64(b)/(1<<30), 2) + " GiB"
	case b >= 1<<20:
		return ff(float64(b)/(1<<20), 2) + " MiB"
	case b >= 1<<10:
		return ff(float64(b)/(1<<10), 1) + " KiB"
	}
	return strconv.FormatInt(b, 10) + " B"
}

// printFaults says what each fault did and what the faults cost the run.
func printFaults(w io.Writer, f *metrics.Faults) {
	if f == nil {
		return
	}
	fmt.Fprintf(w, "\nfaults: %s %s µs", f.Measure, ff(f.MeasureUs, 1))
	if f.BaselineUs != nil {
		fmt.Fprintf(w, ", %s µs without faults: they cost %s µs", ff(*f.BaselineUs, 1), ff(*f.DelayUs, 1))
	}
	fmt.Fprintln(w)
	for _, x := range f.Faults {
		fmt.Fprintf(w, "  [%d] %s %s", x.Index, x.Kind, x.Target)
		switch x.Kind {
		case "slow_gpu":
			fmt.Fprintf(w, ": compute × %g", x.Factor)
		case "link_degraded":
			fmt.Fprintf(w, " at %g Gb/s", x.Gbps)
		}
		if x.Kind != "slow_gpu" {
			until := "for good"
			if x.UntilUs > 0 {
				until = "until " + ff(x.UntilUs, 1) + " µs"
			}
			fmt.Fprintf(w, " from %s µs %s", ff(x.AtUs, 1), until)
		}
		if x.ReroutedUs != nil {
			fmt.Fprintf(w, "; rerouted at %s µs", ff(*x.ReroutedUs, 1))
		}
		if x.FlowsStalled > 0 {
			fmt.Fprintf(w, "; %d flows waited %s µs in all with %s left", x.FlowsStalled, ff(x.StalledFlowUs, 1), humanBytes(x.StalledBytes))
		}
		if x.HeldBytes > 0 {
			fmt.Fprintf(w, "; held up to %s", humanBytes(x.HeldBytes))
		}
		if x.Drops > 0 {
			fmt.Fprintf(w, "; dropped %d packets", x.Drops)
		}
		fmt.Fprintln(w)
	}
}
