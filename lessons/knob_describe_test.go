package lessons

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons/figures"
	"fabriclab/sim"
	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

var han = regexp.MustCompile(`[\p{Han}\x{3000}-\x{303F}\x{FF00}-\x{FFEF}]`) // Chinese, with its full-width punctuation

// TestKnobDescriptions holds the description of every knob of every shipped
// lesson to what the page and the canvas rely on: positions with what they
// set, texts and numbers that say the values, what moving it changes, and a
// status line in the lesson's language that quotes figures the canvas can
// compute.
func TestKnobDescriptions(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	n := 0
	for _, l := range ls {
		for _, s := range l.Steps {
			sc, err := scenario.ParseWith([]byte(s.Scenario), "", nil)
			if len(s.Knobs) > 0 {
				require.NoError(t, err, "%s#%s", l.Source, s.ID)
			}
			for _, k := range s.Knobs {
				n++
				where := l.Source + "#" + s.ID + " " + k.Key
				checkKnobPositions(t, where, k)
				checkKnobTexts(t, where, l.Lang, k)
				checkKnobNumbers(t, where, k)
				want := ChangesRun
				if k.Key == "training.gpu_hour_price" {
					want = ChangesReport
				}
				assert.Equal(t, want, k.Changes, "%s: the price of a GPU-hour changes only the report, every other knob the run", where)
				checkKnobStatus(t, where, l.Lang, sc, k.Status)
			}
		}
	}
	assert.GreaterOrEqual(t, n, 40, "the shipped lessons' knobs")
}

func checkKnobPositions(t *testing.T, where string, k Knob) {
	t.Helper()
	require.True(t, len(k.Values) >= 2 && len(k.Values) <= MaxKnobPositions, "%s: %d values", where, len(k.Values))
	assert.Contains(t, k.Values, k.Default, "%s: the default is a position", where)
	require.Len(t, k.Sets, len(k.Values), "%s: every position sets something", where)
	for i, v := range k.Values {
		assert.NotContains(t, k.Values[:i], v, "%s: positions differ", where)
		assert.NotContains(t, k.Sets[:i], k.Sets[i], "%s: positions set different things", where)
		if k.Control == "toggle" && !slices.ContainsFunc(k.Sets[i], func(s string) bool { return strings.HasPrefix(s, k.Key+"=") }) {
			continue // a toggle named for what it does, with its own lists (sharing's neighbour, lossless-lossy's stuck)
		}
		assert.Equal(t, []string{k.Key + "=" + v}, k.Sets[i], "%s: a knob sets its key to its value", where)
	}
}

// checkKnobTexts: a slider shows its value with a space before its unit
// (µs for us) and Gb/s after a rate key's plain number; a select shows its
// values; a toggle off and on in the lesson's language.
func checkKnobTexts(t *testing.T, where, lang string, k Knob) {
	t.Helper()
	require.Len(t, k.Texts, len(k.Values), "%s: every position has a text", where)
	switch k.Control {
	case "toggle":
		want := []string{"off", "on"}
		if lang == "zh" {
			want = []string{"关", "开"}
		}
		assert.Equal(t, want, k.Texts, where)
	case "select":
		assert.Equal(t, k.Values, k.Texts, where)
	default:
		for i, v := range k.Values {
			text := strings.ReplaceAll(k.Texts[i], "µs", "us")
			if strings.HasSuffix(k.Key, "gbps") {
				assert.True(t, strings.HasSuffix(text, nbsp+"Gb/s"), "%s: %q says Gb/s", where, k.Texts[i])
				text = strings.TrimSuffix(text, nbsp+"Gb/s")
			}
			assert.Equal(t, v, strings.Replace(text, nbsp, "", 1), "%s: the text says the value", where)
		}
	}
}

// checkKnobNumbers: a slider's values as numbers in its unit, read back.
func checkKnobNumbers(t *testing.T, where string, k Knob) {
	t.Helper()
	if k.Control != "range" && k.Control != "values" {
		assert.Empty(t, k.Numbers, where)
		return
	}
	require.Len(t, k.Numbers, len(k.Values), "%s: every slider of the shipped lessons counts numbers, sizes or times", where)
	for i, v := range k.Values {
		var want float64
		switch k.Unit {
		case "B":
			b, err := unit.ParseBytes(v)
			require.NoError(t, err, where)
			want = float64(b)
		case "ps":
			d, err := unit.ParseTime(v)
			require.NoError(t, err, where)
			want = float64(d)
		default:
			f, err := strconv.ParseFloat(v, 64)
			require.NoError(t, err, "%s: unit %q", where, k.Unit)
			want = f
		}
		assert.Equal(t, want, k.Numbers[i], "%s: %s", where, v)
	}
	assert.Equal(t, strings.HasSuffix(k.Key, "gbps"), k.Unit == "Gb/s", "%s: a rate key counts Gb/s", where)
}

// checkKnobStatus: the status line quotes what the step runs, in figures
// the canvas can compute, in the lesson's language.
func checkKnobStatus(t *testing.T, where, lang string, sc scenario.Scenario, s *KnobStatus) {
	t.Helper()
	require.NotNil(t, s, where)
	want := "totals.max_fct_us | time"
	switch {
	case sc.Training.Model != "":
		want = "training.iteration_us | time"
	case sc.Inference.Model != "": // requests, not flows ("the last flow" was said of them)
		want = "inference.ttft_p99_us | time"
		assert.Equal(t, "inference.tokens_per_s | 0", s.Last, where)
	case sc.Collective.Op != "":
		want = "collective.time_us | time"
	}
	assert.Equal(t, want, s.Figure, where)
	assert.Equal(t, want == "totals.max_fct_us | time", s.Unfinished != "", "%s: only a flows run has unfinished flows to count", where)
	for _, f := range s.Figures() {
		p, err := figures.Parse(f)
		if assert.NoError(t, err, where) {
			assert.Equal(t, f, p.String(), "%s: the page asks for it in the canvas's spelling", where)
		}
	}
	for text, holes := range map[string][]string{s.Sentence: {"{}"}, s.Said: {"{label}", "{value}", "{outcome}"}, s.Failed: {"{}"}, s.Running: nil} {
		for _, h := range holes {
			assert.Contains(t, text, h, where)
		}
		assert.Equal(t, lang == "zh", han.MatchString(text), "%s: %q is in the lesson's language", where, text)
	}
	if s.Unfinished != "" {
		for _, h := range []string{"{done}", "{all}", "{end}"} {
			assert.Contains(t, s.Unfinished, h, where)
		}
	}
}

// TestPriceKnobChangesOnlyTheReport: the scaling lesson's price knob, which
// the canvas answers without a new run, gives the same run at every price
// but for the cost (on one node, to keep the runs short).
func TestPriceKnobChangesOnlyTheReport(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	l := Find(ls, "scaling", "en")
	require.NotNil(t, l)
	for _, s := range l.Steps {
		for _, k := range s.Knobs {
			if k.Changes != ChangesReport {
				continue
			}
			var first *metrics.Result
			for _, v := range []string{k.Values[0], k.Values[len(k.Values)-1]} {
				sc, err := scenario.ParseWith([]byte(s.Scenario), "", append([]string{"topology.nodes=1"}, k.SetsOf(v)...))
				require.NoError(t, err)
				r, err := sim.Run(sc)
				require.NoError(t, err)
				require.NotNil(t, r.Training)
				require.NotNil(t, r.Training.Cost)
				if first == nil {
					first = r
					continue
				}
				assert.NotEqual(t, first.Training.Cost, r.Training.Cost, "%s: the price changes the cost", k.Key)
				a, b := *first.Training, *r.Training
				a.Cost, b.Cost = nil, nil
				assert.Equal(t, a, b, "%s: and nothing else of the training", k.Key)
				assert.Equal(t, first.Totals, r.Totals, "%s: nor of the run", k.Key)
			}
			return
		}
	}
	t.Fatal("the scaling lesson has no knob that changes only the report")
}

// TestKnobDescriptionGolden pins the description of the knobs of two
// shipped lessons (the price knob that changes only the report; the toggle
// that sets several keys), as the page gets them, in both languages.
func TestKnobDescriptionGolden(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	for _, slug := range []string{"scaling", "sharing"} {
		for _, lang := range []string{"en", "zh"} {
			l := Find(ls, slug, lang)
			require.NotNil(t, l)
			byStep := map[string][]Knob{}
			for _, s := range l.Steps {
				if len(s.Knobs) > 0 {
					byStep[s.ID] = s.Knobs
				}
			}
			data, err := json.MarshalIndent(byStep, "", "  ")
			require.NoError(t, err)
			golden(t, filepath.Join("testdata", "knobs", slug+"."+lang+".golden.json"), string(data)+"\n")
		}
	}
}

// A toggle that sets several keys reads its off and on lists; anything else
// is refused with the form to write.
func TestKnobToggleSets(t *testing.T) {
	k, err := ParseKnob([]byte("key: neighbour\nlabel: Neighbour\ntoggle: {off: [traffic.pattern=none, traffic.flows=], on: []}\n"))
	require.Nil(t, err)
	assert.Equal(t, []string{"false", "true"}, k.Values)
	assert.Equal(t, [][]string{{"traffic.pattern=none", "traffic.flows="}, {}}, k.Sets)
	assert.Equal(t, []string{"traffic.pattern=none", "traffic.flows="}, k.SetsOf("false"))
	assert.Empty(t, k.SetsOf("true"))
	k, err = ParseKnob([]byte("key: routing\nlabel: R\ntoggle:\n  on: [network.routing=spray]\n"))
	require.Nil(t, err)
	assert.Equal(t, [][]string{{}, {"network.routing=spray"}}, k.Sets, "a missing position sets nothing")
	plain, err := ParseKnob([]byte("key: training.overlap\nlabel: Overlap\ntoggle: true\n"))
	require.Nil(t, err)
	assert.Equal(t, [][]string{{"training.overlap=false"}, {"training.overlap=true"}}, plain.Sets)

	for _, tc := range []struct{ in, err string }{
		{"toggle: {off: [a=1], maybe: [b=2]}", "toggle: maybe is not off or on"},
		{"toggle: {off: [a=1], off: [b=2]}", "toggle: off is not off or on (each once)"},
		{"toggle: {off: a=1}", "toggle: off must be a list of key=value"},
		{"toggle: {off: [a]}", `toggle: off: "a" is not key=value`},
		{"toggle: {off: [A B=1]}", `toggle: off: "A B=1" is not key=value`},
		{"toggle: {off: [a=1], on: [a=1]}", "toggle: off and on set the same"},
		{"toggle: {}", "toggle: off and on set the same"},
	} {
		_, err := ParseKnob([]byte("key: k\nlabel: L\n" + tc.in + "\n"))
		if assert.NotNil(t, err, tc.in) {
			assert.Contains(t, err.Msg, tc.err, tc.in)
			assert.Contains(t, err.Msg, "toggle: {off: [", "%s: the message shows the form", tc.in)
			assert.Equal(t, 3, err.Line, tc.in)
		}
	}
	assert.True(t, slices.Equal(plain.Values, k.Values))
}
