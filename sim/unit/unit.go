// Package unit holds the simulation's physical quantities: time in integer
// picoseconds, sizes in bytes and rates in bits per second, with parsing and
// readable printing.
package unit

import (
	"math"
	"strconv"
	"strings"

	"fabriclab/sim/msg"
)

// Time is simulated time in picoseconds. It covers about 106 days.
type Time int64

const (
	Picosecond  Time = 1
	Nanosecond  Time = 1000
	Microsecond Time = 1000 * Nanosecond
	Millisecond Time = 1000 * Microsecond
	Second      Time = 1000 * Millisecond
)

// Never is a time later than any event.
const Never Time = math.MaxInt64

// Micros returns t in microseconds.
func (t Time) Micros() float64 { return float64(t) / float64(Microsecond) }

// Seconds returns t in seconds.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// String prints t in the largest unit that keeps it at or above 1, e.g. "1.5us", "820ns", "12ms".
func (t Time) String() string {
	if t == Never {
		return "never"
	}
	a := t
	if a < 0 {
		a = -a
	}
	switch {
	case a >= Second:
		return trim(float64(t)/float64(Second)) + "s"
	case a >= Millisecond:
		return trim(float64(t)/float64(Millisecond)) + "ms"
	case a >= Microsecond:
		return trim(float64(t)/float64(Microsecond)) + "us"
	case a >= Nanosecond:
		return trim(float64(t)/float64(Nanosecond)) + "ns"
	}
	return strconv.FormatInt(int64(t), 10) + "ps"
}

func trim(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func round3(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

var timeUnits = []struct {
	suffix string
	scale  Time
}{{"ps", Picosecond}, {"ns", Nanosecond}, {"us", Microsecond}, {"µs", Microsecond}, {"ms", Millisecond}, {"s", Second}}

// ParseTime reads a duration such as "1us", "2.5ms", "500ns" or "0".
func ParseTime(s string) (Time, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	for _, u := range timeUnits { // two-letter suffixes come before "s"
		if num, ok := strings.CutSuffix(s, u.suffix); ok && num != "" {
			num = strings.TrimSpace(num)
			if n, err := strconv.ParseInt(num, 10, 64); err == nil { // exact: no float rounding
				if n > maxExact/int64(u.scale) || n < -maxExact/int64(u.scale) {
					return 0, msg.Errorf("time %q is too large (at most about 50 days)", s)
				}
				return Time(n) * u.scale, nil
			}
			v, err := strconv.ParseFloat(num, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				break
			}
			ps := v * float64(u.scale)
			if math.Abs(ps) > maxExact {
				return 0, msg.Errorf("time %q is too large (at most about 50 days)", s)
			}
			if math.Round(ps) == 0 && nonZero(num) {
				return 0, msg.Errorf("time %q is less than 1ps, the smallest step of simulated time: write 0, or at least 1ps", s)
			}
			return Time(math.Round(ps)), nil
		}
	}
	return 0, msg.Errorf("time %q is not a duration: write a number with a unit, e.g. 1us, 2.5ms, 500ns, 0", s)
}

// nonZero reports whether the number num (as written) is not zero, so that a
// value too small to hold is refused rather than read as 0, which some keys
// take as "no limit" or "derive it".
func nonZero(num string) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(num), "e")
	return strings.ContainsAny(mantissa, "123456789")
}

// maxExact bounds parsed times and sizes to half the int64 range, so that sums
// of a few of them cannot overflow.
const maxExact = math.MaxInt64 / 2

// Bytes is a size in bytes.
type Bytes int64

const (
	Byte Bytes = 1
	KB   Bytes = 1000
	MB   Bytes = 1000 * KB
	GB   Bytes = 1000 * MB
	KiB  Bytes = 1024
	MiB  Bytes = 1024 * KiB
	GiB  Bytes = 1024 * MiB
	TiB  Bytes = 1024 * GiB
)

// String prints b with a binary unit when it divides evenly, else in bytes or decimal units.
func (b Bytes) String() string {
	for _, u := range []struct {
		n string
		v Bytes
	}{{"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}} {
		if b != 0 && b%u.v == 0 {
			return strconv.FormatInt(int64(b/u.v), 10) + u.n
		}
	}
	switch a := max(b, -b); {
	case a >= GB:
		return round3(float64(b)/float64(GB)) + "GB"
	case a >= MB:
		return round3(float64(b)/float64(MB)) + "MB"
	case a >= 10*KB:
		return round3(float64(b)/float64(KB)) + "KB"
	}
	return strconv.FormatInt(int64(b), 10) + "B"
}

var byteUnits = []struct {
	suffix string
	scale  Bytes
}{{"TiB", TiB}, {"GiB", GiB}, {"MiB", MiB}, {"KiB", KiB}, {"TB", 1000 * GB}, {"GB", GB}, {"MB", MB}, {"KB", KB}, {"kB", KB}, {"B", Byte}}

// ParseBytes reads a size such as "64MiB", "2MB", "4096" or "1.5GiB".
func ParseBytes(s string) (Bytes, error) {
	s = strings.TrimSpace(s)
	num, scale := s, Byte
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, scale = strings.TrimSpace(n), u.scale
			break
		}
	}
	if n, err := strconv.ParseInt(num, 10, 64); err == nil { // exact: no float rounding
		if n > maxExact/int64(scale) || n < -maxExact/int64(scale) {
			return 0, msg.Errorf("size %q is too large", s)
		}
		return Bytes(n) * scale, nil
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, msg.Errorf("size %q is not a size: write a number with a unit, e.g. 4096, 2MB, 64MiB, 1GiB", s)
	}
	b := v * float64(scale)
	if math.Abs(b) > maxExact {
		return 0, msg.Errorf("size %q is too large", s)
	}
	if math.Round(b) == 0 && nonZero(num) {
		return 0, msg.Errorf("size %q is less than 1 byte: write 0, or at least 1B", s)
	}
	if r := math.Round(b); math.Abs(b-r) > max(1e-6, math.Abs(b)*1e-12) { // tolerate float noise such as 1.1KB
		return 0, msg.Errorf("size %q is not a whole number of bytes", s)
	}
	return Bytes(math.Round(b)), nil
}

// Rate is a data rate in bits per second.
type Rate float64

const (
	BitPerSecond Rate = 1
	Gbps         Rate = 1e9
)

// Gbps returns r in Gb/s.
func (r Rate) Gbps() float64 { return float64(r) / 1e9 }

// GBps returns r in GB/s (1 GB = 1e9 bytes).
func (r Rate) GBps() float64 { return float64(r) / 8e9 }

func (r Rate) String() string { return round3(r.Gbps()) + "Gbps" }

// TxTime is the time to put n bytes on a wire at rate r, rounded up to a picosecond.
func (r Rate) TxTime(n Bytes) Time {
	return Time(math.Ceil(float64(n) * 8 * 1e12 / float64(r)))
}

// RateOf is the rate that moves n bytes in t.
func RateOf(n Bytes, t Time) Rate {
	if t <= 0 {
		return 0
	}
	return Rate(float64(n) * 8 / t.Seconds())
}
