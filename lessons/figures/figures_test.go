package figures

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sampleResult = `{"totals": {"max_fct_us": 1371.433, "drops": 167371, "goodput_gbps": 391.467, "flows": 8},
 "flows": [{"gbps": 49.077, "fct_us": 420.3125, "bytes": 8388608, "finished": true}],
 "links": [{"id": 1, "name": "switch→host8", "util": 0.9984, "max_queue_bytes": 16620000},
           {"id": 2, "name": "a.b", "util": 0.5}, {"id": 3, "name": "a.b", "util": 0.5}],
 "collective": {"busbw_GBps": 370.25}, "scenario": "incast"}`

func TestPlaceholder(t *testing.T) {
	result, err := Decode([]byte(sampleResult))
	require.NoError(t, err)
	for _, tc := range []struct{ in, want, err string }{
		{in: "totals.max_fct_us", want: "1,371.4"},
		{in: " totals.max_fct_us | ms ", want: "1.37\u00a0ms"},
		{in: "totals.max_fct_us | us", want: "1,371\u00a0µs"},
		{in: "totals.max_fct_us | ms 3", want: "1.371\u00a0ms"},
		{in: "totals.max_fct_us | 0", want: "1,371"},
		{in: "totals.max_fct_us | time", want: "1.37\u00a0ms"},
		{in: "flows[0].fct_us | time", want: "420\u00a0µs"},
		{in: "flows[0].fct_us | time 1", want: "420.3\u00a0µs"},
		{in: "totals.drops", want: "167,371"},
		{in: "totals.goodput_gbps | Gbps", want: "391\u00a0Gb/s"},
		{in: "totals.goodput_gbps | GBps 2", want: "48.93\u00a0GB/s"},
		{in: "collective.busbw_GBps | GBps", want: "370\u00a0GB/s"},
		{in: "collective.busbw_GBps | Gbps", want: "2,962\u00a0Gb/s"},
		{in: "flows[0].gbps | 1", want: "49.1"},
		{in: "flows[0].bytes | MiB", want: "8.00\u00a0MiB"},
		{in: "flows[0].finished", want: "true"},
		{in: "links[name=switch→host8].util | pct 1", want: "99.8%"},
		{in: "links[name=switch→host8].max_queue_bytes | MiB 1", want: "15.9\u00a0MiB"},
		{in: "links[id=3].util | pct", want: "50.0%"},
		{in: "scenario", want: "incast"},
		{in: "links[name=a.b].util", err: "2 items of links have name=a.b; select one by index or by id"},
		{in: "links[name=nope].util", err: "no item of links has name=nope; there are switch→host8, a.b, a.b"},
		{in: "totals.max_fct", err: `totals has no key "max_fct"; it has drops, flows, goodput_gbps, max_fct_us`},
		{in: "flows[3].gbps", err: "[3]: flows has 1 items; use an index from 0 to 0 or field=value"},
		{in: "totals[0]", err: "totals is not a list"},
		{in: "totals", err: "is a list or a group of keys, not a number"},
		{in: "totals.drops | ms", err: "| ms needs a time (a key ending in _us); drops is not one"},
		{in: "totals.drops | time", err: "| time needs a time (a key ending in _us)"},
		{in: "totals.drops | MiB", err: "| MiB needs a size"},
		{in: "totals.drops | Gbps", err: "| Gbps needs a rate"},
		{in: "scenario | 1", err: "is text"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			p, err := Parse(tc.in)
			require.NoError(t, err)
			got, err := p.Lookup(result)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPlaceholderSyntax(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{" ", "names no value"},
		{"| ms", "names no value"},
		{"flows[0", "[ without ]"},
		{"flows[]", "empty []"},
		{"totals..drops", "a dot must stand between two keys"},
		{".totals", "a dot must stand between two keys"},
		{"totals.drops | furlongs", `"furlongs" is neither a unit`},
		{"totals.drops | ms 9", `"9" is neither a unit`},
		{"totals.drops | ms 2 3", "write a unit"},
		{"totals drops", "is not a key"},
	} {
		_, err := Parse(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.err, tc.in)
	}
}

func TestGroup(t *testing.T) {
	for in, want := range map[string]string{"0": "0", "999": "999", "1000": "1,000", "-1234567.25": "-1,234,567.25", "12.5": "12.5"} {
		assert.Equal(t, want, group(in), in)
	}
}

// noInternals checks that a message about input has no Go formatting
// mistakes or internals in it (unless the input itself does).
func noInternals(t *testing.T, msg, input string) {
	t.Helper()
	for _, bad := range []string{"%!", "<nil>", "Go struct", "Go value", "runtime error"} {
		if !strings.Contains(input, bad) {
			assert.NotContains(t, msg, bad, "input %q", input)
		}
	}
}

func FuzzPlaceholder(f *testing.F) {
	result, err := Decode([]byte(sampleResult))
	require.NoError(f, err)
	for _, s := range []string{"totals.max_fct_us | ms", "links[name=switch→host8].util | pct 1", "flows[0].gbps | GBps 2", "a[[b]].c", "x | 1 2", "links[id=2]",
		"totals.drops", "totals.drops | 3", " flows[1].fct_us|us ", "totals.max_fct_us | ms 7", "a..b", "a[", "[]", "a b", "| ms", "flows[9].gbps", "flows[0]", "totals.goodput_gbps | Gbps x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := Parse(in)
		if err != nil {
			// The message quotes what is wrong: the path, the format or the whole.
			msg := err.Error()
			noInternals(t, msg, in)
			assert.True(t, strings.Contains(msg, "path ") || strings.Contains(msg, "format ") || strings.Contains(msg, "names no value"), "%q: %v", in, err)
			return
		}
		require.NotEmpty(t, p.Steps)
		// The steps spell the path (the dot between a ] and a key may be left out).
		assert.Equal(t, strings.ReplaceAll(p.Path, ".", ""), strings.ReplaceAll(strings.Join(p.Steps, ""), ".", ""), "the steps spell the path")
		assert.True(t, p.Decimals >= -1 && p.Decimals <= 6)
		assert.True(t, p.Unit == "" || slices.Contains(Units, p.Unit))
		// Written back, it reads the same.
		again, err := Parse(p.String())
		require.NoError(t, err, "%q written as %q", in, p.String())
		assert.Equal(t, p, again, "%q written as %q", in, p.String())

		out, err := p.Lookup(result)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), p.Path+": "), "a lookup error starts with the path: %v", err)
			noInternals(t, err.Error(), in)
			return
		}
		if p.Decimals >= 0 {
			num := strings.TrimLeft(out, "-0123456789,.")
			num = strings.TrimSuffix(out, num)
			_, frac, _ := strings.Cut(num, ".")
			assert.Len(t, frac, p.Decimals, "%q shows %q", in, out)
		}
	})
}
