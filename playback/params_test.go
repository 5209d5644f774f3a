package playback

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/protocol"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// t= takes µs as a plain number, or a time with its unit as the CLI's --t does.
func TestParseQueryStartWithUnit(t *testing.T) {
	for q, want := range map[string]unit.Time{"t=500": 500 * unit.Microsecond, "t=500us": 500 * unit.Microsecond,
		"t=1.2ms": 1200 * unit.Microsecond, "t=800ns": 800 * unit.Nanosecond, "t=0": 0} {
		p, err := ParseQuery("scenario=incast&" + q)
		require.NoError(t, err, q)
		assert.Equal(t, want, p.Start, q)
	}
	for _, q := range []string{"t=-1us", "t=5parsecs", "t=1e9s"} {
		_, err := ParseQuery("scenario=incast&" + q)
		require.Error(t, err, q)
		assert.Contains(t, err.Error(), "with its unit (500us, 1.2ms)", q)
	}
}

func TestParseQuery(t *testing.T) {
	p, err := ParseQuery("?scenario=ecmp-collisions&play=1&speed=50&t=10&theme=light&set=seed=3&set=until=100us&controls=0&big=1&lang=zh")
	require.NoError(t, err)
	assert.Equal(t, "ecmp-collisions", p.Scenario)
	assert.True(t, p.Play)
	assert.False(t, p.Controls)
	assert.True(t, p.Big)
	assert.Equal(t, "zh", p.Lang)
	assert.Equal(t, 50*unit.Microsecond, p.Speed)
	assert.Equal(t, 10*unit.Microsecond, p.Start)
	assert.Equal(t, "light", p.Theme)
	assert.Equal(t, []string{"seed=3", "until=100us"}, p.Sets)
	sc, err := p.Load()
	require.NoError(t, err)
	assert.EqualValues(t, 3, sc.Seed)

	empty, err := ParseQuery("")
	require.NoError(t, err)
	assert.True(t, empty.Controls)
	assert.Equal(t, "en", empty.Lang, "the canvas speaks English unless asked")
	sc, err = empty.Load()
	require.NoError(t, err)
	assert.Equal(t, "incast", sc.Name, "no parameters show the incast")

	y := base64.RawURLEncoding.EncodeToString([]byte("name: mine\ntopology: {kind: star, hosts: 3}\n"))
	p, err = ParseQuery("yaml=" + y)
	require.NoError(t, err)
	sc, err = p.Load()
	require.NoError(t, err)
	assert.Equal(t, "mine", sc.Name)
}

// A yes-or-no parameter is yes when present without a value, or 1, true,
// yes; no with 0, false, no; controls stays on unless given.
func TestParseQueryFlags(t *testing.T) {
	for q, want := range map[string][3]bool{ // play, controls, big
		"?play&big":                      {true, true, true},
		"?play=true&controls=no&big=yes": {true, false, true},
		"?play=0&controls&big=false":     {false, true, false},
		"":                               {false, true, false},
	} {
		p, err := ParseQuery(q)
		require.NoError(t, err, q)
		assert.Equal(t, want, [3]bool{p.Play, p.Controls, p.Big}, q)
	}
}

// yaml= takes exactly MaxYAML bytes of YAML and not one more; set= lists
// and the whole query have their own bounds.
func TestParseQueryLimits(t *testing.T) {
	head := "name: big\ntopology: {kind: star, hosts: 3}\n"
	pad := func(n int) string { return head + "#" + strings.Repeat("x", n-len(head)-2) + "\n" }
	p, err := ParseQuery("yaml=" + base64.RawURLEncoding.EncodeToString([]byte(pad(MaxYAML))))
	require.NoError(t, err)
	assert.Len(t, p.YAML, MaxYAML)
	sc, err := p.Load()
	require.NoError(t, err)
	assert.Equal(t, "big", sc.Name)

	_, err = ParseQuery("yaml=" + base64.RawURLEncoding.EncodeToString([]byte(pad(MaxYAML+1))))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "parameter yaml is 65537 bytes of YAML, more than the 64 KiB")

	set := "&set=until=1us"
	p, err = ParseQuery("scenario=incast" + strings.Repeat(set, MaxSets/(len(set)-5)))
	require.NoError(t, err, "set= lists up to MaxSets bytes")
	_, err = ParseQuery("scenario=incast" + strings.Repeat(set, MaxSets/(len(set)-5)+1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "set= come to more than 64 KiB")

	_, err = ParseQuery("scenario=incast&" + strings.Repeat("x", MaxQuery))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at most 256 KiB")
}

func TestParseQueryErrors(t *testing.T) {
	for q, want := range map[string]string{
		"scenario=nope":                 `scenario="nope" is not a built-in scenario; use one of`,
		"color=red":                     `unknown parameter "color"; the canvas takes scenario, yaml`,
		"play=maybe":                    "use play=1 or play=0",
		"speed=-3":                      "speed=\"-3\": give simulated µs per second",
		"t=abc":                         "t=\"abc\": give the start time in µs",
		"theme=pink":                    "use light or dark",
		"lang=fr":                       `lang="fr": use en (English) or zh (Simplified Chinese)`,
		"yaml=***":                      "not base64url-encoded YAML",
		"scenario=incast&scenario=x":    "given 2 times",
		"set=oops":                      "write set=key.path=value",
		"%zz":                           "cannot be read",
		"scenario=incast&yaml=bmFtZTog": "either scenario= or yaml=",
		"yaml=":                         "parameter yaml= is empty; give a scenario's YAML",
		"scenario=incast&yaml=":         "parameter yaml= is empty",
		"knob.=2":                       `unknown parameter "knob."`,
		"first=step":                    `first="step": use first=load`,
	} {
		_, err := ParseQuery(q)
		require.Error(t, err, q)
		assert.Contains(t, err.Error(), want, q)
	}
	// A bad scenario surfaces when loading, with its place.
	p, err := ParseQuery("scenario=incast&set=topology.hosts=0")
	require.NoError(t, err)
	_, err = p.Load()
	assert.ErrorContains(t, err, "topology.hosts")
}

// A wrong address leaves out what is wrong and keeps the rest, saying why
// for each thing left out; a right one keeps all and says nothing.
func TestParseQueryKeeping(t *testing.T) {
	p, errs := ParseQueryKeeping("scenario=ecmp-collisions&speed=-5&theme=pink&play=1&knobs=seed&knob.seed=1,2")
	require.Len(t, errs, 2)
	assert.Contains(t, errs[0].Error(), `speed="-5"`)
	assert.Contains(t, errs[1].Error(), `theme="pink"`)
	assert.Equal(t, "ecmp-collisions", p.Scenario)
	assert.True(t, p.Play)
	assert.Equal(t, "dark", p.Theme)

	p, errs = ParseQueryKeeping("scenario=incst&lang=zh")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), `scenario="incst" is not a built-in`)
	assert.Equal(t, Params{Theme: "dark", Controls: true, Lang: "zh"}, p)

	p, errs = ParseQueryKeeping("scenario=incast&big=1")
	assert.Empty(t, errs)
	assert.True(t, p.Big)

	_, errs = ParseQueryKeeping("%zz&big=1")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "cannot be read")
}

// An address names a run with a scenario, YAML, settings or a comparison;
// the page's own parameters (a lesson's canvas: controls and lang) do not.
func TestParamsNamesRun(t *testing.T) {
	yaml := base64.RawURLEncoding.EncodeToString([]byte("name: x\n"))
	for q, want := range map[string]bool{
		"":                            false,
		"controls=1&lang=en":          false,
		"theme=light&play=1&speed=10": false,
		"scenario=incst":              false, // left out, with a notice
		"scenario=incast":             true,
		"yaml=" + yaml:                true,
		"set=traffic.senders%3D4":     true,
		"compare=1&left=incast&right=ecmp-collisions": true,
	} {
		p, _ := ParseQueryKeeping(q)
		assert.Equal(t, want, p.NamesRun(), q)
	}
}

// The first run: the address's when it names one, or when no load came
// and the address does not say one will (the default incast); else the
// load's, with the page's language; of a comparison, its sides'. None
// while a load is still to come.
func TestFirstRun(t *testing.T) {
	yaml := base64.RawURLEncoding.EncodeToString([]byte("name: x\n"))
	step := &protocol.Load{YAML: "name: lossy\n", Sets: []string{"traffic.senders=4"}, Step: "lossy", Play: true, Figures: []string{"totals.drops | count"}}
	for _, tc := range []struct {
		query string
		load  *protocol.Load
		want  protocol.Begin
		ok    bool
	}{
		{"", nil, protocol.Begin{Scenario: "incast", Lang: "en"}, true},
		{"?lang=zh&play=1", nil, protocol.Begin{Scenario: "incast", Lang: "zh"}, true},
		{"?scenario=ecmp-collisions&set=seed%3D2", nil, protocol.Begin{Scenario: "ecmp-collisions", Sets: []string{"seed=2"}, Lang: "en"}, true},
		{"?yaml=" + yaml, nil, protocol.Begin{YAML: "name: x\n", Lang: "en"}, true},
		{"?scenario=ecmp-collisions", step, protocol.Begin{Scenario: "ecmp-collisions", Lang: "en"}, true}, // the address names it: the load comes after
		{"?controls=1&lang=zh", step, protocol.Begin{YAML: "name: lossy\n", Sets: []string{"traffic.senders=4"}, Lang: "zh"}, true},
		{"?controls=1&lang=en&first=load", step, protocol.Begin{YAML: "name: lossy\n", Sets: []string{"traffic.senders=4"}, Lang: "en"}, true},
		{"?controls=1&lang=en&first=load", nil, protocol.Begin{}, false},
		{"?first=load", &protocol.Load{Left: &protocol.Side{Scenario: "incast"}, Right: &protocol.Side{Scenario: "incast"}}, protocol.Begin{}, false},
		{"?compare=1&left=incast&right=ecmp-collisions", nil, protocol.Begin{}, false},
	} {
		b, ok := FirstRun(tc.query, tc.load, "")
		assert.Equal(t, tc.ok, ok, tc.query)
		assert.Equal(t, tc.want, b, tc.query)
	}
	// A comparison's sides, each its worker's; one run has no side.
	twoSides := &protocol.Load{Left: &protocol.Side{Scenario: "incast", Sets: []string{"traffic.senders=2"}, Label: "two"},
		Right: &protocol.Side{YAML: "name: y\n", Label: "yaml"}, Step: "cmp"}
	for _, tc := range []struct {
		query, side string
		load        *protocol.Load
		want        protocol.Begin
		ok          bool
	}{
		{"?compare=1&left=incast&right=ecmp-collisions&lang=zh", "left", nil, protocol.Begin{Scenario: "incast", Side: "left", Lang: "zh"}, true},
		{"?compare=1&left=incast&right=ecmp-collisions", "right", nil, protocol.Begin{Scenario: "ecmp-collisions", Side: "right", Lang: "en"}, true},
		{"?compare=1&left=incast&right=ecmp-collisions", "middle", nil, protocol.Begin{}, false},
		{"?compare=1&left=incast&right=ecmp-collisions", "left", step, protocol.Begin{Scenario: "incast", Side: "left", Lang: "en"}, true}, // the address's comparison, as the canvas plays it
		{"?first=load&lang=zh", "left", twoSides, protocol.Begin{Scenario: "incast", Sets: []string{"traffic.senders=2"}, Side: "left", Lang: "zh"}, true},
		{"?first=load", "right", twoSides, protocol.Begin{YAML: "name: y\n", Side: "right", Lang: "en"}, true},
		{"?first=load", "right", nil, protocol.Begin{}, false},
		{"?first=load", "left", step, protocol.Begin{}, false}, // one run: no sides
		{"?scenario=incast", "left", nil, protocol.Begin{}, false},
		{"", "right", nil, protocol.Begin{}, false},
	} {
		b, ok := FirstRun(tc.query, tc.load, tc.side)
		assert.Equal(t, tc.ok, ok, "%s %s", tc.query, tc.side)
		assert.Equal(t, tc.want, b, "%s %s", tc.query, tc.side)
	}
	p, err := ParseQuery("first=load&controls=1")
	require.NoError(t, err)
	assert.True(t, p.FirstLoad)
	assert.False(t, p.NamesRun(), "first=load names no run")
}

// protocol's limits are the scenario's and the player's.
func TestProtocolLimitsAgree(t *testing.T) {
	assert.Equal(t, scenario.MaxUntil.Micros(), float64(protocol.MaxSeekUs))
	assert.Equal(t, MaxSpeed.Micros(), float64(protocol.MaxSpeedUs))
	assert.Equal(t, MaxYAML, protocol.MaxYAML)
}

// query writes p back as a query string, the inverse of ParseQuery.
func query(p Params) string {
	v := url.Values{}
	if p.Scenario != "" {
		v.Set("scenario", p.Scenario)
	}
	if p.YAML != "" {
		v.Set("yaml", base64.RawURLEncoding.EncodeToString([]byte(p.YAML)))
	}
	for _, s := range p.Sets {
		v.Add("set", s)
	}
	if p.Play {
		v.Set("play", "1")
	}
	if p.Speed != 0 {
		v.Set("speed", strconv.FormatFloat(p.Speed.Micros(), 'g', -1, 64))
	}
	if p.Start != 0 {
		v.Set("t", strconv.FormatFloat(p.Start.Micros(), 'g', -1, 64))
	}
	if p.Theme != "dark" {
		v.Set("theme", p.Theme)
	}
	if !p.Controls {
		v.Set("controls", "0")
	}
	if p.Big {
		v.Set("big", "1")
	}
	if p.Lang != "en" {
		v.Set("lang", p.Lang)
	}
	if p.Compare != nil {
		v.Set("compare", "1")
		for i, name := range []string{"left", "right"} {
			s := p.Compare[i]
			if s.Scenario != "" {
				v.Set(name, s.Scenario)
			}
			if s.YAML != "" {
				v.Set(name+".yaml", base64.RawURLEncoding.EncodeToString([]byte(s.YAML)))
			}
			if s.Label != "" {
				v.Set(name+".label", s.Label)
			}
			for _, set := range s.Sets {
				v.Add(name+".set", set)
			}
		}
	}
	return "?" + v.Encode()
}

// readable checks that an error message about input is written for people:
// no Go formatting mistakes or internals (unless the input itself has them).
func readable(t *testing.T, msg, input string) {
	t.Helper()
	for _, bad := range []string{"%!", "<nil>", "Go struct", "Go value", "runtime error"} {
		if !strings.Contains(input, bad) {
			assert.NotContains(t, msg, bad, "input %q", input)
		}
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "?scenario=incast&play=1", "yaml=bmFtZTogeA", "set=a=b&set=c", "speed=1e9", "t=NaN", "%", "scenario=incast&set=topology.hosts=0",
		"speed=0.001&t=1.099999&theme=light&controls=no&big=yes&play", "set=until%3D1us&set=seed=2&scenario=permutation", "speed=50&t=10",
		"theme=pink", "speed=-3", "t=abc", "play=maybe", "big=2", "controls=x", "color=red", "scenario=nope", "yaml=***", "play=1&play=0", "lang=zh&theme=light", "lang=fr", "lang=ZH", "lang=en&lang=zh",
		"compare=1&left=incast&right=incast-dcqcn&right.set=traffic.senders=2&left.label=A", "compare=1&left=incast", "left=incast", "compare=1&left.yaml=bmFtZTogeA&right=incast",
		"yaml=", "knobs=traffic.senders,network.pfc&knob.traffic.senders=2,4,8", "knob.=1", "scenario=incast&speed=-5&theme=pink&play=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, err := ParseQuery(q)
		kept, errs := ParseQueryKeeping(q)
		// What is kept of a wrong address reads again; each thing left out says why.
		assert.Equal(t, err != nil, len(errs) > 0, "%q", q)
		_, kerr := ParseQuery(query(kept))
		assert.NoError(t, kerr, "%q kept as %q", q, query(kept))
		for _, e := range errs {
			readable(t, e.Error(), q)
		}
		if err != nil {
			// Every error names the parameter (or the address) it is about.
			readable(t, err.Error(), q)
			assert.True(t, strings.Contains(err.Error(), "parameter") || strings.Contains(err.Error(), "scenario="), "%q: %v", q, err)
			return
		}
		// What was read writes back and reads the same.
		again, err := ParseQuery(query(p))
		require.NoError(t, err, "%q read as %+v, written as %q", q, p, query(p))
		// Times in µs through float64 may land a picosecond off.
		assert.InDelta(t, int64(p.Speed), int64(again.Speed), 1, "speed of %q", q)
		assert.InDelta(t, int64(p.Start), int64(again.Start), 1, "t of %q", q)
		again.Speed, again.Start = p.Speed, p.Start
		assert.Equal(t, p, again, "%q written as %q", q, query(p))
		assert.Contains(t, []string{"light", "dark"}, p.Theme)
		assert.Contains(t, []string{"en", "zh"}, p.Lang)
		assert.True(t, p.Speed == 0 || p.Speed >= MinSpeed && p.Speed <= MaxSpeed, "speed %v in range", p.Speed)
		if _, err := p.Load(); err != nil {
			readable(t, err.Error(), q)
		}
	})
}

// A load command that decodes loads, or fails with a readable error.
func FuzzLoadCommand(f *testing.F) {
	for _, s := range []string{`{"fabriclab":"load","yaml":"name: x"}`, `{"fabriclab":"load","scenario":"incast","set":["seed=2"]}`,
		`{"fabriclab":"load","scenario":"incast","set":["topology.hosts=0"]}`, `{"fabriclab":"load","scenario":"nosuch"}`,
		`{"fabriclab":"load","yaml":"name: x\ntopology: {kind: star, hosts: 3}\n","set":["until=1ms"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := protocol.DecodeCommand(data)
		load, ok := c.(protocol.Load)
		if err != nil || !ok || load.Left != nil {
			return
		}
		if _, err := LoadCommand(load); err != nil {
			readable(t, err.Error(), string(data))
		}
	})
}
