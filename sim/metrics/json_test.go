package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filler sets every field of a value at random, zero often enough that each
// omitempty is taken both ways, and nil and empty slices both.
type filler struct {
	r    *rand.Rand
	text string // one of the strings used
}

var floatCases = []float64{0, math.Copysign(0, -1), 1, -1, 0.001, -0.001, 0.1, 0.12, 999999999999.999, 1e12, -1e12 + 0.001, 1e12 - 0.5, 3600, 0.3, 2.675, 1.005, 0.5, 1e-6, 9.99e-7, 1e-7, -3e-9, 1e20, 1e21, 1.5e300, 5e-324, 123456.789, 2450.835, -0.001}

func (f *filler) fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f.fill(v.Field(i))
		}
	case reflect.Pointer:
		if f.r.IntN(3) > 0 {
			v.Set(reflect.New(v.Type().Elem()))
			f.fill(v.Elem())
		}
	case reflect.Slice:
		switch f.r.IntN(4) {
		case 0: // nil
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + f.r.IntN(3)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := 0; i < n; i++ {
				f.fill(v.Index(i))
			}
		}
	case reflect.String:
		texts := []string{"", "perm-1024", "pod0.agg1→core3", `a"b\c`, "<&>", "tab\there\nline\r\b\f\x01\x1f", "\u2028\u2029", "bad \xff\xfe utf8", "中文", f.text}
		v.SetString(texts[f.r.IntN(len(texts))])
	case reflect.Float64:
		x := f.r.NormFloat64() * math.Pow(10, float64(f.r.IntN(40)-20))
		switch f.r.IntN(4) {
		case 0:
			v.SetFloat(floatCases[f.r.IntN(len(floatCases))])
		case 1:
			v.SetFloat(x)
		default: // as reports round them
			v.SetFloat(Round(x, 3))
		}
	case reflect.Int, reflect.Int64:
		vals := []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64, f.r.Int64()}
		v.SetInt(vals[f.r.IntN(len(vals))])
	case reflect.Uint64:
		vals := []uint64{0, 1, math.MaxUint64, f.r.Uint64()}
		v.SetUint(vals[f.r.IntN(len(vals))])
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	default:
		panic("filler: no case for " + v.Type().String())
	}
}

func randomResult(seed uint64, text string) *Result {
	var r Result
	f := filler{r: rand.New(rand.NewPCG(seed, 1)), text: text}
	f.fill(reflect.ValueOf(&r).Elem())
	return &r
}

// encoderJSON is what WriteJSON must write: encoding/json's Encoder, indented.
func encoderJSON(t testing.TB, v any) string {
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	return want.String()
}

func checkSame(t *testing.T, r *Result) {
	var got countingWriter
	require.NoError(t, r.WriteJSON(&got))
	require.Equal(t, encoderJSON(t, r), got.String())
	require.Equal(t, 1, got.writes, "a small result in one write")
}

// TestWriteJSON: WriteJSON writes what encoding/json's indenting Encoder
// writes, byte for byte, on random results.
func TestWriteJSON(t *testing.T) {
	checkSame(t, &Result{})
	for seed := uint64(0); seed < 2000; seed++ {
		checkSame(t, randomResult(seed, ""))
	}
}

func FuzzWriteJSON(f *testing.F) {
	f.Add(uint64(1), "")
	f.Add(uint64(7), "\x00<script>\u2028\xc3\\\"}]")
	f.Fuzz(func(t *testing.T, seed uint64, text string) {
		checkSame(t, randomResult(seed, text))
	})
}

// TestIndent: what Result never holds, empty objects and deep nesting, is
// indented as json.Indent does it.
func TestIndent(t *testing.T) {
	for _, src := range []string{
		`{}`, `[]`, `[{}]`, `{"a":{},"b":[],"c":[[],{}]}`,
		`{"s":"{[,:]}\\\"}","t":["\\",":"]}`,
		`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	} {
		var want bytes.Buffer
		require.NoError(t, json.Indent(&want, []byte(src), "", "  "), src)
		in := indenter{sink: io.Discard}
		in.indent([]byte(src))
		assert.Equal(t, want.String(), string(in.b), src)
	}
}

// TestWriteJSONNotFinite: a NaN or an infinity is refused, as encoding/json
// does, and nothing is written.
func TestWriteJSONNotFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var out bytes.Buffer
		err := (&Result{Flows: []Flow{{Gbps: v}}}).WriteJSON(&out)
		var unsupported *json.UnsupportedValueError
		assert.ErrorAs(t, err, &unsupported, "%v", v)
		assert.Zero(t, out.Len(), "%v", v)
	}
}

// countingWriter counts the writes it takes.
type countingWriter struct {
	bytes.Buffer
	writes int
	fail   error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	if c.fail != nil {
		return 0, c.fail
	}
	return c.Buffer.Write(p)
}

// TestWriteJSONPieces: a large result goes out in pieces of about flushAt,
// and the sink's first error is returned.
func TestWriteJSONPieces(t *testing.T) {
	big := &Result{Scenario: "big"}
	for i := range 5000 {
		big.Flows = append(big.Flows, Flow{Src: i, Bytes: 1 << 20, FctUs: float64(i) / 7})
	}
	want := encoderJSON(t, big)
	var got countingWriter
	require.NoError(t, big.WriteJSON(&got))
	require.Equal(t, want, got.String())
	assert.Equal(t, len(want)/flushAt+1, got.writes, "%d bytes", len(want))

	failing := countingWriter{fail: errors.New("disk full")}
	assert.EqualError(t, big.WriteJSON(&failing), "disk full")
	assert.Equal(t, 1, failing.writes, "no more writes after the first error")
}

// BenchmarkWriteJSON: a result the size of the 16k hierarchical all-reduce's
// links list (131 k links, 24 MB of JSON), by WriteJSON and by the indenting
// Encoder it replaces.
func BenchmarkWriteJSON(b *testing.B) {
	r := &Result{Scenario: "bench"}
	for i := range 131072 {
		r.Links = append(r.Links, Link{ID: i, Name: "n123.gpu4→n123.nvswitch", Kind: "nvlink4", Gbps: 3600, Util: float64(i%1000) / 1e3, MaxQueueBytes: int64(i)})
	}
	b.Run("WriteJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := r.WriteJSON(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Encoder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			enc := json.NewEncoder(io.Discard)
			enc.SetIndent("", "  ")
			if err := enc.Encode(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
