package lessons

import (
	"encoding/json"
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

// The drills (```drill blocks): at least three across the course, in both
// languages, their scenarios hidden; the run as found shows the symptom and
// the fixed run the page loads does not (run here through scenario.ParseWith
// and sim.Run, not the build's path); and the claims of their whys and
// explanations hold.

// taught counts a lesson's steps but its drills: the course's limit on
// steps is on what a lesson teaches, a drill is an exercise after.
func taught(l *Lesson) int {
	n := 0
	for _, s := range l.Steps {
		if s.Drill == nil {
			n++
		}
	}
	return n
}

// drillSymptom tells whether the drill's symptom holds in r.
func drillSymptom(t *testing.T, d *Drill, r *metrics.Result) bool {
	t.Helper()
	data, err := json.Marshal(r)
	require.NoError(t, err)
	src, err := figures.Decode(data)
	require.NoError(t, err)
	holds, err := d.cond.Eval(src)
	require.NoError(t, err)
	return holds
}

func yamlRun(t *testing.T, yaml string, sets ...string) *metrics.Result {
	t.Helper()
	sc, err := scenario.ParseWith([]byte(yaml), "drill", sets)
	require.NoError(t, err)
	r, err := sim.Run(sc)
	require.NoError(t, err)
	return r
}

func TestCourseDrills(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	found := map[string]bool{}
	for _, l := range ls {
		for i, s := range l.Steps {
			if s.Drill == nil {
				continue
			}
			where := l.Source + "#" + s.ID
			if l.Lang == "en" {
				found[l.Slug] = true
			}
			zh := Find(ls, l.Slug, "zh")
			require.NotNil(t, zh)
			require.NotNil(t, zh.Steps[i].Drill, "%s: the translation has the drill", where)
			// Hidden: the canvas loads the hidden name, the caption shows it, nothing names the scenario.
			for _, yaml := range []string{s.Scenario, s.Drill.Left.Scenario, s.Drill.Right.Scenario} {
				assert.True(t, strings.HasPrefix(yaml, "name: "+HiddenName+"\n"), "%s: %q", where, yaml)
			}
			assert.Equal(t, HiddenName, s.ScenarioName, where)
			assert.Contains(t, string(s.HTML), `data-scenario="`+HiddenName+`"`, where)
			assert.NotContains(t, strings.ToLower(string(s.HTML)), strings.ToLower(s.drillHides), where)
			assert.Equal(t, s.Scenario, s.Drill.Left.Scenario, "%s: the faulty run is the step's", where)
			if l.Lang == "en" {
				broken, fixed := yamlRun(t, s.Drill.Left.Scenario), yamlRun(t, s.Drill.Right.Scenario)
				assert.True(t, drillSymptom(t, s.drill, broken), "%s: the run as found shows %s", where, s.drill.Symptom)
				assert.False(t, drillSymptom(t, s.drill, fixed), "%s: the fixed run does not show %s", where, s.drill.Symptom)
			}
		}
	}
	assert.GreaterOrEqual(t, len(found), 3, "at least three lessons have a drill: %v", found)
}

// incast#drill: PFC off. The explanation's "not one pause frame" and "all
// eight writes finish" with PFC on.
func TestCourseIncastDrill(t *testing.T) {
	broken := stepRun(t, "incast", "drill")
	fixed := stepRun(t, "incast", "drill", "network.flow_control=pfc")
	assert.Zero(t, broken.Totals.PauseFrames, "not one pause frame")
	assert.Positive(t, broken.Totals.Retransmits, "drops and retransmissions")
	assert.Less(t, broken.Totals.FlowsFinished, broken.Totals.Flows/2, "most of the writes have not finished")
	assert.Equal(t, fixed.Totals.Flows, fixed.Totals.FlowsFinished, "with PFC all eight writes finish")
	assert.Zero(t, fixed.Totals.Drops)
	// "Sixteen times the buffer, 4 MiB": the step's buffer is 256 KiB.
	assert.Equal(t, 256*unit.KiB, stepScenario(t, "incast", "drill").Network.Buffer)
}

// adaptive-routing#drill: ECMP collisions. "about twice", "nothing is
// dropped", at 800 Gb/s "still about twice", with DCQCN "well above the
// average", adaptive "close to the average".
func TestCourseRoutingDrill(t *testing.T) {
	ratio := func(r *metrics.Result) float64 { return r.Totals.MaxFctUs / r.Totals.MeanFctUs }
	broken := stepRun(t, "adaptive-routing", "drill")
	assert.InDelta(t, 2, ratio(broken), 0.25, "about twice as late as the average")
	assert.Zero(t, broken.Totals.Drops)
	fast := stepRun(t, "adaptive-routing", "drill", "topology.link_gbps=800")
	assert.Less(t, fast.Totals.MaxFctUs, broken.Totals.MaxFctUs, "every flow finishes sooner")
	assert.InDelta(t, 2, ratio(fast), 0.25, "still about twice")
	assert.Greater(t, ratio(stepRun(t, "adaptive-routing", "drill", "network.cc=dcqcn")), 1.5, "well above the average")
	assert.Less(t, ratio(stepRun(t, "adaptive-routing", "drill", "network.routing=adaptive")), 1.1, "close to the average")
}

// scaling#drill: a slow GPU. "a tenth of a millisecond" exposed, twice the
// link speed "leaves the iteration as it is", bf16 keeps it "as long",
// overlap is already on, and at full speed "a third shorter".
func TestCourseScalingDrill(t *testing.T) {
	broken := stepRun(t, "scaling", "drill")
	require.NotNil(t, broken.Training)
	it := broken.Training.IterationUs
	assert.InDelta(t, 100, broken.Training.ExposedCommUs, 50, "about a tenth of a millisecond of communication shows")
	for _, set := range []string{"topology.link_gbps=800", "training.compression=bf16", "training.overlap=true"} {
		assert.InEpsilon(t, it, stepRun(t, "scaling", "drill", set).Training.IterationUs, 0.01, set)
	}
	assert.True(t, stepScenario(t, "scaling", "drill").Training.Overlap, "overlap is already on")
	full := stepRun(t, "scaling", "drill", "faults=")
	assert.InDelta(t, 1.0/3, 1-full.Training.IterationUs/it, 0.03, "a third shorter")
}

// stepScenario is the scenario the English step id of slug loads.
func stepScenario(t *testing.T, slug, id string) scenario.Scenario {
	t.Helper()
	ls, err := courseLessons()
	require.NoError(t, err)
	for _, s := range Find(ls, slug, "en").Steps {
		if s.ID == id {
			sc, err := scenario.ParseWith([]byte(s.Scenario), slug, nil)
			require.NoError(t, err)
			return sc
		}
	}
	require.Failf(t, "no such step", "%s#%s", slug, id)
	return scenario.Scenario{}
}
