package web_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
)

// builtinSets cut the built-ins that would take minutes to compute in the
// browser: the flow-level model, or a shorter run. The rest play whole.
var builtinSets = map[string][]string{
	"incast-lossy":      {"until=2ms"},
	"ecmp-collisions":   {"until=300us"},
	"permutation":       {"until=300us"},
	"perm-1024":         {"sim.fidelity=flow"},
	"ring-allreduce-8":  {"sim.fidelity=flow"},
	"alltoall-moe":      {"sim.fidelity=flow"},
	"dp-resnet50":       {"sim.fidelity=flow"},
	"dp-llama3-8b-1024": {"until=20ms"},
}

var summaryRE = regexp.MustCompile(`t = ([0-9.]+) (µs|ms|s), ([0-9]+) of ([0-9]+) (?:flows|transfers) done(.*), finished$`)

// Every built-in plays to its end in the browser, and the live summary's
// final counters are those of `fabriclab run --json` for the same scenario
// (run here natively: the JSON is the same).
func TestBrowserBuiltinsPlayToTheEnd(t *testing.T) {
	t.Parallel()
	for _, b := range scenario.Builtins() {
		t.Run(b.Name, func(t *testing.T) { // a tab each, side by side, each with its own time budget
			t.Parallel()
			ctx, base, console := browser(t)
			sets := builtinSets[b.Name]
			sc, err := scenario.Load(b.Name, nil, sets)
			require.NoError(t, err, b.Name)
			res, err := sim.Run(sc)
			require.NoError(t, err, b.Name)
			tot := res.Totals
			q := url.Values{"scenario": {b.Name}, "play": {"1"}, "speed": {strconv.FormatFloat(max(1, tot.SimTimeUs), 'f', -1, 64)}}
			q["set"] = sets
			start := time.Now()
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base+"/embed.html?"+q.Encode())))
			poll(t, ctx, `document.getElementById("summary").textContent.endsWith(", finished") || !document.getElementById("error").hidden`, 3*time.Minute)
			require.Empty(t, eval[string](t, ctx, `document.getElementById("error-text").textContent`), b.Name)
			text := eval[string](t, ctx, `document.getElementById("summary").textContent`)
			t.Logf("%s %v: %.1f s in the browser: %s", b.Name, sets, time.Since(start).Seconds(), text)
			m := summaryRE.FindStringSubmatch(text)
			require.NotNil(t, m, "%s: %q", b.Name, text)
			shown := map[string]string{"t": m[1] + " " + m[2], "done": m[3], "flows": m[4]}
			want := map[string]string{"t": usText(tot.SimTimeUs), "done": fmt.Sprint(tot.FlowsFinished), "flows": fmt.Sprint(tot.Flows)}
			assert.Equal(t, want, shown, b.Name)
			counters := m[5]
			for _, c := range []struct {
				n    int64
				name string
			}{{tot.Drops, "drop"}, {tot.PauseFrames, "pause frame"}, {tot.ECNMarks, " ECN mark"}, {tot.FECNMarks, "FECN mark"}} {
				if c.n == 0 {
					assert.NotContains(t, counters, c.name, b.Name)
				} else {
					assert.Contains(t, counters, fmt.Sprintf(", %d %s", c.n, strings.TrimSpace(c.name)), b.Name)
				}
			}
			assert.Contains(t, eval[string](t, ctx, `document.getElementById("time").textContent`), "/", b.Name)
			assert.Empty(t, errors(console()), "%s: the console shows no errors", b.Name)
		})
	}
}

// usText writes µs as the summary does.
func usText(us float64) string {
	trim := func(v float64) string {
		return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(v, 'f', 3, 64), "0"), ".")
	}
	switch {
	case us >= 1e6:
		return trim(us/1e6) + " s"
	case us >= 1000:
		return trim(us/1000) + " ms"
	}
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(us, 'f', 1, 64), "0"), ".") + " µs"
}
