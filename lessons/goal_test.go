package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseGoal(t *testing.T) {
	g, err := ParseGoal([]byte("knob: network.buffer\nwant: totals.drops <= 0.5\npick: largest\nmeasure: \"{} drops\"\nprompt: P\nfound: \"{} F\"\n"))
	require.Nil(t, err)
	assert.Equal(t, Goal{Knob: "network.buffer", Path: "totals.drops", Op: "<=", Target: 0.5, Pick: "largest",
		Measure: "{} drops", Show: "totals.drops", Prompt: "P", Found: "{} F"}, g, "show defaults to want's figure")
	g, err = ParseGoal([]byte("knob: k\nwant: totals.max_fct_us>2000\npick: any\nmeasure: \"{}\"\nshow: totals.max_fct_us|ms 2\nprompt: P\nfound: \"{}\"\n"))
	require.Nil(t, err)
	assert.Equal(t, ">", g.Op)
	assert.Equal(t, 2000.0, g.Target)
	assert.Equal(t, "totals.max_fct_us | ms 2", g.Show, "show is written in the page's one spelling")
}

func TestGoalMeets(t *testing.T) {
	for _, c := range []struct {
		op   string
		v    float64
		want bool
	}{
		{"==", 0.5, true}, {"==", 1, false}, {"!=", 1, true}, {"!=", 0.5, false}, {"<", 0.4, true}, {"<", 0.5, false},
		{"<=", 0.5, true}, {"<=", 0.6, false}, {">", 0.5, false}, {">", 0.6, true}, {">=", 0.5, true}, {">=", 0.4, false},
	} {
		assert.Equal(t, c.want, Goal{Op: c.op, Target: 0.5}.meets(c.v), "%g %s 0.5", c.v, c.op)
	}
}

func FuzzGoal(f *testing.F) {
	f.Add("knob: network.buffer\nwant: totals.drops == 0\npick: smallest\nmeasure: \"{} drops\"\nprompt: P\nfound: \"{} F\"\n")
	f.Add("knob: k\nwant: a.b>=-1.5\npick: any\nmeasure: \"{}\"\nshow: a.b | ms\nprompt: P\nfound: \"{}\"\n")
	f.Add("knob: k\nwant: x is 0\n")
	f.Add("want: links[name=a→b].util < 1\nwant: 2\n")
	f.Add("pick: [a]\n")
	f.Fuzz(func(t *testing.T, in string) {
		g, err := ParseGoal([]byte(in))
		if err != nil {
			assert.GreaterOrEqual(t, err.Line, 1, "%q: %v", in, err)
			require.NotEmpty(t, err.Msg)
			noInternals(t, err.Msg, in)
			return
		}
		// A valid goal has every key, a known comparison and pick, and holes for its values.
		for _, s := range []string{g.Knob, g.Path, g.Show, g.Prompt} {
			assert.NotEmpty(t, s, "%q", in)
		}
		assert.Contains(t, []string{"==", "!=", "<", "<=", ">", ">="}, g.Op)
		assert.Contains(t, GoalPicks, g.Pick)
		assert.True(t, strings.Contains(g.Measure, "{}") && strings.Contains(g.Found, "{}"), "%q", in)
		_, perr := ParsePlaceholder(g.Show)
		assert.NoError(t, perr, "show %q is a figure", g.Show)
	})
}
