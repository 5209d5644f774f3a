package render

import (
	"math"
	"strconv"

	"fabriclab/sim/unit"
)

// The units are the lessons': µs and ms for time, Gb/s for rates, KiB and
// MiB (powers of 1024) for queues and transfers.

// fmtTime writes a simulated time with a unit that keeps three or four digits.
func fmtTime(t unit.Time) string {
	us := t.Micros()
	switch {
	case us < 1:
		return strconv.FormatFloat(us*1000, 'f', 0, 64) + " ns"
	case us < 1000:
		return strconv.FormatFloat(us, 'f', 1, 64) + " µs"
	case us < 1e6:
		return strconv.FormatFloat(us/1000, 'f', 3, 64) + " ms"
	}
	return strconv.FormatFloat(us/1e6, 'f', 3, 64) + " s"
}

// fmtMicros writes a duration in µs with a unit that fits.
func fmtMicros(us float64) string {
	return fmtTime(unit.Time(us * float64(unit.Microsecond)))
}

// fmtBytes writes a byte count in powers of 1024, as the lessons do: "512 B",
// "37.5 KiB", "4.20 MiB", "1.50 GiB".
func fmtBytes(b float64) string {
	switch {
	case b < 1024:
		return strconv.FormatFloat(b, 'f', 0, 64) + " B"
	case b < 1<<20:
		return strconv.FormatFloat(b/(1<<10), 'f', 1, 64) + " KiB"
	case b < 1<<30:
		return strconv.FormatFloat(b/(1<<20), 'f', 2, 64) + " MiB"
	}
	return strconv.FormatFloat(b/(1<<30), 'f', 2, 64) + " GiB"
}

// fmtRate writes bits per second as Gb/s or Tb/s.
func fmtRate(bps float64) string {
	g := bps / 1e9
	switch {
	case g < 1 && g > 0: // a sender cut to its minimum: "100 Mb/s", not "0.10 Gb/s"
		return strconv.FormatFloat(g*1000, 'f', 0, 64) + " Mb/s"
	case g < 10:
		return strconv.FormatFloat(g, 'f', 2, 64) + " Gb/s"
	case g < 1000:
		return strconv.FormatFloat(g, 'f', 1, 64) + " Gb/s"
	}
	return strconv.FormatFloat(g/1000, 'f', 2, 64) + " Tb/s"
}

// fmtPct writes a share as a whole percentage.
func fmtPct(v float64) string { return strconv.Itoa(int(v*100+0.5)) + "%" }

// niceCeil rounds v up to 1, 2, 2.5 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if p*m >= v*(1-1e-12) {
			return p * m
		}
	}
	return p * 10
}

// scale is an axis from 0 to Max with ticks every Step.
type scale struct{ Max, Step float64 }

// niceScale is the axis for values up to v: a round step (1, 2, 2.5 or 5
// times a power of ten) that gives three to five ticks above 0, and the
// first multiple of it at or above v.
func niceScale(v float64) scale {
	if !(v > 0) || math.IsInf(v, 0) {
		return scale{1, 0.25}
	}
	step := niceCeil(v / 4)
	return scale{math.Ceil(v/step*(1-1e-12)) * step, step}
}

// bytesScale is niceScale in the binary unit that fits v (B, KiB, MiB, GiB),
// so that ticks read "1.5 MiB", not "1.57 MB".
func bytesScale(v float64) scale {
	u := 1.0
	for _, k := range []float64{1 << 10, 1 << 20, 1 << 30} {
		if v >= k {
			u = k
		}
	}
	s := niceScale(v / u)
	if u == 1 {
		s.Step = max(1, math.Round(s.Step)) // whole bytes
		s.Max = math.Ceil(v/s.Step) * s.Step
	}
	return scale{s.Max * u, s.Step * u}
}

// ticks returns 0, s.Step, … up to s.Max.
func (s scale) ticks(out []float64) []float64 {
	out = out[:0]
	n := int(math.Round(s.Max / s.Step))
	for i := range min(n, 20) + 1 {
		out = append(out, float64(i)*s.Step)
	}
	return out
}

// trim writes v with up to 3 significant digits and no trailing zeros.
func trim(v float64) string {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return strconv.FormatFloat(v, 'f', -1, 64) // 4000, not 4e+03
}

// axisRate writes a round rate for an axis: "400 Gb/s", "1.5 Tb/s", "0".
func axisRate(bps float64) string {
	g := bps / 1e9
	switch {
	case g == 0:
		return "0"
	case g >= 1000:
		return trim(g/1000) + " Tb/s"
	case g < 1:
		return trim(g*1000) + " Mb/s"
	}
	return trim(g) + " Gb/s"
}

// axisBytes writes a round byte count for an axis in powers of 1024:
// "2 MiB", "512 KiB", "0".
func axisBytes(b float64) string {
	switch {
	case b == 0:
		return "0"
	case b >= 1<<30:
		return trim(b/(1<<30)) + " GiB"
	case b >= 1<<20:
		return trim(b/(1<<20)) + " MiB"
	case b >= 1<<10:
		return trim(b/(1<<10)) + " KiB"
	}
	return trim(b) + " B"
}

// timeScale is the x axis from t0 to t1: round ticks inside the span.
func timeScale(t0, t1 unit.Time) (first, step unit.Time) {
	span := max(float64(t1-t0), 1)
	st := niceCeil(span / 4)
	if span/st < 2.5 { // too few ticks: a finer step
		st = niceCeil(span / 6)
	}
	step = unit.Time(max(st, 1))
	first = (t0 + step - 1) / step * step
	return first, step
}

// axisTime writes a tick's time in the unit of its size (ns, µs, ms, s),
// with as many decimals as the step needs: "250 µs", "1.5 ms".
func axisTime(t, step unit.Time) string {
	us, sus := t.Micros(), step.Micros()
	name, div := " µs", 1.0
	switch m := max(us, sus); { // the unit of the tick's size: "800 µs", "1.2 ms"
	case m < 1:
		name, div = " ns", 1e-3
	case m >= 1e6:
		name, div = " s", 1e6
	case m >= 1000:
		name, div = " ms", 1e3
	}
	dec := 0 // as many as the step has: 0.25 ms → 2
	for x := sus / div; dec < 3 && math.Abs(x-math.Round(x)) > 1e-6*max(1, x); x *= 10 {
		dec++
	}
	return strconv.FormatFloat(us/div, 'f', dec, 64) + name
}
