package unit

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestParseTime(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Time
	}{
		{"0", 0},
		{"1ps", Picosecond},
		{"820ns", 820 * Nanosecond},
		{"1us", Microsecond},
		{"1µs", Microsecond},
		{" 1.5us ", 1500 * Nanosecond},
		{"2.5ms", 2500 * Microsecond},
		{"12ms", 12 * Millisecond},
		{"3s", 3 * Second},
		{"1 us", Microsecond},
		{"-1us", -Microsecond},
		{"4611686018427387903ps", math.MaxInt64 / 2}, // exact, not via float64
		{"9007199254740993ps", 9007199254740993},     // 2^53+1: float64 would round it
	} {
		got, err := ParseTime(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestParseTimeErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "is not a duration"},
		{"1", `time "1" is not a duration: write a number with a unit`},
		{"us", "is not a duration"},
		{"1 hour", "is not a duration"},
		{"NaNs", "is not a duration"},
		{"infs", "is not a duration"},
		{"1e300s", "is too large"},
		{"4611686018427387904ps", "is too large"},
		{"-9223372036854775807ns", "is too large"},
	} {
		_, err := ParseTime(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.want, tc.in)
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Bytes
	}{
		{"0", 0},
		{"4096", 4096},
		{"4096B", 4096},
		{"2MB", 2 * MB},
		{"2 MB", 2 * MB},
		{"1.1KB", 1100},
		{"12kB", 12 * KB},
		{"64MiB", 64 * MiB},
		{"1.5GiB", 3 * GiB / 2},
		{"1TiB", TiB},
		{"2TB", 2000 * GB},
		{"-4KiB", -4 * KiB},
		{"9007199254740993", 9007199254740993},
	} {
		got, err := ParseBytes(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestParseBytesErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "is not a size"},
		{"MiB", "is not a size"},
		{"four", "is not a size"},
		{"1.5", "is not a whole number of bytes"},
		{"0.1KiB", "is not a whole number of bytes"},
		{"NaN", "is not a size"},
		{"1e30", "is too large"},
		{"5000000TiB", "is too large"},
	} {
		_, err := ParseBytes(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.want, tc.in)
	}
}

func TestTimeText(t *testing.T) {
	for _, tc := range []struct {
		t    Time
		text string
	}{
		{0, "0ps"},
		{Picosecond, "1ps"},
		{820 * Nanosecond, "820ns"},
		{1500 * Nanosecond, "1.5us"},
		{12 * Millisecond, "12ms"},
		{100 * Second, "100s"},
		{Never, "never"},
		{123456789012345678, "123456789012345678ps"}, // String would print 123456.78901234568s
		{math.MaxInt64 / 2, "4611686018427387903ps"},
	} {
		text, err := tc.t.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, tc.text, string(text))

		var back Time
		require.NoError(t, back.UnmarshalText(text), tc.text)
		assert.Equal(t, tc.t, back, tc.text)
	}
}

func TestBytesText(t *testing.T) {
	for _, tc := range []struct {
		b    Bytes
		text string
	}{
		{0, "0B"},
		{100, "100B"},
		{4096, "4KiB"},
		{12345, "12.345KB"},
		{1234567, "1234567B"}, // String would print 1.235MB
		{2 * MB, "2MB"},
		{64 * MiB, "64MiB"},
		{TiB, "1TiB"},
	} {
		text, err := tc.b.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, tc.text, string(text))

		var back Bytes
		require.NoError(t, back.UnmarshalText(text), tc.text)
		assert.Equal(t, tc.b, back, tc.text)
	}
}

func TestUnmarshalTextRejectsNegative(t *testing.T) {
	var tm Time
	err := tm.UnmarshalText([]byte("-1us"))
	require.Error(t, err)
	assert.Equal(t, `time "-1us" is negative: it must be ≥ 0`, err.Error())

	var b Bytes
	err = b.UnmarshalText([]byte("-4096"))
	require.Error(t, err)
	assert.Equal(t, `size "-4096" is negative: it must be ≥ 0`, err.Error())
}

type quantities struct {
	MTU    Bytes `yaml:"mtu" json:"mtu"`
	Buffer Bytes `yaml:"buffer" json:"buffer"`
	RTO    Time  `yaml:"rto" json:"rto"`
	Start  Time  `yaml:"start" json:"start"`
}

// TestYAML checks that go.yaml.in/yaml/v3 hands plain integer scalars to
// UnmarshalText too, not only strings.
func TestYAML(t *testing.T) {
	var q quantities
	require.NoError(t, yaml.Unmarshal([]byte("mtu: 4096\nbuffer: 2MiB\nrto: 100us\nstart: 0\n"), &q))
	assert.Equal(t, quantities{MTU: 4096, Buffer: 2 * MiB, RTO: 100 * Microsecond, Start: 0}, q)

	err := yaml.Unmarshal([]byte("mtu: -1\n"), &q)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "must be ≥ 0")

	out, err := yaml.Marshal(q)
	require.NoError(t, err)
	assert.Equal(t, "mtu: 4KiB\nbuffer: 2MiB\nrto: 100us\nstart: 0ps\n", string(out))
}

func TestJSON(t *testing.T) {
	q := quantities{MTU: 4096, Buffer: 2 * MiB, RTO: 1500 * Nanosecond}
	out, err := json.Marshal(q)
	require.NoError(t, err)
	assert.JSONEq(t, `{"mtu":"4KiB","buffer":"2MiB","rto":"1.5us","start":"0ps"}`, string(out))

	var back quantities
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, q, back)
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"0", "1us", "2.5ms", "-3ns", "1e300s", "µs", "0x1p-2ns", "never", "9223372036854775807ps", "1.234567us", "1234567891ps", "nope", " 1 us ", " nope "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTime(s)
		if err != nil {
			assert.Contains(t, err.Error(), strconv.Quote(strings.TrimSpace(s)), "the error quotes the input")
			return
		}
		// String reads back exactly while float64 holds a picosecond (|v| ≤ 2^50 ps,
		// about 19 minutes), and then MarshalText prints it the same.
		read, err := ParseTime(v.String())
		require.NoError(t, err, "%q printed as %q", s, v.String())
		if v > -1<<50 && v < 1<<50 {
			assert.Equal(t, v, read, "%q printed as %q", s, v.String())
			text, _ := v.MarshalText()
			assert.Equal(t, v.String(), string(text))
		} else {
			assert.InEpsilon(t, float64(v), float64(read), 1e-15, "%q printed as %q", s, v.String())
		}
		text, err := v.MarshalText()
		require.NoError(t, err)
		var back Time
		err = back.UnmarshalText(text)
		if v < 0 {
			require.Error(t, err)
			return
		}
		require.NoError(t, err, "%q printed as %q", s, text)
		require.Equal(t, v, back, "%q printed as %q", s, text)
	})
}

func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"0", "4096", "64MiB", "1.5GiB", "-2KB", "1e30", "0.5B", "12.345KB", "123456789", "3KiB", "x", " 2 MB ", " x "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseBytes(s)
		if err != nil {
			assert.Contains(t, err.Error(), strconv.Quote(strings.TrimSpace(s)), "the error quotes the input")
			return
		}
		// String is exact in binary units and below 10 KB, else rounded to
		// three decimals of KB, MB or GB.
		read, err := ParseBytes(v.String())
		require.NoError(t, err, "%q printed as %q", s, v.String())
		if a := max(v, -v); v%KiB == 0 || a < 10*KB {
			assert.Equal(t, v, read, "%q printed as %q", s, v.String())
		} else {
			step := map[bool]Bytes{true: KB, false: MB}[a < MB] // the unit printed
			if a >= GB {
				step = GB
			}
			assert.InDelta(t, float64(v), float64(read), float64(step)/2000, "%q printed as %q", s, v.String())
		}
		text, err := v.MarshalText()
		require.NoError(t, err)
		var back Bytes
		err = back.UnmarshalText(text)
		if v < 0 {
			require.Error(t, err)
			return
		}
		require.NoError(t, err, "%q printed as %q", s, text)
		require.Equal(t, v, back, "%q printed as %q", s, text)
	})
}

// Rates read from text and print back to the same value.
func TestRateText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rate
		out  string
	}{{"5Mbps", 5e6, "5Mbps"}, {"1.5Gbps", 1.5e9, "1.5Gbps"}, {"400Gbps", 400e9, "400Gbps"}, {"80000000", 80e6, "80Mbps"}, {"0", 0, "0bps"}, {"2Tbps", 2e12, "2Tbps"}, {"1e+06", 1e6, "1Mbps"}} {
		var r Rate
		require.NoError(t, r.UnmarshalText([]byte(tc.in)), tc.in)
		assert.Equal(t, tc.want, r, tc.in)
		out, err := r.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, tc.out, string(out), tc.in)
	}
	var r Rate
	assert.Error(t, r.UnmarshalText([]byte("-5Mbps")), "negative")
	assert.Error(t, r.UnmarshalText([]byte("fast")))
	assert.Error(t, r.UnmarshalText([]byte("NaNbps")))
}

// TestBelowResolution: a value that is not zero but rounds to zero is
// refused, naming the smallest value the unit holds; 0 itself (which some
// keys read as "no limit" or "derive it") stays 0.
func TestBelowResolution(t *testing.T) {
	for _, tc := range []struct {
		in    string
		parse func(string) error
		says  string
	}{
		{"0.1ps", func(s string) error { _, err := ParseTime(s); return err }, "at least 1ps"},
		{"0.0004ns", func(s string) error { _, err := ParseTime(s); return err }, "at least 1ps"},
		{"1e-400us", func(s string) error { _, err := ParseTime(s); return err }, "at least 1ps"},
		{"0.0000001B", func(s string) error { _, err := ParseBytes(s); return err }, "at least 1B"},
		{"1e-400KiB", func(s string) error { _, err := ParseBytes(s); return err }, "at least 1B"},
		{"0.5B", func(s string) error { _, err := ParseBytes(s); return err }, "not a whole number of bytes"},
		{"1e-400Gbps", func(s string) error { _, err := ParseRate(s); return err }, "at least 1bps"},
	} {
		err := tc.parse(tc.in)
		if assert.Error(t, err, tc.in) {
			assert.Contains(t, err.Error(), tc.says, tc.in)
			assert.Contains(t, err.Error(), tc.in, "the message quotes the value")
		}
	}
	for _, zero := range []string{"0", "0ps", "0.0us", "0e5ns"} {
		v, err := ParseTime(zero)
		assert.NoError(t, err, zero)
		assert.Zero(t, v, zero)
	}
	for _, zero := range []string{"0B", "0.0KiB"} {
		v, err := ParseBytes(zero)
		assert.NoError(t, err, zero)
		assert.Zero(t, v, zero)
	}
	r, err := ParseRate("0bps")
	assert.NoError(t, err)
	assert.Zero(t, r)
	v, err := ParseTime("1.4ps")
	assert.NoError(t, err, "rounding to a non-zero step is fine")
	assert.Equal(t, Picosecond, v)
}
