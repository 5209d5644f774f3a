package lessons

import (
	"io/fs"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// arCourse loads one lesson of the course, English and Chinese, through the
// loader the site uses, and checks what every lesson of the course needs:
// 6–10 steps, two quizzes or more, a knob, the same knobs in both languages
// and a recap that links to the next lesson.
func arCourse(t *testing.T, slug, next string) *Lesson {
	t.Helper()
	knobs := map[string][]string{}
	for _, lang := range []string{"en", "zh"} {
		name := slug + "." + lang + ".md"
		data, err := fs.ReadFile(Content(), name)
		require.NoError(t, err)
		knobs[lang] = arKnobKeys(string(data))
	}
	ls, err := courseLessons() // the whole course: a lesson assumes others
	require.NoError(t, err)
	en, zh := Find(ls, slug, "en"), Find(ls, slug, "zh")
	require.NotNil(t, en)
	require.NotNil(t, zh)
	assert.Equal(t, "zh-Hans", zh.Language)
	assert.GreaterOrEqual(t, len(en.Steps), 6, "steps")
	assert.LessOrEqual(t, len(en.Steps), 10, "steps")
	require.Equal(t, len(en.Steps), len(zh.Steps))
	for _, l := range []*Lesson{en, zh} {
		quizzes := 0
		for _, s := range l.Steps {
			quizzes += strings.Count(string(s.HTML), `class="lesson-quiz"`)
			assert.NotContains(t, string(s.HTML), "{{", "%s#%s: unresolved figure", l.Source, s.ID)
		}
		assert.GreaterOrEqual(t, quizzes, 2, "%s: predict-then-watch quizzes", l.Source)
		last := l.Steps[len(l.Steps)-1]
		assert.Equal(t, "recap", last.ID)
		assert.Contains(t, string(last.HTML), `href="`+next+"."+l.Lang+`.html"`, "%s: the recap links to the next lesson", l.Source)
	}
	assert.NotEmpty(t, knobs["en"], "a knob")
	assert.Equal(t, knobs["en"], knobs["zh"], "the same knobs in both languages")
	return en
}

var arKnobKey = regexp.MustCompile("(?s)```knob\\s*\\nkey: (\\S+)")

// arKnobKeys lists the keys of a lesson's knob blocks, in order.
func arKnobKeys(md string) []string {
	var keys []string
	for _, m := range arKnobKey.FindAllStringSubmatch(md, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// TestCourseAllReduce checks what "All-Reduce, taken apart" says about its
// scenarios.
func TestCourseAllReduce(t *testing.T) {
	if testing.Short() {
		t.Skip("long: the full suite (make test) runs it")
	}
	l := arCourse(t, "allreduce", "data-parallel")
	t.Run("knobs", func(t *testing.T) { arKnobsRun(t, l) })

	// why, naive: one GPU as parameter server takes N−1 = 7 single transfers,
	// its links saturated, everyone else's a seventh busy.
	one := lessonRun(t, l, "why")
	assert.InDelta(t, 0.82*450, one.Flows[0].Gbps/8, 0.02*0.82*450, "one NVLink transfer runs at about 82 % of 450 GB/s")
	ps := lessonRun(t, l, "naive")
	assert.InDelta(t, 7, ps.Totals.MaxFctUs/one.Totals.MaxFctUs, 0.35, "the parameter server takes seven transfers")
	assert.Greater(t, courseLink(t, ps, "n0.nvswitch→n0.gpu0").Util, 0.98, "GPU 0's link is saturated")
	assert.InDelta(t, 1.0/7, courseLink(t, ps, "n0.gpu1→n0.nvswitch").Util, 0.01, "the others' links are a seventh busy")

	// ring4, ring8: 2(N−1) steps of S/N; doubling the GPUs costs a little,
	// and far less than the parameter server.
	r4, r8 := lessonRun(t, l, "ring4"), lessonRun(t, l, "ring8")
	require.NotNil(t, r4.Collective)
	require.NotNil(t, r8.Collective)
	assert.Equal(t, 6, r4.Collective.Steps)
	assert.Equal(t, 14, r8.Collective.Steps)
	assert.EqualValues(t, 16<<20, r4.Flows[0].Bytes, "a ring4 transfer is a quarter of 64 MiB")
	assert.EqualValues(t, 8<<20, r8.Flows[0].Bytes, "a ring8 transfer is an eighth")
	grow := r8.Collective.TimeUs / r4.Collective.TimeUs
	assert.Greater(t, grow, 1.1, "8 GPUs take a little longer than 4")
	assert.Less(t, grow, 1.4, "but nowhere near twice")
	assert.Greater(t, ps.Totals.MaxFctUs, 3*r8.Collective.TimeUs, "the parameter server takes several times the ring")
	for _, n := range []string{"2", "4", "8"} {
		r := lessonRun(t, l, "ring8", "collective.ranks="+n)
		assert.Greater(t, r.Collective.BusBwGBps, 0.8*0.82*450, "ranks %s: busbw stays near the link's rate", n)
	}

	// busbw: 1 GiB on 8 H100 gives the measured ≈ 370 GB/s, and the ideal
	// link gives 450 exactly.
	big := lessonRun(t, l, "busbw")
	assert.InDelta(t, 370, big.Collective.BusBwGBps, 370*0.03, "busbw ≈ 370 GB/s measured on H100")
	assert.InDelta(t, big.Collective.AlgBwGBps*2*7/8, big.Collective.BusBwGBps, 0.01, "busbw = algbw · 2(n−1)/n")
	ideal := lessonRun(t, l, "busbw", "topology.nvlink_efficiency=1", "topology.link_latency=0", "collective.latency=alpha", "collective.alpha=0", "collective.execution=steps")
	assert.InDelta(t, 450, ideal.Collective.BusBwGBps, 450*0.01, "an ideal ring's busbw is the link's 450 GB/s")

	// latency: 1 MiB is only about 200 times faster than 1 GiB (NCCL's LL
	// protocol, REFERENCE.md "NCCL protocols (latency, µs), ring": 15 µs of
	// fixed cost); Simple takes about twice as long at 1 MiB, LL's busbw at
	// 1 GiB is NCCL's cap (≈ 141 GB/s, "NCCL protocols (bandwidth)"); with
	// the protocol on auto the tree is no faster than the ring at any size
	// on one server ("NCCL's choice of algorithm and protocol").
	small := lessonRun(t, l, "latency")
	speedup := big.Collective.TimeUs / small.Collective.TimeUs
	assert.Greater(t, speedup, 120.0, "1 MiB vs 1 GiB")
	assert.Less(t, speedup, 300.0, "1 MiB vs 1 GiB: about 200 times, far from 1,024")
	assert.Less(t, small.Collective.BusBwGBps, 0.2*big.Collective.BusBwGBps, "small messages' busbw collapses")
	simple := lessonRun(t, l, "latency", "collective.protocol=simple")
	assert.InDelta(t, 2, simple.Collective.TimeUs/small.Collective.TimeUs, 0.3, "Simple takes about twice as long at 1 MiB")
	assert.Equal(t, small.Collective.TimeUs, lessonRun(t, l, "latency", "collective.protocol=ll").Collective.TimeUs, "auto is LL at 1 MiB")
	llBig := lessonRun(t, l, "latency", "collective.protocol=ll", "collective.bytes=1GiB")
	assert.InDelta(t, 141, llBig.Collective.BusBwGBps, 3, "LL at 1 GiB: NCCL's cap")
	for _, b := range []string{"1MiB", "16MiB", "1GiB"} {
		ring := lessonRun(t, l, "latency", "collective.bytes="+b)
		tree := lessonRun(t, l, "latency", "collective.algo=tree", "collective.bytes="+b)
		assert.GreaterOrEqual(t, tree.Collective.TimeUs, ring.Collective.TimeUs, "the tree is no faster on one server at %s", b)
	}
	treeBig := lessonRun(t, l, "latency", "collective.algo=tree", "collective.bytes=1GiB")
	assert.Less(t, treeBig.Collective.BusBwGBps, big.Collective.BusBwGBps, "the ring wins at 1 GiB on one server")
	// ... but only just: the chain keeps every NVLink about as busy as the ring.
	assert.Greater(t, treeBig.Collective.BusBwGBps, 0.95*big.Collective.BusBwGBps, "at 1 GiB the chain comes within a few per cent of the ring")

	// hierarchical: more busbw than the flat ring, and past the NICs'
	// 8 × 48 GB/s; the ring stays under it.
	h := lessonRun(t, l, "hierarchical")
	ring := lessonRun(t, l, "hierarchical", "collective.algo=ring")
	assert.Greater(t, h.Collective.BusBwGBps, ring.Collective.BusBwGBps, "hierarchical beats the flat ring")
	assert.Greater(t, h.Collective.BusBwGBps, 8*48.0, "hierarchical busbw passes the NICs' 8 × 48 GB/s")
	assert.Less(t, ring.Collective.BusBwGBps, 8*48.0, "the flat ring stays under the NICs' bound")
	ring16 := lessonRun(t, l, "hierarchical", "collective.algo=ring", "topology.nodes=16")
	assert.Less(t, ring16.Collective.BusBwGBps, ring.Collective.BusBwGBps, "the ring's steps cost more with more servers")

	// in-switch: NVLS ≈ 480 GB/s, about 1.30 × the ring on the same links.
	nvls := lessonRun(t, l, "in-switch")
	nvlsRing := lessonRun(t, l, "in-switch", "collective.algo=ring")
	assert.InDelta(t, 480, nvls.Collective.BusBwGBps, 480*0.03)
	assert.InDelta(t, 1.30, nvls.Collective.BusBwGBps/nvlsRing.Collective.BusBwGBps, 0.05, "NVLS ≈ 1.30 × the ring")
}

// arKnob is one knob block of a lesson: its step, key and the values it
// offers, as --set takes them.
type arKnob struct {
	step, key string
	values    []string
}

var (
	arStepHeading = regexp.MustCompile(`(?m)^## .*\{#([a-z0-9-]+)\}\s*$`)
	arKnobBlock   = regexp.MustCompile("(?s)```knob\\n(.*?)```")
	arRange       = regexp.MustCompile(`^(\S+?)\.\.(\S+?)(?: x(\d+))?$`)
)

// arKnobs reads a lesson's knob blocks, enumerating each one's positions
// (range a..b, a..b xF over sizes or integers, values, select, toggle).
func arKnobs(t *testing.T, md string) []arKnob {
	t.Helper()
	var knobs []arKnob
	heads := arStepHeading.FindAllStringSubmatchIndex(md, -1)
	for _, m := range arKnobBlock.FindAllStringSubmatchIndex(md, -1) {
		step := ""
		for _, h := range heads {
			if h[0] < m[0] {
				step = md[h[2]:h[3]]
			}
		}
		k := arKnob{step: step}
		for _, line := range strings.Split(md[m[2]:m[3]], "\n") {
			name, v, ok := strings.Cut(line, ": ")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch name {
			case "key":
				k.key = v
			case "values", "select":
				for _, item := range strings.Split(strings.Trim(v, "[]"), ",") {
					k.values = append(k.values, strings.TrimSpace(item))
				}
			case "toggle":
				k.values = []string{"true", "false"}
			case "range":
				r := arRange.FindStringSubmatch(v)
				require.NotNil(t, r, "range %q", v)
				lo, err := unit.ParseBytes(r[1])
				require.NoError(t, err)
				hi, err := unit.ParseBytes(r[2])
				require.NoError(t, err)
				for x := lo; x <= hi; {
					k.values = append(k.values, strconv.FormatInt(int64(x), 10))
					if r[3] == "" {
						x++
					} else {
						f, _ := strconv.Atoi(r[3])
						x *= unit.Bytes(f)
					}
				}
			}
		}
		require.NotEmpty(t, k.key, "a knob in step %s has no key", step)
		require.NotEmpty(t, k.values, "knob %s in step %s has no values", k.key, step)
		knobs = append(knobs, k)
	}
	return knobs
}

// arKnobsRun moves every knob of a lesson to each of its positions, one knob
// at a time, and checks the step's scenario still runs to the end; a knob's
// default (the scenario's own value) must be one of its positions.
func arKnobsRun(t *testing.T, l *Lesson) {
	md, err := fs.ReadFile(Content(), l.Source)
	require.NoError(t, err)
	for _, k := range arKnobs(t, string(md)) {
		var own string
		for _, s := range l.Steps {
			if s.ID == k.step {
				own = s.Scenario
			}
		}
		require.NotEmpty(t, own, "knob %s: no step %s", k.key, k.step)
		found := false
		for _, v := range k.values {
			sc, err := scenario.ParseWith([]byte(own), l.Source+"#"+k.step, []string{k.key + "=" + v})
			require.NoError(t, err, "knob %s=%s in step %s", k.key, v, k.step)
			base, err := scenario.ParseWith([]byte(own), l.Source+"#"+k.step, nil)
			require.NoError(t, err)
			if reflect.DeepEqual(sc, base) {
				found = true
			}
			r, err := sim.Run(sc)
			require.NoError(t, err, "knob %s=%s in step %s", k.key, v, k.step)
			assert.Empty(t, r.Totals.Truncated, "knob %s=%s in step %s runs to the end", k.key, v, k.step)
		}
		assert.True(t, found, "knob %s in step %s: the scenario's own value is one of %v", k.key, k.step, k.values)
	}
}
