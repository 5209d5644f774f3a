package metrics

import (
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends r as json.MarshalIndent(r, "", "  ") writes it, byte for
// byte, without reflection: encoding/json spent 40 % of `run --json` on a
// large run, and a small one paid a millisecond building its type encoders.
// ok is false if a float is NaN or infinite (encoding/json refuses those: let
// it say so). TestAppendJSON compares the two on random results.
func (r *Result) AppendJSON(dst []byte) (out []byte, ok bool) {
	w := jsonWriter{b: dst}
	w.result(r)
	return w.b, !w.bad
}

// flushAt is how much WriteJSON buffers before writing: a few pages, as a
// fresh page costs a page fault, dearer on a virtual machine than a write.
const flushAt = 16 << 10

// WriteJSON writes what AppendJSON appends, and a newline, to out in pieces
// of about 16 KiB: a large result (the 16k hierarchical all-reduce writes
// 24 MB) needs no buffer of its size. ok is false, and nothing is written, if
// a float is NaN or infinite.
func (r *Result) WriteJSON(out io.Writer) (ok bool, err error) {
	if !r.finite() {
		return false, nil
	}
	w := jsonWriter{b: make([]byte, 0, flushAt+flushAt/4), sink: out}
	w.result(r)
	w.b = append(w.b, '\n')
	w.flush()
	return true, w.err
}

// jsonWriter writes indented JSON: every field and element on its own line,
// two spaces a level, empty objects and arrays as {} and [].
type jsonWriter struct {
	b     []byte
	count []int // fields or elements so far in each open object or array
	bad   bool  // a NaN or an infinity
	sink  io.Writer
	err   error // the sink's first
}

// flush writes what is buffered to the sink.
func (w *jsonWriter) flush() {
	if w.err == nil {
		_, w.err = w.sink.Write(w.b)
	}
	w.b = w.b[:0]
}

func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.count = append(w.count, 0)
}

func (w *jsonWriter) close(c byte) {
	top := len(w.count) - 1
	n := w.count[top]
	w.count = w.count[:top]
	if n > 0 {
		w.newline()
	}
	w.b = append(w.b, c)
}

// indent is a newline and the spaces of 32 levels (deeper ones loop).
const indent = "\n                                                                "

func (w *jsonWriter) newline() {
	n := 1 + 2*len(w.count)
	if n <= len(indent) {
		w.b = append(w.b, indent[:n]...)
		return
	}
	w.b = append(w.b, '\n')
	for range w.count {
		w.b = append(w.b, ' ', ' ')
	}
}

// next starts a field or an element.
func (w *jsonWriter) next() {
	if w.sink != nil && len(w.b) >= flushAt {
		w.flush()
	}
	top := len(w.count) - 1
	if w.count[top] > 0 {
		w.b = append(w.b, ',')
	}
	w.count[top]++
	w.newline()
}

// key starts a field; keys are our own ASCII names, never escaped.
func (w *jsonWriter) key(k string) {
	w.next()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

func (w *jsonWriter) int(v int64)   { w.b = strconv.AppendInt(w.b, v, 10) }
func (w *jsonWriter) uint(v uint64) { w.b = strconv.AppendUint(w.b, v, 10) }
func (w *jsonWriter) bool(v bool)   { w.b = strconv.AppendBool(w.b, v) }
func (w *jsonWriter) null()         { w.b = append(w.b, "null"...) }

// float is encoding/json's float64: %f between 1e-6 and 1e21, else %e with
// a one-digit exponent kept short (1e-7, not 1e-07).
func (w *jsonWriter) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.bad = true
		w.b = append(w.b, '0')
		return
	}
	if w.milli(f) {
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		n := len(w.b)
		if n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
			w.b[n-2] = w.b[n-1]
			w.b = w.b[:n-1]
		}
	}
}

// milli writes f if it is k/1000 for a whole k (what Round(v, 3) makes,
// most figures in a result) and below 1e12: then those three decimals, less
// their trailing zeros, are the shortest form that reads back as f, which is
// what strconv would write, in a quarter of the time.
func (w *jsonWriter) milli(f float64) bool {
	if f == 0 || f >= 1e12 || f <= -1e12 {
		return false // 0 and -0 are strconv's
	}
	k := math.Round(f * 1000)
	if k/1000 != f {
		return false
	}
	n := int64(k)
	if n < 0 {
		w.b = append(w.b, '-')
		n = -n
	}
	w.b = strconv.AppendInt(w.b, n/1000, 10)
	if frac := n % 1000; frac != 0 {
		d := [4]byte{'.', byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
		end := 4
		for d[end-1] == '0' {
			end--
		}
		w.b = append(w.b, d[:end]...)
	}
	return true
}

const hexDigits = "0123456789abcdef"

// str is encoding/json's string with HTML escaping (its default): <, > and &
// as \u003c…, control characters, U+2028 and U+2029 escaped, bad UTF-8 as U+FFFD.
func (w *jsonWriter) str(s string) {
	w.b = append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			w.b = append(w.b, s[start:i]...)
			switch c {
			case '\\', '"':
				w.b = append(w.b, '\\', c)
			case '\b':
				w.b = append(w.b, '\\', 'b')
			case '\f':
				w.b = append(w.b, '\\', 'f')
			case '\n':
				w.b = append(w.b, '\\', 'n')
			case '\r':
				w.b = append(w.b, '\\', 'r')
			case '\t':
				w.b = append(w.b, '\\', 't')
			default:
				w.b = append(w.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.b = append(w.b, s[start:i]...)
			w.b = append(w.b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			w.b = append(w.b, s[start:i]...)
			w.b = append(w.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.b = append(w.b, s[start:]...)
	w.b = append(w.b, '"')
}

func (w *jsonWriter) floats(v []float64) {
	if v == nil {
		w.null()
		return
	}
	w.open('[')
	for _, f := range v {
		w.next()
		w.float(f)
	}
	w.close(']')
}

func (w *jsonWriter) ints(v []int64) {
	if v == nil {
		w.null()
		return
	}
	w.open('[')
	for _, n := range v {
		w.next()
		w.int(n)
	}
	w.close(']')
}

func (w *jsonWriter) floatRows(v [][]float64) {
	if v == nil {
		w.null()
		return
	}
	w.open('[')
	for _, row := range v {
		w.next()
		w.floats(row)
	}
	w.close(']')
}

// list writes a slice of structs, each by one.
func list[T any](w *jsonWriter, v []T, one func(*jsonWriter, *T)) {
	if v == nil {
		w.null()
		return
	}
	w.open('[')
	for i := range v {
		w.next()
		one(w, &v[i])
	}
	w.close(']')
}

// The types below in their fields' order, with their json tags.

func (w *jsonWriter) result(r *Result) {
	w.open('{')
	w.key("scenario")
	w.str(r.Scenario)
	w.key("seed")
	w.uint(r.Seed)
	w.key("fidelity")
	w.str(r.Fidelity)
	w.key("totals")
	w.totals(&r.Totals)
	w.key("flows")
	list(w, r.Flows, (*jsonWriter).flow)
	w.key("links")
	list(w, r.Links, (*jsonWriter).link)
	if r.Series != nil {
		w.key("series")
		w.series(r.Series)
	}
	if r.Collective != nil {
		w.key("collective")
		w.collective(r.Collective)
	}
	if r.Training != nil {
		w.key("training")
		w.training(r.Training)
	}
	w.close('}')
}

func (w *jsonWriter) collective(c *Collective) {
	w.open('{')
	w.key("op")
	w.str(c.Op)
	w.key("algo")
	w.str(c.Algo)
	w.key("ranks")
	w.int(int64(c.Ranks))
	w.key("bytes")
	w.int(c.Bytes)
	w.key("time_us")
	w.float(c.TimeUs)
	w.key("algbw_GBps")
	w.float(c.AlgBwGBps)
	w.key("busbw_GBps")
	w.float(c.BusBwGBps)
	w.key("channels")
	w.int(int64(c.Channels))
	w.key("pieces")
	w.int(int64(c.Pieces))
	w.key("transfers")
	w.int(int64(c.Transfers))
	w.key("steps")
	w.int(int64(c.Steps))
	w.close('}')
}

// intOmit writes a field unless v is 0 (omitempty).
func (w *jsonWriter) intOmit(k string, v int64) {
	if v != 0 {
		w.key(k)
		w.int(v)
	}
}

func (w *jsonWriter) totals(t *Totals) {
	w.open('{')
	if t.Truncated != "" {
		w.key("truncated")
		w.str(t.Truncated)
	}
	w.key("sim_time_us")
	w.float(t.SimTimeUs)
	w.key("events")
	w.uint(t.Events)
	w.key("drops")
	w.int(t.Drops)
	w.key("retransmits")
	w.int(t.Retransmits)
	w.key("timeouts")
	w.int(t.Timeouts)
	w.key("pause_frames")
	w.int(t.PauseFrames)
	w.key("ecn_marks")
	w.int(t.ECNMarks)
	w.intOmit("cnps", t.CNPs)
	w.intOmit("fecn_marks", t.FECNMarks)
	w.intOmit("becns", t.BECNs)
	w.key("out_of_order")
	w.int(t.OutOfOrder)
	w.key("goodput_gbps")
	w.float(t.GoodputGbps)
	w.key("flows")
	w.int(int64(t.Flows))
	w.key("flows_finished")
	w.int(int64(t.FlowsFinished))
	w.key("max_fct_us")
	w.float(t.MaxFctUs)
	w.key("mean_fct_us")
	w.float(t.MeanFctUs)
	w.close('}')
}

func (w *jsonWriter) flow(f *Flow) {
	w.open('{')
	w.key("src")
	w.int(int64(f.Src))
	w.key("dst")
	w.int(int64(f.Dst))
	w.key("bytes")
	w.int(f.Bytes)
	w.key("start_us")
	w.float(f.StartUs)
	w.key("finish_us")
	w.float(f.FinishUs)
	w.key("fct_us")
	w.float(f.FctUs)
	w.key("gbps")
	w.float(f.Gbps)
	w.key("finished")
	w.bool(f.Finished)
	w.key("delivered_bytes")
	w.int(f.Delivered)
	w.key("retransmits")
	w.int(f.Retransmits)
	w.key("out_of_order")
	w.int(f.OutOfOrder)
	w.intOmit("cnps", f.CNPs)
	if f.MinRateGbps != 0 {
		w.key("min_rate_gbps")
		w.float(f.MinRateGbps)
	}
	w.intOmit("becns", f.BECNs)
	w.intOmit("max_ccti", int64(f.MaxCCTI))
	w.close('}')
}

func (w *jsonWriter) link(l *Link) {
	w.open('{')
	w.key("id")
	w.int(int64(l.ID))
	w.key("name")
	w.str(l.Name)
	w.key("kind")
	w.str(l.Kind)
	w.key("gbps")
	w.float(l.Gbps)
	w.key("util")
	w.float(l.Util)
	w.key("max_queue_bytes")
	w.int(l.MaxQueueBytes)
	w.key("drops")
	w.int(l.Drops)
	w.key("pause_us")
	w.float(l.PauseUs)
	w.key("pause_frames")
	w.int(l.PauseFrames)
	w.intOmit("ecn_marks", l.ECNMarks)
	w.intOmit("fecn_marks", l.FECNMarks)
	if len(l.Classes) > 0 {
		w.key("classes")
		list(w, l.Classes, (*jsonWriter).linkClass)
	}
	w.close('}')
}

func (w *jsonWriter) linkClass(c *LinkClass) {
	w.open('{')
	w.key("name")
	w.str(c.Name)
	w.key("tx_bytes")
	w.int(c.TxBytes)
	w.key("max_queue_bytes")
	w.int(c.MaxQueueBytes)
	w.key("drops")
	w.int(c.Drops)
	w.key("pause_us")
	w.float(c.PauseUs)
	w.key("pause_frames")
	w.int(c.PauseFrames)
	w.close('}')
}

func (w *jsonWriter) series(s *Series) {
	w.open('{')
	w.key("interval_us")
	w.float(s.IntervalUs)
	w.key("time_us")
	w.floats(s.TimeUs)
	if len(s.FlowGbps) > 0 {
		w.key("flow_gbps")
		w.floatRows(s.FlowGbps)
	}
	if len(s.FlowRateGbps) > 0 {
		w.key("flow_rate_gbps")
		w.floatRows(s.FlowRateGbps)
	}
	if len(s.Queues) > 0 {
		w.key("queues")
		list(w, s.Queues, (*jsonWriter).queueSeries)
	}
	w.key("goodput_gbps")
	w.floats(s.Goodput)
	if s.Counters != nil {
		w.key("counters")
		w.counters(s.Counters)
	}
	w.close('}')
}

func (w *jsonWriter) counters(c *CounterSeries) {
	w.open('{')
	w.key("drops")
	w.ints(c.Drops)
	w.key("pause_frames")
	w.ints(c.PauseFrames)
	w.key("ecn_marks")
	w.ints(c.ECNMarks)
	if len(c.CNPs) > 0 {
		w.key("cnps")
		w.ints(c.CNPs)
	}
	if len(c.FECNMarks) > 0 {
		w.key("fecn_marks")
		w.ints(c.FECNMarks)
	}
	if len(c.BECNs) > 0 {
		w.key("becns")
		w.ints(c.BECNs)
	}
	w.close('}')
}

func (w *jsonWriter) queueSeries(q *QueueSeries) {
	w.open('{')
	w.key("link")
	w.int(int64(q.Link))
	w.key("name")
	w.str(q.Name)
	w.key("bytes")
	w.ints(q.Bytes)
	w.close('}')
}

func (w *jsonWriter) training(t *Training) {
	w.open('{')
	w.key("model")
	w.str(t.Model)
	w.key("gpu")
	w.str(t.GPU)
	w.key("ranks")
	w.int(int64(t.Ranks))
	w.key("params")
	w.int(t.Params)
	w.key("mfu")
	w.float(t.MFU)
	w.key("batch")
	w.int(int64(t.Batch))
	w.key("accumulation")
	w.int(int64(t.Accumulation))
	w.key("sharding")
	w.str(t.Sharding)
	w.key("tp")
	w.int(int64(t.TP))
	w.key("grad_bytes")
	w.int(t.GradBytes)
	w.key("iteration_us")
	w.float(t.IterationUs)
	w.key("compute_us")
	w.float(t.ComputeUs)
	w.key("exposed_comm_us")
	w.float(t.ExposedCommUs)
	w.key("gpu_util")
	w.float(t.GPUUtil)
	w.key("scaling_efficiency")
	w.float(t.ScalingEfficiency)
	w.key("samples_per_s")
	w.float(t.SamplesPerSecond)
	if t.Cost != nil {
		w.key("cost")
		w.cost(t.Cost)
	}
	w.key("buckets")
	list(w, t.Buckets, (*jsonWriter).bucket)
	w.key("timeline")
	list(w, t.Timeline, (*jsonWriter).timeline)
	w.close('}')
}

func (w *jsonWriter) cost(c *Cost) {
	w.open('{')
	if c.GPUHourPrice != 0 {
		w.key("gpu_hour_price")
		w.float(c.GPUHourPrice)
	}
	w.key("per_hour")
	w.costShare(&c.PerHour)
	w.key("per_1k_iterations")
	w.costShare(&c.Per1kIters)
	w.key("per_1b_samples")
	w.costShare(&c.Per1BSamples)
	w.close('}')
}

func (w *jsonWriter) costShare(s *CostShare) {
	w.open('{')
	w.key("gpu_hours")
	w.float(s.GPUHours)
	w.key("waiting_gpu_hours")
	w.float(s.WaitingGPUHours)
	if s.Cost != nil {
		w.key("cost")
		w.float(*s.Cost)
	}
	if s.WaitingCost != nil {
		w.key("waiting_cost")
		w.float(*s.WaitingCost)
	}
	w.close('}')
}

func (w *jsonWriter) bucket(b *Bucket) {
	w.open('{')
	w.key("bytes")
	w.int(b.Bytes)
	w.key("tensors")
	w.int(int64(b.Tensors))
	w.key("ready_us")
	w.float(b.ReadyUs)
	w.key("start_us")
	w.float(b.StartUs)
	w.key("finish_us")
	w.float(b.FinishUs)
	w.close('}')
}

func (w *jsonWriter) timeline(g *GPUTimeline) {
	w.open('{')
	w.key("gpu")
	w.int(int64(g.GPU))
	w.key("intervals")
	list(w, g.Intervals, (*jsonWriter).interval)
	w.close('}')
}

func (w *jsonWriter) interval(v *Interval) {
	w.open('{')
	w.key("kind")
	w.str(v.Kind)
	if v.Label != "" {
		w.key("label")
		w.str(v.Label)
	}
	w.key("start_us")
	w.float(v.StartUs)
	w.key("end_us")
	w.float(v.EndUs)
	w.close('}')
}
