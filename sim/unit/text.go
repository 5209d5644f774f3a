package unit

import (
	"math"
	"strconv"
	"strings"

	"fabriclab/sim/msg"
)

// MarshalText prints t as String does ("1.5us", "never") when that reads back
// exactly, and in whole picoseconds ("1234567890123ps") otherwise. Every t with
// |t| ≤ MaxInt64/2, and Never, reads back with UnmarshalText.
func (t Time) MarshalText() ([]byte, error) {
	s := t.String()
	if t != Never {
		if back, err := ParseTime(s); err != nil || back != t {
			s = strconv.FormatInt(int64(t), 10) + "ps"
		}
	}
	return []byte(s), nil
}

// UnmarshalText reads a duration as ParseTime does, or "never". Negative
// times are rejected.
func (t *Time) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	if s == "never" {
		*t = Never
		return nil
	}
	v, err := ParseTime(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return msg.Errorf("time %q is negative: it must be ≥ 0", s)
	}
	*t = v
	return nil
}

// MarshalText prints b as String does ("64MiB", "2MB") when that reads back
// exactly, and in bytes ("1234567B") otherwise. Every b with |b| ≤ MaxInt64/2
// reads back with UnmarshalText.
func (b Bytes) MarshalText() ([]byte, error) {
	s := b.String()
	if back, err := ParseBytes(s); err != nil || back != b {
		s = strconv.FormatInt(int64(b), 10) + "B"
	}
	return []byte(s), nil
}

// UnmarshalText reads a size as ParseBytes does. Negative sizes are rejected.
func (b *Bytes) UnmarshalText(text []byte) error {
	s := strings.TrimSpace(string(text))
	v, err := ParseBytes(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return msg.Errorf("size %q is negative: it must be ≥ 0", s)
	}
	*b = v
	return nil
}

// rateUnits are the suffixes ParseRate takes, in bits per second.
var rateUnits = []struct {
	suffix string
	scale  float64
}{{"Tbps", 1e12}, {"Gbps", 1e9}, {"Mbps", 1e6}, {"Kbps", 1e3}, {"bps", 1}}

// ParseRate reads a data rate such as "5Mbps", "1.5Gbps" or "400Gbps"; a
// plain number is bits per second.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	scale, num := 1.0, s
	for _, u := range rateUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			scale, num = u.scale, strings.TrimSpace(n)
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, msg.Errorf("rate %q is not a rate such as 5Mbps or 1Gbps", s)
	}
	if v*scale == 0 && nonZero(num) {
		return 0, msg.Errorf("rate %q is too small to hold: write 0, or at least 1bps", s)
	}
	return Rate(v * scale), nil
}

// UnmarshalText reads a rate as ParseRate does. Negative rates are rejected.
func (r *Rate) UnmarshalText(text []byte) error {
	v, err := ParseRate(string(text))
	if err != nil {
		return err
	}
	if v < 0 {
		return msg.Errorf("rate %q is negative: it must be ≥ 0", strings.TrimSpace(string(text)))
	}
	*r = v
	return nil
}

// MarshalText prints r in the largest unit that reads back exactly ("5Mbps",
// "400Gbps", "0bps").
func (r Rate) MarshalText() ([]byte, error) {
	v := float64(r)
	for _, u := range rateUnits {
		if math.Abs(v) < u.scale && u.scale > 1 {
			continue
		}
		s := strconv.FormatFloat(v/u.scale, 'g', -1, 64) + u.suffix
		if back, err := ParseRate(s); err == nil && back == r {
			return []byte(s), nil
		}
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64) + "bps"), nil
}
