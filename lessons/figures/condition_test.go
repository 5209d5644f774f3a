package figures

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBytesFormat(t *testing.T) {
	for _, tc := range []struct {
		bytes float64
		want  string
	}{{0, "0\u00a0B"}, {512, "512\u00a0B"}, {1024, "1.00\u00a0KiB"}, {8 << 20, "8.00\u00a0MiB"}, {1 << 20, "1.00\u00a0MiB"}, {1023 << 20, "1,023\u00a0MiB"}, {3 << 30, "3.00\u00a0GiB"}, {1 << 40, "1,024\u00a0GiB"}} {
		p, err := Parse("flows[0].bytes | bytes")
		require.NoError(t, err)
		got, err := p.number(tc.bytes, "bytes")
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v bytes", tc.bytes)
	}
	p, err := Parse("totals.drops | bytes")
	require.NoError(t, err)
	_, err = p.number(1, "drops")
	assert.ErrorContains(t, err, "| bytes needs a size")
}

func TestCondition(t *testing.T) {
	result, err := Decode([]byte(sampleResult))
	require.NoError(t, err)
	for _, tc := range []struct {
		in   string
		want bool
		err  string
	}{
		{in: "totals.drops > 0", want: true},
		{in: "totals.drops<=167371", want: true},
		{in: "totals.drops < 167371", want: false},
		{in: "totals.drops == 167371", want: true},
		{in: "totals.drops != 167371", want: false},
		{in: "totals.flows >= 8", want: true},
		{in: "flows[0].bytes == 8MiB", want: true},
		{in: "flows[0].bytes > 8MiB", want: false},
		{in: "totals.goodput_gbps > 8 * flows[0].gbps", want: false},
		{in: "totals.goodput_gbps > 7.9 * flows[0].gbps", want: true},
		{in: "links[name=switch→host8].util > links[id=2].util", want: true},
		{in: "scenario == incast", want: true},
		{in: "scenario != incast", want: false},
		{in: "flows[0].finished == 1", want: true},
		{in: "totals.nope > 1", err: `totals has no key "nope"`},
		{in: "scenario > 1", err: "scenario is not a number"},
		{in: "totals.drops == incast", err: "totals.drops is not text"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseCondition(tc.in)
			require.NoError(t, err)
			got, err := c.Eval(result)
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			// Written back, it reads the same, and the canvas's Evaluate agrees.
			again, err := ParseCondition(strings.TrimPrefix(c.String(), "if "))
			require.NoError(t, err)
			assert.Equal(t, c, again)
			text, err := Evaluate(c.String(), result)
			require.NoError(t, err)
			assert.Equal(t, map[bool]string{true: "true", false: "false"}[tc.want], text)
		})
	}
}

func TestConditionSyntax(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"totals.drops", "compares nothing"},
		{"totals.drops >", "nothing to compare with"},
		{"totals.drops | 1 > 0", "a format (| …) has no place"},
		{"> 3", "names no value"},
		{"scenario < incast", "words compare with == or != only"},
		{"totals.drops > x * flows[0].gbps", "is not a number"},
		{"totals.drops > 2 * 3", "after * comes a value of the run"},
		{"totals.drops == two words", "is not a number, a word or a path"},
	} {
		_, err := ParseCondition(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.err, tc.in)
	}
}

func FuzzCondition(f *testing.F) {
	result, err := Decode([]byte(sampleResult))
	require.NoError(f, err)
	for _, s := range []string{"totals.drops > 0", "flows[0].bytes >= 1MiB", "scenario == incast", "a < 0.5 * b.c", "links[name=a>b].util != 1",
		"x", "> 1", "a.b <", "a.b == c d", "a.b > 1e400", "a.b > -0", "a.b <= [", "a.b == *"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := ParseCondition(in)
		if err != nil {
			msg := err.Error()
			noInternals(t, msg, in)
			assert.True(t, strings.HasPrefix(msg, "condition "), "%q: %v", in, err)
			return
		}
		again, err := ParseCondition(strings.TrimPrefix(c.String(), "if "))
		require.NoError(t, err, "%q written as %q", in, c.String())
		assert.Equal(t, c.String(), again.String(), "%q written as %q", in, c.String())
		if _, err := c.Eval(result); err != nil {
			noInternals(t, err.Error(), in)
		}
	})
}
