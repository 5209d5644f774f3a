package player

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/unit"
)

func TestParseQuery(t *testing.T) {
	p, err := ParseQuery("?scenario=ecmp-collisions&play=1&speed=50&t=10&theme=light&set=seed=3&set=until=100us&controls=0&big=1")
	require.NoError(t, err)
	assert.Equal(t, "ecmp-collisions", p.Scenario)
	assert.True(t, p.Play)
	assert.False(t, p.Controls)
	assert.True(t, p.Big)
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

func TestParseQueryErrors(t *testing.T) {
	for q, want := range map[string]string{
		"scenario=nope":                 `scenario="nope" is not a built-in scenario; use one of`,
		"color=red":                     `unknown parameter "color"; the canvas takes scenario, yaml`,
		"play=maybe":                    "use play=1 or play=0",
		"speed=-3":                      "speed=\"-3\": give simulated µs per second",
		"t=abc":                         "t=\"abc\": give the start time in µs",
		"theme=pink":                    "use light or dark",
		"yaml=***":                      "not base64url-encoded YAML",
		"scenario=incast&scenario=x":    "given 2 times",
		"set=oops":                      "write set=key.path=value",
		"%zz":                           "cannot be read",
		"scenario=incast&yaml=bmFtZTog": "either scenario= or yaml=",
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

func TestParseCommand(t *testing.T) {
	c, err := ParseCommand([]byte(`{"fabriclab":"seek","t_us":12.5}`))
	require.NoError(t, err)
	assert.Equal(t, "seek", c.Op)
	assert.Equal(t, 12.5, c.TUs)
	for in, want := range map[string]string{
		`{"fabriclab":"dance"}`:          `unknown command "dance"`,
		`{"fabriclab":"load"}`:           "load needs yaml",
		`{"fabriclab":"seek","t_us":-1}`: "seek needs t_us",
		`{"fabriclab":"speed"}`:          "speed needs us_per_s",
		`not json`:                       "not JSON",
	} {
		_, err := ParseCommand([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want)
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "?scenario=incast&play=1", "yaml=bmFtZTogeA", "set=a=b&set=c", "speed=1e9", "t=NaN", "%", "scenario=incast&set=topology.hosts=0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		p, err := ParseQuery(q)
		if err != nil {
			return
		}
		if _, err := p.Load(); err != nil {
			return
		}
	})
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{`{"fabriclab":"play"}`, `{"fabriclab":"load","yaml":"name: x"}`, `{"fabriclab":"seek","t_us":1e300}`, `[]`, `{"fabriclab":"load","scenario":"incast","set":["seed=2"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCommand(data)
		if err != nil || c.Op != "load" {
			return
		}
		c.Load() // must not panic
	})
}
