package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/scenario"
)

// last is the last event named name the page got.
func (h *pageHost) last(name string) map[string]any {
	for i := len(h.events) - 1; i >= 0; i-- {
		if h.events[i]["fabriclab"] == name {
			return h.events[i]
		}
	}
	return nil
}

// checkedErrors are the errors of a checked event, as the page reads them.
func checkedErrors(t *testing.T, ev map[string]any) []protocol.CheckedError {
	t.Helper()
	data, err := json.Marshal(ev["errors"])
	require.NoError(t, err)
	var errs []protocol.CheckedError
	require.NoError(t, json.Unmarshal(data, &errs))
	return errs
}

func command(t *testing.T, v map[string]any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

// check lists every problem at once: an unknown key beside a value out of
// range (two layers of checks), each at its line; an indentation error at its
// own line.
func TestCheckListsEveryProblem(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	bad := "name: x\ntopology:\n  kind: star\n  hosts: 0\nnetwork:\n  buffr: 2MiB\n"
	h.send(command(t, map[string]any{"fabriclab": "check", "yaml": bad, "id": 1}))
	h.send(command(t, map[string]any{"fabriclab": "check", "yaml": "name: x\ntraffic:\n  flows:\n    - src: 0\n      dst: 1\n     bytes: 1MiB\n", "id": 2}))
	require.NoError(t, g.Update())
	var got [][]protocol.CheckedError
	for _, ev := range h.events {
		if ev["fabriclab"] == "checked" {
			got = append(got, checkedErrors(t, ev))
		}
	}
	require.Len(t, got, 2)
	require.Len(t, got[0], 2)
	assert.Equal(t, []int{6, 4}, []int{got[0][0].Line, got[0][1].Line})
	assert.Equal(t, []string{"network.buffr", "topology.hosts"}, []string{got[0][0].Key, got[0][1].Key})
	require.Len(t, got[1], 1)
	assert.Equal(t, 6, got[1][0].Line, "the line out of step, not where its list began")
}

// TestCheck: check validates without running and names each problem's line.
func TestCheck(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	bad := "name: x\ntopology:\n  kind: star\n  hosts: 0\nnetwork:\n  routing: zigzag\n"
	h.send(command(t, map[string]any{"fabriclab": "check", "yaml": bad, "id": 7}))
	require.NoError(t, g.Update())
	ev := h.last("checked")
	require.NotNil(t, ev)
	assert.Equal(t, float64(7), ev["id"])
	assert.Equal(t, false, ev["ok"])
	errs := checkedErrors(t, ev)
	require.Len(t, errs, 2)
	assert.Equal(t, 4, errs[0].Line)
	assert.Equal(t, "topology.hosts", errs[0].Key)
	assert.Contains(t, errs[0].Message, "scenario:4: topology.hosts: 0 is not allowed")
	assert.Equal(t, 6, errs[1].Line)
	assert.Contains(t, errs[1].Message, "zigzag")
	assert.Equal(t, "incast", g.p.Scenario().Name, "check loads nothing")

	h.send(command(t, map[string]any{"fabriclab": "check", "yaml": "name: x\ntopology: [1,\n"}))
	require.NoError(t, g.Update())
	errs = checkedErrors(t, h.last("checked"))
	require.Len(t, errs, 1)
	assert.Equal(t, 2, errs[0].Line, "a syntax error names its line: where the list opens")
	assert.Contains(t, errs[0].Message, "not valid YAML")

	h.send(command(t, map[string]any{"fabriclab": "check", "yaml": "name: ok\ntraffic: {senders: 4}\n"}))
	require.NoError(t, g.Update())
	ev = h.last("checked")
	assert.Equal(t, true, ev["ok"])
	assert.Equal(t, "ok", ev["name"])
	assert.Empty(t, ev["errors"])

	// What the browser cannot play is an error too, without a line.
	h.send(command(t, map[string]any{"fabriclab": "check", "yaml": "topology: {kind: fattree, k: 32}\ntraffic: {pattern: permutation}\n"}))
	require.NoError(t, g.Update())
	ev = h.last("checked")
	assert.Equal(t, false, ev["ok"])
	errs = checkedErrors(t, ev)
	require.Len(t, errs, 1)
	assert.Zero(t, errs[0].Line)
	assert.Contains(t, errs[0].Message, "sim.fidelity: flow")
}

// TestSource: a built-in with set= becomes the YAML to edit, which loads as
// the same scenario.
func TestSource(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	h.send(command(t, map[string]any{"fabriclab": "source", "scenario": "incast", "set": []string{"traffic.senders=3"}, "id": 2}))
	require.NoError(t, g.Update())
	ev := h.last("source")
	require.NotNil(t, ev)
	assert.Equal(t, float64(2), ev["id"])
	y := ev["yaml"].(string)
	assert.Contains(t, y, "senders: 3")
	want, err := scenario.Load("incast", nil, []string{"traffic.senders=3"})
	require.NoError(t, err)
	got, err := scenario.Parse([]byte(y), "x")
	require.NoError(t, err)
	assert.Equal(t, want, got)

	h.send(command(t, map[string]any{"fabriclab": "source", "yaml": "name: mine\n"}))
	require.NoError(t, g.Update())
	assert.Equal(t, "name: mine\n", h.last("source")["yaml"])

	h.send(command(t, map[string]any{"fabriclab": "source", "scenario": "nope"}))
	require.NoError(t, g.Update())
	assert.Contains(t, h.last("error")["message"], `"nope" is not a built-in`)
	assert.Equal(t, "source", h.last("error")["command"])
}

// TestSnapshot: the frame on screen as SVG, at the time shown.
func TestSnapshot(t *testing.T) {
	g, h := started(t, "?scenario=incast&t=20")
	for range 50 {
		require.NoError(t, g.Update())
	}
	h.send(`{"fabriclab":"snapshot","id":1}`)
	require.NoError(t, g.Update())
	ev := h.last("snapshot")
	require.NotNil(t, ev)
	svg := ev["svg"].(string)
	assert.True(t, strings.HasPrefix(svg, "<svg "), svg[:min(80, len(svg))])
	assert.Contains(t, svg, ">incast</text>")
	assert.Contains(t, svg, ">h8</text>")
	assert.Equal(t, "incast", ev["name"])
	assert.InDelta(t, 20, ev["t_us"], 1, "the frame at or before t=20")
	assert.Equal(t, 800.0, ev["width"])
	assert.Equal(t, float64(600-controlsHeight), ev["height"], "the picture above the playback bar")

	// The pointer's tooltip is left out: the pointer is on the button that asked.
	tip := g.frame
	n := tip.Layout.Nodes[0]
	tip.Hover = render.HitTest(tip.Layout, n.X+n.W/2, n.Y+n.H/2)
	require.NotEqual(t, render.HoverNone, tip.Hover.Kind)
	var with, without strings.Builder
	var b render.Builder
	require.NoError(t, b.Scene(&tip).SVG(&with))
	plain := g.frame
	plain.Hover = render.Hover{}
	require.NoError(t, (&render.Builder{}).Scene(&plain).SVG(&without))
	require.NotEqual(t, with.String(), without.String())
	g.frame.Hover = tip.Hover
	h.send(`{"fabriclab":"snapshot","id":2}`)
	cmds, _ := g.out.commands().drain()
	g.handleAll(cmds)
	assert.Equal(t, without.String(), h.last("snapshot")["svg"])

	g, h = started(t, "?scenario=incast&set=topology.hosts=0")
	h.send(`{"fabriclab":"snapshot"}`)
	require.NoError(t, g.Update())
	assert.Contains(t, h.last("error")["message"], "nothing is on the canvas")
}

// An editor command that is wrong is answered by an error naming it, with its id.
func TestEditorCommandErrors(t *testing.T) {
	g, h := started(t, "?scenario=incast")
	for raw, want := range map[string]string{
		`{"fabriclab":"check","yaml":3,"id":1}`:                                     `check: field "yaml" is a JSON number; give a string, e.g. {"fabriclab": "check", "yaml":`,
		`{"fabriclab":"check","yaml":"a: 1","scenario":"incast","id":1}`:            "check takes yaml",
		`{"fabriclab":"source","id":1}`:                                             "source needs yaml",
		`{"fabriclab":"source","yaml":"a: 1","scenario":"incast","id":1}`:           "not both",
		`{"fabriclab":"check","id":1,"yaml":"` + strings.Repeat("x", 70<<10) + `"}`: "too long",
	} {
		h.events = nil
		h.send(raw)
		require.NoError(t, g.Update())
		ev := h.last("error")
		require.NotNil(t, ev, raw[:min(60, len(raw))])
		assert.Contains(t, ev["message"], want, raw[:min(60, len(raw))])
		assert.Equal(t, float64(1), ev["id"], raw[:min(60, len(raw))])
		assert.Equal(t, strings.Split(raw, `"`)[3], ev["command"], raw[:min(60, len(raw))])
	}
	for _, raw := range []string{`{"fabriclab":"play"}`, `{"fabriclab":"load","yaml":"name: check"}`, `{"fabriclab":"load","scenario":"incast","set":["check"]}`, `not json "check"`, `{"fabriclab":["check"]}`} {
		c, err := protocol.DecodeCommand([]byte(raw))
		assert.False(t, g.editorCommand(c, err), raw)
	}
}

func FuzzEditorCommand(f *testing.F) {
	for _, s := range []string{`{"fabriclab":"check","yaml":"name: x\ntopology: {hosts: 0}"}`, `{"fabriclab":"source","scenario":"incast","set":["traffic.senders=2"]}`,
		`{"fabriclab":"source","yaml":"a: [1,"}`, `{"fabriclab":"snapshot","id":3}`, `{"fabriclab":"check"}`, `{"fabriclab":"check","yaml":"- 1"}`,
		`{"fabriclab":"source","scenario":"../x"}`, `{"fabriclab":"source","yaml":"name: x","set":["a"]}`, `{"fabriclab":"check","id":"x"}`, `{"fabriclab":"play"}`} {
		f.Add([]byte(s))
	}
	g := &Game{out: &pageHost{}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := protocol.DecodeCommand(raw)
		switch c.(type) {
		case protocol.Check, protocol.AskSource, protocol.AskSnapshot:
		default:
			return
		}
		switch ev := g.answerEditor(c, err).(type) {
		case protocol.Checked:
			yaml := c.(protocol.Check).YAML
			for _, e := range ev.Errors {
				assert.NotEmpty(t, e.Message)
				assert.GreaterOrEqual(t, e.Line, 0)
				assert.LessOrEqual(t, e.Line, strings.Count(yaml, "\n")+1, "%q: %+v", yaml, e)
			}
		case protocol.Source:
			// What source gives checks as the scenario it came from would.
			c := c.(protocol.AskSource)
			_, err1 := scenario.ParseWith([]byte(ev.YAML), "x", nil)
			var err2 error
			if c.Scenario != "" {
				_, err2 = scenario.Load(c.Scenario, nil, c.Sets)
			} else {
				_, err2 = scenario.ParseWith([]byte(c.YAML), "x", c.Sets)
			}
			assert.Equal(t, err2 == nil, err1 == nil, "%q: %v / %v", raw, err1, err2)
		case protocol.CommandError:
			assert.NotEmpty(t, ev.Message)
			assert.Equal(t, c.Command(), ev.Command)
		default:
			t.Fatalf("%q: answered %#v", raw, ev)
		}
	})
}
