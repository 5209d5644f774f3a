package playback

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/sim"
	goldenfile "fabriclab/sim/golden"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// A pair shows both sides at the shared time: the shorter run holds its
// last frame once it has ended, and playback goes on to the longer run's end.
func TestPairLockStep(t *testing.T) {
	short := newPlayer(t, "incast", "topology.hosts=3", "traffic.senders=1", "traffic.bytes=256KiB")
	long := newPlayer(t, "incast", "topology.hosts=3", "traffic.senders=2", "traffic.bytes=256KiB")
	q := NewPair(short, long)
	q.Seek(unit.Millisecond) // past what is computed: waits
	_, waiting := q.Seeking()
	assert.True(t, waiting)
	for i := 0; !q.Compute(20 * time.Millisecond); i++ {
		require.Less(t, i, 1000)
		assert.LessOrEqual(t, q.Pos(), q.End(), "playback never passes what both have computed")
	}
	require.True(t, q.Done())
	assert.Greater(t, long.End(), short.End())
	assert.Equal(t, long.End(), q.End(), "the shared end is the longer run's")
	assert.Equal(t, q.End(), q.Pos(), "the waiting seek went to the end")
	assert.Equal(t, long.Speed(), q.Speed(), "the speed follows the longer run")

	mid := (short.End() + long.End()) / 2
	q.Seek(mid)
	assert.Equal(t, mid, q.Pos())
	assert.Equal(t, short.End(), short.Pos(), "the ended side holds its end")
	assert.True(t, short.At(short.Pos()).Done, "and shows its last frame")
	assert.False(t, long.At(long.Pos()).Done)
	assert.InDelta(t, mid.Micros(), long.Pos().Micros(), 0.001)

	q.Reset()
	q.Play()
	q.Tick(1) // a real second plays a tenth of the longer run
	assert.InDelta(t, (long.End() / PlaySeconds).Micros(), q.Pos().Micros(), 0.01)
	assert.Equal(t, q.Pos(), short.Pos(), "both sides at the shared time")
	q.Tick(100)
	assert.False(t, q.Playing(), "pauses at the end of both")
	assert.Equal(t, long.End(), q.Pos())

	q.Reset()
	q.Step()
	first := q.Pos()
	assert.Positive(t, first)
	q.Step()
	assert.Greater(t, q.Pos(), first)
	q.StepBack()
	assert.Equal(t, first, q.Pos(), "Step then StepBack comes back")
	q.SetSpeed(unit.Microsecond)
	q.Faster()
	assert.Equal(t, 2*unit.Microsecond, q.Speed())
}

func run(t *testing.T, name string, sets ...string) *simmetrics.Result {
	t.Helper()
	sc, err := scenario.Load(name, nil, sets)
	require.NoError(t, err)
	r, err := sim.Run(sc)
	require.NoError(t, err)
	return r
}

// TestSummaryGolden pins the one-line difference summaries of a few comparisons.
func TestSummaryGolden(t *testing.T) {
	small := []string{"topology.hosts=5", "traffic.senders=4", "traffic.bytes=1MiB"}
	var b strings.Builder
	b.WriteString(Summary([2]string{"PFC alone", "PFC + DCQCN"}, run(t, "incast", small...), run(t, "incast-dcqcn", small...)) + "\n")
	b.WriteString(Summary([2]string{"Lossy", "PFC"}, run(t, "incast-lossy", small...), run(t, "incast", small...)) + "\n")
	b.WriteString(Summary([2]string{"4 senders", "2 senders"}, run(t, "incast", small...), run(t, "incast", append(small, "traffic.senders=2")...)) + "\n")
	same := run(t, "incast", small...)
	b.WriteString(Summary([2]string{"A", "B"}, same, same) + "\n")
	b.WriteString(SummaryIn("zh", [2]string{"PFC 单独", "PFC + DCQCN"}, run(t, "incast", small...), run(t, "incast-dcqcn", small...)) + "\n")
	b.WriteString(SummaryIn("zh", [2]string{"A", "B"}, same, same) + "\n")
	goldenfile.Equal(t, "testdata/summary.golden", []byte(b.String()))
}

// The summary's words come from the catalogue (render's TestCatalogueGlyphs
// checks the canvas can draw them).
func TestSummaryWords(t *testing.T) {
	a := &simmetrics.Result{Totals: simmetrics.Totals{SimTimeUs: 871, Drops: 3}, Links: []simmetrics.Link{{MaxQueueBytes: 3 << 20}}}
	b := &simmetrics.Result{Totals: simmetrics.Totals{SimTimeUs: 412}, Links: []simmetrics.Link{{MaxQueueBytes: 400 << 10}}}
	assert.Equal(t, "Adaptive finished 2.1× sooner (412 µs vs 871 µs); drops 3 vs 0; max queue 3.00 MiB vs 400 KiB",
		Summary([2]string{"ECMP", "Adaptive"}, a, b))
	assert.Equal(t, "ECMP finished 2.1× sooner (412 µs vs 871 µs); drops 0 vs 3; max queue 400 KiB vs 3.00 MiB",
		Summary([2]string{"ECMP", "Adaptive"}, b, a))
}

func TestParseCompare(t *testing.T) {
	p, err := ParseQuery("?compare=1&left=ecmp-collisions&right=ecmp-collisions&right.set=network.routing=adaptive&right.set=until=1ms&left.label=ECMP&play=1")
	require.NoError(t, err)
	require.NotNil(t, p.Compare)
	assert.Equal(t, Side{Label: "ECMP", Scenario: "ecmp-collisions"}, p.Compare[0])
	assert.Equal(t, Side{Scenario: "ecmp-collisions", Sets: []string{"network.routing=adaptive", "until=1ms"}}, p.Compare[1])
	assert.True(t, p.Play)
	y := base64.RawURLEncoding.EncodeToString([]byte("name: y\ntopology: {kind: star, hosts: 2}\n"))
	p, err = ParseQuery("?compare=1&left=incast&right.yaml=" + y)
	require.NoError(t, err)
	sc, err := p.Compare[1].Load("right")
	require.NoError(t, err)
	assert.Equal(t, "y", sc.Name)
	for q, want := range map[string]string{
		"?left=incast&right=incast":                      "need compare=1",
		"?compare=1&left=incast":                         "needs right=NAME",
		"?compare=1&left=nope&right=incast":              `left="nope" is not a built-in`,
		"?compare=1&left=incast&right=incast&set=a=1":    "not scenario=, yaml= or set=",
		"?compare=1&left=incast&right=incast&left.set=x": "write left.set=key.path=value",
		"?compare=2": "use compare=1",
		"?compare=1&left=incast&left=incast&right=incast":   "left is given 2 times",
		"?compare=1&left=incast&right=incast&right.yaml=eA": "right= and right.yaml= are both given",
	} {
		_, err := ParseQuery(q)
		require.Error(t, err, q)
		assert.Contains(t, err.Error(), want, q)
	}
}

// A side that stops short stops the pair, and the error names the side.
func TestPairErrorNamesTheSide(t *testing.T) {
	a := newPlayer(t, "incast", "topology.hosts=3", "traffic.senders=1", "traffic.bytes=64KiB")
	b := newPlayer(t, "incast", "topology.hosts=3", "traffic.senders=2", "traffic.bytes=64KiB")
	b.rec.limit = 1 // every snapshot is too big
	q := NewPair(a, b)
	for i := 0; !q.Compute(10 * time.Millisecond); i++ {
		require.Less(t, i, 1000)
	}
	require.Error(t, q.Err())
	assert.Contains(t, q.Err().Error(), "right side: scenario incast is too big")
	assert.Contains(t, i18n.Error(i18n.ZH, q.Err()), "右侧：场景 incast 对浏览器画布来说太大", "said in Chinese on a Chinese page")
	assert.False(t, q.Done())
}

// TestSummaryCollectiveBeside: when a collective runs beside traffic that
// outlasts it (the sharing lesson's noisy neighbour), the summary compares
// the collectives, not the runs, which end together with the neighbour.
func TestSummaryCollectiveBeside(t *testing.T) {
	shared := run(t, "noisy-neighbor", "collective.class=storage")
	classes := run(t, "noisy-neighbor")
	require.Less(t, classes.Collective.TimeUs, shared.Collective.TimeUs, "the classes free the training job")
	s := Summary([2]string{"One class", "A class per job"}, shared, classes)
	assert.True(t, strings.HasPrefix(s, "A class per job: the collective finished "), s)
	assert.Contains(t, s, usText(classes.Collective.TimeUs)+" vs "+usText(shared.Collective.TimeUs))
	zh := SummaryIn("zh", [2]string{"同一类别", "各用一类"}, shared, classes)
	assert.True(t, strings.HasPrefix(zh, "各用一类：集合通信快 "), zh)
}

// Two sides of one name are labelled by the settings each has that the
// other has not; a label given, or two names, stay as they are.
func TestLabelsTellTheSidesApart(t *testing.T) {
	ecmp := &scenario.Scenario{Name: "ecmp-collisions"}
	incast := &scenario.Scenario{Name: "incast"}
	adaptive := Side{Scenario: "ecmp-collisions", Sets: []string{"topology.hosts=64", "network.routing=adaptive"}}
	plain := Side{Scenario: "ecmp-collisions", Sets: []string{"topology.hosts=64"}}
	assert.Equal(t, [2]string{"ecmp-collisions", "ecmp-collisions · network.routing=adaptive"}, Labels([2]Side{plain, adaptive}, [2]*scenario.Scenario{ecmp, ecmp}))
	cc := func(v string) Side { return Side{Scenario: "incast", Sets: []string{"network.cc=" + v}} }
	assert.Equal(t, [2]string{"incast · network.cc=none", "incast · network.cc=dcqcn"}, Labels([2]Side{cc("none"), cc("dcqcn")}, [2]*scenario.Scenario{incast, incast}))
	assert.Equal(t, [2]string{"ecmp-collisions", "incast"}, Labels([2]Side{plain, cc("dcqcn")}, [2]*scenario.Scenario{ecmp, incast}))
	labelled := adaptive
	labelled.Label = "Adaptive"
	assert.Equal(t, [2]string{"ecmp-collisions", "Adaptive"}, Labels([2]Side{plain, labelled}, [2]*scenario.Scenario{ecmp, ecmp}))
	long := Side{Scenario: "ecmp-collisions", Sets: []string{"network.routing=adaptive", "network.buffer=2MiB", "network.flow_control=none"}}
	l := Labels([2]Side{plain, long}, [2]*scenario.Scenario{ecmp, ecmp})
	assert.Len(t, []rune(l[1]), MaxLabel)
	assert.True(t, strings.HasSuffix(l[1], "…"), l[1])
}
