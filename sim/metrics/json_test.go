package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filler sets every field of a value at random, zero often enough that each
// omitempty is taken both ways; a field added to Result and not to
// AppendJSON makes the comparison fail.
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

func checkSame(t *testing.T, r *Result) {
	want, err := json.MarshalIndent(r, "", "  ")
	require.NoError(t, err)
	got, ok := r.AppendJSON(nil)
	require.True(t, ok)
	require.Equal(t, string(want), string(got))
}

// TestAppendJSON: AppendJSON writes what encoding/json writes, byte for byte.
func TestAppendJSON(t *testing.T) {
	checkSame(t, &Result{})
	for seed := uint64(0); seed < 2000; seed++ {
		checkSame(t, randomResult(seed, ""))
	}
	// Appends: what was there stays.
	got, ok := (&Result{Scenario: "x"}).AppendJSON([]byte("prefix "))
	require.True(t, ok)
	want, _ := json.MarshalIndent(&Result{Scenario: "x"}, "", "  ")
	assert.Equal(t, "prefix "+string(want), string(got))
}

// TestAppendJSONNotFinite: NaN and infinities are refused, as encoding/json does.
func TestAppendJSONNotFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := &Result{Flows: []Flow{{Gbps: v}}}
		_, ok := r.AppendJSON(nil)
		assert.False(t, ok, "%v", v)
		_, err := json.Marshal(r)
		assert.Error(t, err)
	}
	_, ok := (&Result{Flows: []Flow{{Gbps: 1}}}).AppendJSON(nil)
	assert.True(t, ok)
}

func FuzzAppendJSON(f *testing.F) {
	f.Add(uint64(1), "")
	f.Add(uint64(7), "\x00<script>\u2028\xc3")
	f.Fuzz(func(t *testing.T, seed uint64, text string) {
		checkSame(t, randomResult(seed, text))
	})
}

// full is a Result with every pointer set and every slice of one element.
func full(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			full(v.Field(i))
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		full(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		full(v.Index(0))
	case reflect.Float64:
		v.SetFloat(1.5)
	}
}

// floatsOf lists every float64 in v, settable.
func floatsOf(v reflect.Value, path string, out map[string]reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			floatsOf(v.Field(i), path+"."+v.Type().Field(i).Name, out)
		}
	case reflect.Pointer:
		floatsOf(v.Elem(), path, out)
	case reflect.Slice:
		floatsOf(v.Index(0), path+"[0]", out)
	case reflect.Float64:
		out[path] = v
	}
}

// TestFinite: a NaN or an infinity in any float of a result, and finite says
// so (encoding/json would refuse it); WriteJSON then writes nothing.
func TestFinite(t *testing.T) {
	var r Result
	full(reflect.ValueOf(&r).Elem())
	require.True(t, r.finite())
	fs := map[string]reflect.Value{}
	floatsOf(reflect.ValueOf(&r).Elem(), "Result", fs)
	require.Greater(t, len(fs), 40)
	for path, v := range fs {
		for _, bad := range []float64{math.NaN(), math.Inf(-1)} {
			v.SetFloat(bad)
			_, err := json.Marshal(&r)
			require.Error(t, err, path)
			assert.False(t, r.finite(), "%s = %v", path, bad)
			var out bytes.Buffer
			ok, err := r.WriteJSON(&out)
			assert.False(t, ok, path)
			assert.NoError(t, err)
			assert.Zero(t, out.Len(), path)
		}
		v.SetFloat(1.5)
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

// TestWriteJSON: WriteJSON writes what encoding/json's Encoder writes, in
// pieces of about flushAt for a large result, and reports the sink's error.
func TestWriteJSON(t *testing.T) {
	for seed := uint64(0); seed < 300; seed++ {
		r := randomResult(seed, "")
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		require.NoError(t, enc.Encode(r))
		var got countingWriter
		ok, err := r.WriteJSON(&got)
		require.True(t, ok)
		require.NoError(t, err)
		require.Equal(t, want.String(), got.String())
		require.Equal(t, 1, got.writes, "a small result in one write")
	}
	big := &Result{Scenario: "big"}
	for i := range 5000 {
		big.Flows = append(big.Flows, Flow{Src: i, Bytes: 1 << 20, FctUs: float64(i) / 7})
	}
	want, err := json.MarshalIndent(big, "", "  ")
	require.NoError(t, err)
	var got countingWriter
	ok, err := big.WriteJSON(&got)
	require.True(t, ok)
	require.NoError(t, err)
	require.Equal(t, string(want)+"\n", got.String())
	assert.Equal(t, len(want)/flushAt+1, got.writes, "%d bytes", len(want))

	failing := countingWriter{fail: errors.New("disk full")}
	ok, err = big.WriteJSON(&failing)
	assert.True(t, ok)
	assert.EqualError(t, err, "disk full")
	assert.Equal(t, 1, failing.writes, "no more writes after the first error")
}

// BenchmarkWriteJSON: a result the size of the 16k hierarchical all-reduce's
// links list (131 k links, 24 MB of JSON).
func BenchmarkWriteJSON(b *testing.B) {
	r := &Result{Scenario: "bench"}
	for i := range 131072 {
		r.Links = append(r.Links, Link{ID: i, Name: "n123.gpu4→n123.nvswitch", Kind: "nvlink4", Gbps: 3600, Util: float64(i%1000) / 1e3, MaxQueueBytes: int64(i)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMilli: the k/1000 fast path writes what strconv writes, for whole
// ranges of k and for random ones up to 1e12.
func TestMilli(t *testing.T) {
	check := func(f float64) {
		var w jsonWriter
		if !w.milli(f) {
			return
		}
		want := strconv.FormatFloat(f, 'f', -1, 64)
		if string(w.b) != want {
			t.Fatalf("milli(%v) = %s, strconv %s", f, w.b, want)
		}
	}
	taken := 0
	for k := -200000; k <= 200000; k++ {
		check(float64(k) / 1000)
		var w jsonWriter
		if w.milli(float64(k) / 1000) {
			taken++
		}
	}
	assert.Equal(t, 400000, taken, "every k/1000 but 0")
	r := rand.New(rand.NewPCG(3, 4))
	for range 300000 {
		k := r.Int64N(1e15) - 5e14
		check(float64(k) / 1000)
		check(Round(r.NormFloat64()*math.Pow(10, float64(r.IntN(16)-4)), 3))
		check(r.Float64() * 1e6)
	}
}
