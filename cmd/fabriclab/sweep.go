package main

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"

	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// maxSweepRuns bounds a sweep so that a typo cannot start a million runs.
const maxSweepRuns = 10000

// parseVary reads key=v1,v2,... or key=lo..hi or key=lo..hi*f (geometric).
func parseVary(s string) (key string, values []string, err error) {
	key, list, ok := strings.Cut(s, "=")
	if !ok || key == "" || list == "" {
		return "", nil, fmt.Errorf("--vary %q: want key=v1,v2,... or key=lo..hi or key=lo..hi*2", s)
	}
	if lo, rest, ok := strings.Cut(list, ".."); ok {
		hi, factor, geometric := strings.Cut(rest, "*")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		f := 0
		var err3 error
		if geometric {
			f, err3 = strconv.Atoi(factor)
		}
		if err1 != nil || err2 != nil || err3 != nil || a > b || geometric && (f < 2 || a < 1) {
			return "", nil, fmt.Errorf("--vary %q: a range is lo..hi (whole numbers, lo ≤ hi) or lo..hi*f (lo ≥ 1, f ≥ 2), e.g. topology.nodes=1..2048*2", s)
		}
		for v := a; ; {
			values = append(values, strconv.Itoa(v))
			if len(values) > maxSweepRuns {
				return "", nil, fmt.Errorf("--vary %q: more than %d values; a sweep makes at most %d runs: use a coarser range (lo..hi*2)", s, maxSweepRuns, maxSweepRuns)
			}
			// The next value, unless it passes hi (checked so as not to overflow).
			if geometric {
				if v > b/f {
					break
				}
				v *= f
			} else {
				if v == b {
					break
				}
				v++
			}
		}
		return key, values, nil
	}
	for _, v := range strings.Split(list, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return "", nil, fmt.Errorf("--vary %q: an empty value", s)
		}
		values = append(values, v)
	}
	return key, values, nil
}

// sweepCombos expands --vary flags into all combinations of their values, the
// last varying fastest, each as key=value pairs. It counts the runs before
// making them, so that too many fail at once.
func sweepCombos(varies []string) (keys []string, combos [][]string, err error) {
	combos = [][]string{nil}
	for _, v := range varies {
		key, values, err := parseVary(v)
		if err != nil {
			return nil, nil, err
		}
		key = strings.TrimSpace(key)
		if slices.Contains(keys, key) { // the later value would win and the row show both
			return nil, nil, fmt.Errorf("--vary %s is given twice: give all its values in one --vary, e.g. --vary %s=1,2,4,8", key, key)
		}
		keys = append(keys, key)
		if n := len(combos) * len(values); n > maxSweepRuns {
			return nil, nil, fmt.Errorf("--vary %s makes %d runs, too many: at most %d; vary fewer values or use a coarser range (lo..hi*2)",
				strings.Join(keys, " × "), n, maxSweepRuns)
		}
		next := make([][]string, 0, len(combos)*len(values))
		for _, c := range combos {
			for _, val := range values {
				next = append(next, append(append([]string(nil), c...), key+"="+val))
			}
		}
		combos = next
	}
	return keys, combos, nil
}

// sweepRun is one run of a sweep: its combination and, once it has run, the
// figures its row shows (not the whole result, so that a sweep of 10,000 runs
// keeps 10,000 rows, not 10,000 results).
type sweepRun struct {
	sets    []string // the varied key=value pairs
	kind    runKind
	figures []string
	delay   string // what the faults cost (faults.delay_us), "" without faults
	err     error
}

// runKind is what a scenario runs, which picks a sweep's columns.
type runKind int

const (
	trafficRun runKind = iota
	collectiveRun
	trainingRun
	inferenceRun
)

// runScenario runs one combination of a sweep (a variable so that tests can
// watch the memory a sweep keeps while it runs).
var runScenario = sim.Run

// sweepJobs is how many runs a sweep makes at once: what --jobs asks, but
// no more than the cores (each run in flight holds a whole model) or the runs.
func sweepJobs(asked, runs int) int {
	return max(1, min(asked, runtime.NumCPU(), runs))
}

func cmdSweep(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sweep", "fabriclab sweep FILE|NAME --vary key=v1,v2,... [--vary ...] [--set key=value]... [--csv] [--jobs N]", stderr)
	var sets, varies setFlags
	fs.Var(&sets, "set", "override a scenario key for every run (repeatable)")
	fs.Var(&varies, "vary", "key=v1,v2,... | key=lo..hi | key=lo..hi*f: a key to sweep (repeatable: all combinations)")
	asCSV := fs.Bool("csv", false, "print CSV instead of a table")
	jobs := fs.Int("jobs", runtime.NumCPU(), "runs at once (at most the number of cores)")
	name, err := parseWithName(fs, args)
	if err != nil {
		return err
	}
	if len(varies) == 0 {
		fs.Usage()
		return fmt.Errorf("say what to vary, e.g. --vary topology.nodes=1,2,4,8")
	}
	keys, combos, err := sweepCombos(varies)
	if err != nil {
		return err
	}
	read := readOnce() // the file is read once, for every run
	load := func(i int) (scenario.Scenario, error) {
		sc, err := plan.Load(name, read, append(append([]string(nil), sets...), combos[i]...))
		if err != nil {
			return sc, fmt.Errorf("with %s: %w", strings.Join(combos[i], " "), err)
		}
		return sc, nil
	}
	// The first combination is checked at once (it has every varied key, so
	// a typo in a key or the file fails before any run); each of the others
	// is parsed by the worker that runs it, so that a sweep holds at most one
	// parsed scenario per job, however many runs it makes.
	first, err := load(0)
	if err != nil {
		return err
	}
	runs := runSweep(combos, sweepJobs(*jobs, len(combos)), load, first, stderr)
	return printSweepRuns(stdout, keys, runs, *asCSV)
}

// runSweep runs every combination on jobs workers, in order and none after a
// failure, with a progress bar on stderr. first is combination 0, loaded.
func runSweep(combos [][]string, jobs int, load func(int) (scenario.Scenario, error), first scenario.Scenario, stderr io.Writer) []sweepRun {
	runs := make([]sweepRun, len(combos))
	var (
		wg       sync.WaitGroup
		failed   atomic.Bool
		work     = make(chan int)
		progress = make(chan struct{})
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r := &runs[i]
				r.sets = combos[i]
				var sc scenario.Scenario
				if i == 0 {
					sc, first = first, scenario.Scenario{} // the worker's copy is the only one now
				} else {
					sc, r.err = load(i)
				}
				if r.err == nil {
					r.run(sc)
				}
				if r.err != nil {
					failed.Store(true)
				}
				progress <- struct{}{}
			}
		}()
	}
	go func() {
		// In order, and none after a failure: the first failing combination
		// has then always been run, and its error is the one reported.
		for i := range combos {
			if failed.Load() {
				break
			}
			work <- i
		}
		close(work)
		wg.Wait()
		close(progress)
	}()
	showSweepProgress(stderr, progress, len(combos))
	return runs
}

// run runs sc and keeps its figures, or the error.
func (r *sweepRun) run(sc scenario.Scenario) {
	res, err := runScenario(sc)
	if err != nil {
		r.err = fmt.Errorf("with %s: %w", strings.Join(r.sets, " "), err)
		return
	}
	r.kind, r.figures = sweepFigures(res)
	if f := res.Faults; f != nil && f.DelayUs != nil {
		r.delay = ff(*f.DelayUs, 1)
	}
}

// showSweepProgress draws a bar of the runs done on stderr, one step for each
// value on progress, until it is closed (no bar for a single run).
func showSweepProgress(stderr io.Writer, progress <-chan struct{}, runs int) {
	done := 0
	for range progress {
		done++
		if runs > 1 {
			bar := strings.Repeat("█", done*30/runs) + strings.Repeat("·", 30-done*30/runs)
			fmt.Fprintf(stderr, "\r%s %d/%d runs", bar, done, runs)
		}
	}
	if runs > 1 {
		fmt.Fprintln(stderr)
	}
}

// printSweepRuns prints the runs that finished, even when one failed (a long
// sweep does not lose them to its last value), and returns the first failure.
func printSweepRuns(stdout io.Writer, keys []string, runs []sweepRun, asCSV bool) error {
	var finished []sweepRun
	var failure error
	for _, r := range runs {
		switch {
		case r.err != nil && failure == nil:
			failure = r.err
		case r.err == nil && r.figures != nil:
			finished = append(finished, r)
		}
	}
	if len(finished) > 0 {
		if err := printSweep(stdout, keys, finished, asCSV); err != nil {
			return err
		}
	}
	if failure != nil && len(finished) > 0 {
		return fmt.Errorf("the sweep stopped (the %d of %d runs that finished are above): %w", len(finished), len(runs), failure)
	}
	return failure
}

// printSweep prints the runs' rows as a table or as CSV.
func printSweep(stdout io.Writer, keys []string, runs []sweepRun, asCSV bool) error {
	header, rows := sweepTable(keys, runs)
	if asCSV {
		w := csv.NewWriter(stdout)
		w.Write(header)
		w.WriteAll(rows)
		return w.Error()
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(header, "\t")+"\t")
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	return tw.Flush()
}

// sweepFigures are the figures that matter in r for what its scenario runs.
func sweepFigures(r *metrics.Result) (runKind, []string) {
	switch {
	case r.Inference != nil:
		in := r.Inference
		return inferenceRun, []string{ff(in.TTFTP50Us, 1), ff(in.TTFTP99Us, 1), ff(in.TPOTUs, 1), ff(in.KVTransferUs, 1),
			ff(in.TokensPerSecond, 1), ff(in.TokensPerSecondPerGPU, 1)}
	case r.Training != nil:
		tr := r.Training
		// then trainingOptional's, each "" when the run has none
		bubble := ""
		if tr.PP > 1 {
			bubble = ff(tr.BubbleFraction, 4)
		}
		ckpt := []string{"", "", ""}
		if st := tr.Storage; st != nil && st.Checkpoints > 0 {
			ckpt = []string{ff(st.CheckpointUs, 1), ff(st.IterationCheckpointUs, 1), ff(st.CheckpointExposedUs, 1)}
		}
		return trainingRun, append([]string{strconv.Itoa(tr.Ranks), ff(tr.IterationUs, 1), ff(tr.ExposedCommUs, 1), ff(tr.GPUUtil, 4),
			ff(tr.ScalingEfficiency, 4), ff(tr.SamplesPerSecond, 0), bubble}, ckpt...)
	case r.Collective != nil:
		c := r.Collective
		return collectiveRun, []string{strconv.Itoa(c.Ranks), ff(c.TimeUs, 1), ff(c.AlgBwGBps, 2), ff(c.BusBwGBps, 2)}
	}
	t := &r.Totals
	return trafficRun, []string{ff(t.SimTimeUs, 1), ff(t.GoodputGbps, 1), ff(t.MaxFctUs, 1),
		strconv.FormatInt(t.Drops, 10), strconv.FormatInt(t.PauseFrames, 10)}
}

// trainingFigures are the columns of every training run; trainingOptional
// follow, each only when a run has it.
const trainingFigures = 6

var trainingOptional = []string{"bubble_fraction", "checkpoint_us", "iteration_checkpoint_us", "checkpoint_exposed_us"}

// sweepTable picks the columns that matter for what the scenario runs.
func sweepTable(keys []string, runs []sweepRun) ([]string, [][]string) {
	header := append([]string(nil), keys...)
	switch runs[0].kind {
	case inferenceRun:
		header = append(header, "ttft_p50_us", "ttft_p99_us", "tpot_us", "kv_transfer_us", "tokens_per_s", "tokens_per_s_per_gpu")
	case trainingRun:
		header = append(header, "ranks", "iteration_us", "exposed_comm_us", "gpu_util", "scaling_efficiency", "samples_per_s")
	case collectiveRun:
		header = append(header, "ranks", "time_us", "algbw_GBps", "busbw_GBps")
	default:
		header = append(header, "sim_time_us", "goodput_gbps", "max_fct_us", "drops", "pause_frames")
	}
	// a training column of trainingOptional when a run has it (0 for the runs without)
	var shown []int
	if runs[0].kind == trainingRun {
		for i, name := range trainingOptional {
			for _, r := range runs {
				if r.figures[trainingFigures+i] != "" {
					shown = append(shown, i)
					header = append(header, name)
					break
				}
			}
		}
	}
	faulted := false // a fault_delay_us column when a run has faults
	for _, r := range runs {
		faulted = faulted || r.delay != ""
	}
	if faulted {
		header = append(header, "fault_delay_us")
	}
	var rows [][]string
	for _, r := range runs {
		var row []string
		for _, s := range r.sets {
			_, v, _ := strings.Cut(s, "=")
			row = append(row, v)
		}
		figures := r.figures
		if r.kind == trainingRun {
			figures = figures[:trainingFigures:trainingFigures]
			for _, i := range shown {
				figures = append(figures, cmp.Or(r.figures[trainingFigures+i], "0"))
			}
		}
		row = append(row, figures...)
		if faulted {
			row = append(row, cmp.Or(r.delay, "0"))
		}
		rows = append(rows, row)
	}
	return header, rows
}
