package render

import (
	"strconv"

	"fabriclab/sim/unit"
)

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

// fmtBytes writes a byte count in powers of 1000.
func fmtBytes(b float64) string {
	switch {
	case b < 1000:
		return strconv.FormatFloat(b, 'f', 0, 64) + " B"
	case b < 1e6:
		return strconv.FormatFloat(b/1e3, 'f', 1, 64) + " kB"
	case b < 1e9:
		return strconv.FormatFloat(b/1e6, 'f', 2, 64) + " MB"
	}
	return strconv.FormatFloat(b/1e9, 'f', 2, 64) + " GB"
}

// fmtRate writes bits per second as Gb/s or Tb/s.
func fmtRate(bps float64) string {
	g := bps / 1e9
	switch {
	case g < 10:
		return strconv.FormatFloat(g, 'f', 2, 64) + " Gb/s"
	case g < 1000:
		return strconv.FormatFloat(g, 'f', 1, 64) + " Gb/s"
	}
	return strconv.FormatFloat(g/1000, 'f', 2, 64) + " Tb/s"
}

// fmtPct writes a share as a whole percentage.
func fmtPct(v float64) string { return strconv.Itoa(int(v*100+0.5)) + "%" }

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := 1.0
	for p*10 <= v {
		p *= 10
	}
	for p > v {
		p /= 10
	}
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if p*m >= v {
			return p * m
		}
	}
	return p * 10
}

// axisRate writes a round rate for an axis: "400 Gb/s", "1.5 Tb/s".
func axisRate(bps float64) string {
	g := bps / 1e9
	if g >= 1000 {
		return strconv.FormatFloat(g/1000, 'g', 3, 64) + " Tb/s"
	}
	return strconv.FormatFloat(g, 'g', 3, 64) + " Gb/s"
}

// axisBytes writes a round byte count for an axis: "20 MB", "500 kB".
func axisBytes(b float64) string {
	switch {
	case b >= 1e9:
		return strconv.FormatFloat(b/1e9, 'g', 3, 64) + " GB"
	case b >= 1e6:
		return strconv.FormatFloat(b/1e6, 'g', 3, 64) + " MB"
	case b >= 1e3:
		return strconv.FormatFloat(b/1e3, 'g', 3, 64) + " kB"
	}
	return strconv.FormatFloat(b, 'g', 3, 64) + " B"
}
