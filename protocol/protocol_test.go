package protocol

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/golden"
)

func ptr[T any](v T) *T { return &v }

// commandExamples and eventExamples are one message of each type, every
// field set; each has its golden file, testdata/commands/TYPE.json or
// testdata/events/TYPE.json.
var (
	commandExamples = []Command{
		Load{YAML: "name: x\n", Sets: []string{"traffic.senders=4", "training.gpu_hour_price=2.5"}, Play: true, Step: "senders", Figures: []string{"totals.max_fct_us | ms"},
			Report: []string{"training.gpu_hour_price=2.5"}},
		Load{Step: "s1", Play: true, Left: &Side{Label: "PFC alone", Scenario: "incast"},
			Right: &Side{Label: "PFC + DCQCN", YAML: "name: y\n", Sets: []string{"traffic.bytes=8MiB"}}},
		Play{}, Pause{}, Toggle{}, Step{}, Back{}, Reset{}, Seek{TUs: 12.5}, Faster{}, Slower{}, Speed{UsPerS: 250},
		Presenter{On: true}, Quiz{Pending: true}, NextFlow{}, PrevFlow{}, Tap{X: 120, Y: 48.5, Touch: true}, AskStats{},
		Check{YAML: "name: x\n", ID: 3}, AskSource{Scenario: "incast", Sets: []string{"seed=2"}, ID: 4}, AskSnapshot{ID: 5},
		Keys{Parent: ptr(true), Focus: true, Fullscreen: ptr(true)}, Inspect{Dir: -1},
	}
	eventExamples = []Event{
		Ready{},
		Loaded{Name: "incast", Step: "senders", Skipped: 2},
		CompareLoaded{Loaded: Loaded{Name: "ECMP vs Adaptive", Step: "s1"}, Compare: true, Left: "ecmp-collisions", Right: "ecmp-collisions", Labels: [2]string{"ECMP", "Adaptive"}},
		Time{TUs: 25.6, EndUs: 100, Playing: true, SpeedUs: 50, ComputedUs: 100, Progress: 0.42, EtaS: 3.5, SeekUs: ptr(80.0)},
		CompareTime{Time: Time{TUs: 10, EndUs: 348, Done: true, SpeedUs: 100, ComputedUs: 348, Progress: 1, EtaS: -1}, Compare: true, LeftEndUs: 1370, RightEndUs: 348},
		Frame{},
		Done{SimTimeUs: 10955, Drops: 3, PauseFrames: 7098, GoodputGbps: 391.5, FlowsFinished: 8},
		CompareDone{Compare: true, SimTimeUs: 1370,
			Left:       SideTotals{Label: "ECMP", Name: "ecmp-collisions", SimTimeUs: 1370, MaxFctUs: 1369, PauseFrames: 4398, GoodputGbps: 98.5, FlowsFinished: 8},
			Right:      SideTotals{Label: "Adaptive", Name: "ecmp-collisions", SimTimeUs: 348, MaxFctUs: 347, Drops: 1, GoodputGbps: 390, FlowsFinished: 8},
			Difference: "Adaptive finished 4.0× sooner (348 µs vs 1.37 ms)"},
		Ended{TUs: 10955, Summary: "incast: 8 senders to 1, t = 10.955 ms, 8 of 8 flows done, finished"},
		Summary{Text: "incast: 8 senders to 1, t = 25 µs, 3 of 8 flows done, 12 pause frames"},
		CompareSummary{Text: "ECMP: … Adaptive: … ", Difference: "Adaptive finished 4.0× sooner"},
		Figures{Step: "senders", Sets: []string{"traffic.senders=3"}, Values: map[string]string{"totals.max_fct_us | ms": "1.2 ms"},
			Errors: map[string]string{"totals.nope": "totals has no key nope"}},
		View{TUs: 25.6, Nodes: []ViewNode{{Name: "h0", Kind: "host", Group: ""}, {Name: "GPU 3", Kind: "GPU", Group: "node 0"}}, MoreNodes: 8,
			Links: []ViewLink{{From: "sw0", To: "h8", LoadPct: 100, QueueBytes: 1 << 20, Queue: "1.0 MiB", Paused: true}}, MoreLinks: 17,
			Flows: []ViewFlow{{Name: "h0→h8", RateGbps: 12.5, Rate: "12.5 Gb/s", Class: "storage"}, {Name: "h1→h8", Done: true, Rate: "0 b/s"}}, MoreFlows: 6,
			Charts: []ViewChart{{Title: "Throughput per flow", Columns: []string{"t", "h0", "h1"}, Rows: [][]string{{"10 µs", "50 Gb/s", "—"}},
				Notes: []string{"3 of 8 done"}}}},
		Tooltip{Text: "sw0→h8 · 100 Gb/s RoCE · load 100%"},
		Key{Key: "ArrowRight"},
		Stats{Frames: 60, HeapBytes: 1 << 24, LiveBytes: 1 << 23, SysBytes: 1 << 26, FrameBytes: 1 << 20, ComputeS: 1.5, RunS: 4,
			GCCPUS: 0.2, GCs: 7, IntervalP50Ms: 16.7, IntervalP95Ms: 33, IntervalMaxMs: 50, DrawP50Ms: 4, DrawP95Ms: 8, Updates: 61,
			UpdateP50Ms: 1, UpdateP95Ms: 2, ComputingTicks: 30, ComputingTickP50Ms: 90, ComputingTickP95Ms: 110, ComputingTickMaxMs: 130,
			FramesAsked: 62, Workers: []WorkerStats{{RunID: 3, Frames: 1713, Bytes: 2 << 20, Done: true, Early: true}}, Grows: 1, GrownBytes: 1 << 28, GrowMaxMs: 0.3},
		Error{Message: "parameter theme=\"pink\": use light or dark", Fatal: true},
		CommandError{Message: "snapshot: nothing is on the canvas yet; load a scenario first", ID: 5, Command: "snapshot"},
		Checked{ID: 3, Name: "x", Errors: []CheckedError{{Line: 4, Key: "topology.hosts", Message: "x.yaml:4: topology.hosts: must be at least 2"}}},
		Source{ID: 4, YAML: "name: incast\nseed: 2\n"},
		Snapshot{ID: 5, SVG: `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"></svg>`, Name: "incast", TUs: 25.6, Width: 800, Height: 600},
	}
)

func typeName(v any) string { return reflect.TypeOf(v).Name() }

// Each message's JSON is pinned by a golden file, and reads back as the same message.
func TestGolden(t *testing.T) {
	for _, c := range commandExamples {
		data, err := EncodeCommand(c)
		require.NoError(t, err)
		golden.Equal(t, goldenPath(t, "commands", c), append(data, '\n'))
		back, err := DecodeCommand(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, c, back, "%s", data)
	}
	for _, e := range eventExamples {
		data, err := EncodeEvent(e)
		require.NoError(t, err)
		golden.Equal(t, goldenPath(t, "events", e), append(data, '\n'))
		back, err := DecodeEvent(data)
		require.NoError(t, err, "%s", data)
		assert.Equal(t, e, back, "%s", data)
	}
}

// goldenPath is testdata/DIR/TYPE.json; a second example of a type is TYPE-2.json.
func goldenPath(t *testing.T, dir string, v any) string {
	t.Helper()
	name := typeName(v)
	if name == "Load" && v.(Load).Left != nil {
		name += "-compare"
	}
	return filepath.Join("testdata", dir, name+".json")
}

// Every message type has an example, hence a golden file; each name on the
// wire belongs to commands or to events as it should.
func TestEveryMessageHasAnExample(t *testing.T) {
	have := map[string]bool{}
	for _, c := range commandExamples {
		have["c "+typeName(c)] = true
	}
	for _, e := range eventExamples {
		have["e "+typeName(e)] = true
	}
	for _, c := range Commands {
		assert.True(t, have["c "+typeName(c)], "command %s (%s) has no example in commandExamples", typeName(c), c.Command())
	}
	for _, e := range Events {
		assert.True(t, have["e "+typeName(e)], "event %s (%s) has no example in eventExamples", typeName(e), e.Event())
	}
}

// The wire starts with the name, and a message without fields is just it.
func TestEncodeShape(t *testing.T) {
	data, err := EncodeEvent(Ready{})
	require.NoError(t, err)
	assert.Equal(t, `{"fabriclab":"ready"}`, string(data))
	data, err = EncodeCommand(Seek{TUs: 3})
	require.NoError(t, err)
	assert.Equal(t, `{"fabriclab":"seek","t_us":3}`, string(data))
	_, err = EncodeEvent(Ended{TUs: nan()})
	assert.ErrorContains(t, err, "message ended cannot be written as JSON")
}

func nan() float64 { z := 0.0; return z / z }

// A comparison's shape and an editor command's error read back as their own types.
func TestDecodeEventPicksTheShape(t *testing.T) {
	for in, want := range map[string]Event{
		`{"fabriclab":"loaded","name":"a","step":"","skipped":0}`:      Loaded{Name: "a"},
		`{"fabriclab":"summary","text":"t","difference":"d"}`:          CompareSummary{Text: "t", Difference: "d"},
		`{"fabriclab":"summary","text":"t"}`:                           Summary{Text: "t"},
		`{"fabriclab":"error","message":"m"}`:                          Error{Message: "m"},
		`{"fabriclab":"error","message":"m","id":2,"command":"check"}`: CommandError{Message: "m", ID: 2, Command: "check"},
		`{"fabriclab":"time","compare":true,"t_us":1,"left_end_us":2}`: CompareTime{Time: Time{TUs: 1}, Compare: true, LeftEndUs: 2},
	} {
		got, err := DecodeEvent([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := DecodeEvent([]byte(`{"fabriclab":"dance"}`))
	assert.ErrorContains(t, err, `unknown event "dance"`)
}

func TestDecodeCommand(t *testing.T) {
	c, err := DecodeCommand([]byte(`{"fabriclab":"seek","t_us":12.5}`))
	require.NoError(t, err)
	assert.Equal(t, Seek{TUs: 12.5}, c)
	for in, want := range map[string]string{
		`{"fabriclab":"dance"}`:                              `unknown command "dance"; use one of load, play,`,
		`{"fabriclab":"load"}`:                               `load needs yaml (a scenario) or scenario (a built-in name), e.g. {"fabriclab": "load", "scenario": "incast"`,
		`{"fabriclab":"load","left":{"label":3},"right":{}}`: `load: field "left.label" is a JSON number; give a string, e.g. {"fabriclab": "load", "left": {`,
		`{"fabriclab":"seek","t_us":-1}`:                     "seek needs t_us from 0 to 1e+08",
		`{"fabriclab":"seek","t_us":1e9}`:                    "seek needs t_us",
		`{"fabriclab":"speed"}`:                              "speed needs us_per_s above 0 and at most 1e+07",
		`{"fabriclab":"speed","us_per_s":1e8}`:               "speed needs us_per_s",
		`{"fabriclab":"speed","us_per_s":-2}`:                `speed needs us_per_s above 0 and at most 1e+07, e.g. {"fabriclab": "speed", "us_per_s": 50}`,
		`{"fabriclab":"tap","x":"a","y":4}`:                  `tap: field "x" is a JSON string; give a number, e.g. {"fabriclab": "tap", "x": 120`,
		`{"fabriclab":"tap","x":-3,"y":4}`:                   "tap needs x and y",
		`{"fabriclab":"tap","x":3,"y":1e9}`:                  "tap needs x and y",
		`not json`:                                           "not JSON",
		`[]`:                                                 "command is a JSON array; send an object like",
		`{"fabriclab":"seek","t_us":"3"}`:                    `seek: field "t_us" is a JSON string; give a number, e.g. {"fabriclab": "seek", "t_us": 12.5}`,
		`{"fabriclab":1}`:                                    `command field "fabriclab" is a JSON number; give a string`,
		`{"fabriclab":"load","set":"a=b"}`:                   `load: field "set" is a JSON string; give a list of strings, e.g. {"fabriclab": "load", "scenario": "incast", "set": [`,
		`{"fabriclab":"load","yaml":"` + strings.Repeat("x", MaxYAML+1) + `"}`:  "load: the scenario is too long: at most 64 KiB",
		`{"fabriclab":"load","yaml":"` + strings.Repeat("x", MaxCommand) + `"}`: "command too long: at most 128 KiB",
		`{"fabriclab":"check","yaml":"a","scenario":"incast"}`:                  "check takes yaml (the scenario's text) only",
		`{"fabriclab":"check","yaml":"` + strings.Repeat("x", MaxYAML+1) + `"}`: "check: the scenario is too long",
		`{"fabriclab":"source","id":1}`:                                         "source needs yaml (a scenario) or scenario (a built-in name), e.g.",
		`{"fabriclab":"source","yaml":"a","scenario":"incast"}`:                 "source takes yaml (a scenario) or scenario (a built-in name), not both",
		`{"fabriclab":"check","yaml":"a","id":"7"}`:                             `check: field "id" is a JSON string; give a number, e.g. {"fabriclab": "check", "yaml": "name: mine", "id": 1}`,
		`{"fabriclab":"inspect","dir":0.5}`:                                     "inspect needs dir -1",
	} {
		_, err := DecodeCommand([]byte(in))
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}

func TestDecodeCompareCommand(t *testing.T) {
	c, err := DecodeCommand([]byte(`{"fabriclab": "load", "left": {"scenario": "incast", "label": "L"}, "right": {"yaml": "name: r\n", "set": ["until=1ms"]}}`))
	require.NoError(t, err)
	require.IsType(t, Load{}, c)
	assert.Equal(t, "L", c.(Load).Left.Label)
	assert.Equal(t, []string{"until=1ms"}, c.(Load).Right.Sets)
	for cmd, want := range map[string]string{
		`{"fabriclab": "load", "left": {"scenario": "incast"}}`:                                                                            "needs both left and right",
		`{"fabriclab": "load", "left": {"scenario": "incast"}, "right": {}}`:                                                               "right needs yaml",
		`{"fabriclab": "load", "yaml": "a: 1", "left": {"scenario": "a"}, "right": {"scenario": "b"}}`:                                     "not both",
		`{"fabriclab": "load", "left": {"scenario": "a", "label": "` + strings.Repeat("é", MaxLabel+1) + `"}, "right": {"scenario": "b"}}`: "left's label is longer than 60",
		`{"fabriclab": "load", "left": {"scenario": "a"}, "right": {"yaml": "` + strings.Repeat("x", MaxYAML+1) + `"}}`:                    "right's scenario is too long",
	} {
		_, err := DecodeCommand([]byte(cmd))
		require.Error(t, err, cmd)
		assert.Contains(t, err.Error(), want, cmd)
	}
}

// A command's error names the command; an editor command's carries its id
// too; one that could not be read names none.
func TestErrorFor(t *testing.T) {
	c, err := DecodeCommand([]byte(`{"fabriclab":"source","id":9}`))
	require.Error(t, err)
	assert.Equal(t, CommandError{Message: err.Error(), ID: 9, Command: "source"}, ErrorFor(c, err))
	c, err = DecodeCommand([]byte(`{"fabriclab":"seek","t_us":-1}`))
	require.Error(t, err)
	assert.Equal(t, CommandError{Message: err.Error(), Command: "seek"}, ErrorFor(c, err))
	c, err = DecodeCommand([]byte(`nope`))
	require.Error(t, err)
	assert.Nil(t, c)
	assert.Equal(t, CommandError{Message: err.Error()}, ErrorFor(c, err))
	data, err := EncodeEvent(ErrorFor(c, err))
	require.NoError(t, err)
	assert.Contains(t, string(data), `"command":""`, "the page tells a command's error by its command field")
}

// Every command's examples read as that command, without error, and a field
// of the wrong type gets an example that has the field; the list of
// commands in "unknown command" names every command the program reads.
func TestExamplesFitTheirCommands(t *testing.T) {
	for _, zero := range Commands {
		name := zero.Command()
		fieldNames := fields(reflect.TypeOf(zero))
		for _, e := range append([]string{Example(name, "")}, examples[name]...) {
			c, err := DecodeCommand([]byte(e))
			require.NoError(t, err, e)
			assert.Equal(t, name, c.Command(), e)
		}
		for i, f := range fieldNames {
			if name == "check" && (f == "scenario" || f == "set") || name == "keys" {
				continue // taken only to be refused; the page reads keys itself
			}
			e := Example(name, f)
			assert.Contains(t, e, `"`+f+`":`, "%s's example for field %s", name, f)
			wrong := "true"
			if reflect.TypeOf(zero).Field(i).Type.Kind() == reflect.Bool {
				wrong = `"yes"`
			}
			_, err := DecodeCommand([]byte(`{"fabriclab":"` + name + `","` + f + `":` + wrong + `}`))
			require.Error(t, err, "%s with %s an object", name, f)
			assert.Contains(t, err.Error(), name+`: field "`+f+`"`)
			assert.Contains(t, err.Error(), e)
		}
	}
	_, err := DecodeCommand([]byte(`{"fabriclab":"dance"}`))
	require.Error(t, err)
	for _, c := range Commands {
		if c.Command() != "keys" { // the page's own
			assert.Contains(t, err.Error(), " "+c.Command()+",")
		}
	}
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

func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{`{"fabriclab":"play"}`, `{"fabriclab":"load","yaml":"name: x"}`, `{"fabriclab":"seek","t_us":1e300}`, `[]`, `{"fabriclab":"load","scenario":"incast","set":["seed=2"]}`,
		`{"fabriclab":"speed","us_per_s":12.5,"step":"s1"}`, `{"fabriclab":"presenter","on":true}`, `{"fabriclab":"seek","t_us":"3"}`, `{"fabriclab":"load","scenario":"incast","set":[]}`,
		`{"fabriclab":"seek","t_us":-1}`, `{"fabriclab":"speed","us_per_s":0}`, `{"fabriclab":"load"}`, `{"fabriclab":"dance"}`, `{"fabriclab":"play","set":[1]}`,
		`{"fabriclab":"load","left":{"scenario":"incast"},"right":{"yaml":"name: x","label":"X"}}`, `{"fabriclab":"load","left":{}}`, `{"fabriclab":"load","left":1,"right":2}`,
		`{"fabriclab":"check","yaml":"name: x","id":1}`, `{"fabriclab":"source","scenario":"incast","set":["seed=1"],"id":2}`, `{"fabriclab":"snapshot","id":3}`,
		`{"fabriclab":"tap","x":1,"y":2,"touch":true}`, `{"fabriclab":"keys","parent":false}`, `{"fabriclab":"inspect","dir":1}`, `{"fabriclab":"inspect","dir":2}`,
		`{"fabriclab":"tap","x":"a"}`, `{"fabriclab":"load","left":{"label":3},"right":{}}`, `{"fabriclab":"speed","us_per_s":-2}`, `{"fabriclab":"source","yaml":"a","scenario":"b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommand(data)
		if err != nil {
			// Every error says which command (or that it is not one) is wrong.
			readable(t, err.Error(), string(data))
			named := c != nil && (strings.HasPrefix(err.Error(), c.Command()+" ") || strings.HasPrefix(err.Error(), c.Command()+":"))
			assert.True(t, strings.Contains(err.Error(), "command") || named, "%q: %v", data, err)
			// An example in the message is of the command it is about, and reads.
			if _, example, ok := strings.Cut(err.Error(), "e.g. {"); ok && c != nil {
				e, err := DecodeCommand([]byte("{" + example))
				require.NoError(t, err, "the example in the error about %q", data)
				assert.Equal(t, c.Command(), e.Command(), "the example in the error about %q", data)
			}
			return
		}
		// What was read writes back as JSON and reads the same.
		out, err := EncodeCommand(c)
		require.NoError(t, err)
		again, err := DecodeCommand(out)
		require.NoError(t, err, "%q read as %+v, written as %s", data, c, out)
		assert.Equal(t, normal(c), normal(again), "%q written as %s", data, out)
	})
}

// normal is c with empty lists as none: "set": [] reads as empty, and writes as nothing.
func normal(c Command) string {
	data, _ := json.Marshal(c)
	var v any
	_ = json.Unmarshal(data, &v)
	out, _ := json.Marshal(v)
	return string(out)
}
