package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/golden"
	"fabriclab/sim/plan"
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
	assert.Equal(t, []int{4, 6}, []int{got[0][0].Line, got[0][1].Line}, "in the order of the text (the decoder found line 6's)")
	assert.Equal(t, []string{"topology.hosts", "network.buffr"}, []string{got[0][0].Key, got[0][1].Key})
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

// The editor's messages are in the page's language, at the same place, with
// the keys, values and units as they are; English is as before.
func TestCheckSaysErrorsInThePagesLanguage(t *testing.T) {
	fit := "name: fit\ntopology:\n  kind: dgx\n  nodes: 1\nsim:\n  fidelity: flow\ntraining:\n  model: llama3-8b\n  gpu: h100\n  batch: 16384\n  checkpointing: none\n"
	for _, c := range []struct {
		name, yaml string
		en, zh     []string
	}{
		{"unknown key and a value out of range", "name: x\ntopology:\n  kind: star\n  hosts: 0\nnetwork:\n  rto: 1ms\n  ruoting: ecmp\n", []string{
			"scenario:4: topology.hosts: 0 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)",
			"scenario:7: network.ruoting: unknown key; network takes mtu, buffer, flow_control, routing, cc, ecn, cnp_interval, clamp_target_rate, dcqcn, ibcc, pfc, rto, recovery, ack_every, buffer_model, switch_buffer, dt_alpha, classes, reroute_delay",
		}, []string{
			"scenario:4: topology.hosts: 0 无效：星形拓扑至少需要 2 台主机（例如 hosts: 9）",
			"scenario:7: network.ruoting: 未知的键；network 可用 mtu, buffer, flow_control, routing, cc, ecn, cnp_interval, clamp_target_rate, dcqcn, ibcc, pfc, rto, recovery, ack_every, buffer_model, switch_buffer, dt_alpha, classes, reroute_delay",
		}},
		{"a phrase and a list in the sentence", "name: x\ntopology:\n  kind: star\n  hosts: 9\ntraffic:\n  senders: 20\nnetwork:\n  routing: zigzag\n", []string{
			"scenario:6: traffic.senders: 20 is too many: with 9 endpoints, senders must be at most 8 (e.g. senders: 8)",
			`scenario:8: network.routing: "zigzag" is not a routing mode; use static, ecmp, adaptive or spray`,
		}, []string{
			"scenario:6: traffic.senders: 20 太多：共 9 个端点时，senders 最多为 8（例如 senders: 8）",
			`scenario:8: network.routing: "zigzag" 不是有效的路由方式；可用 static、ecmp、adaptive 或 spray`,
		}},
		{"a training that does not fit", fit, []string{
			"scenario:10: training.batch: 16384 does not fit: llama3-8b with sharding fsdp, checkpointing none and batch 16384 needs 102 GB per GPU (weights 6.1, gradients 6.1, Adam state 8.0, activations 81.4 GB), more than h100's 80 GB; use training.checkpointing: selective (63 GB), or a smaller batch (at most 12020 tokens per GPU)",
		}, []string{
			"scenario:10: training.batch: 16384 放不下：llama3-8b 在 sharding fsdp、checkpointing none、batch 16384 下每张 GPU 需要 102 GB（权重 6.1、梯度 6.1、Adam 状态 8.0、激活 81.4 GB），超过了 h100 的 80 GB；请用 training.checkpointing: selective（63 GB），或更小的 batch（每张 GPU 最多 12020 个 token）",
		}},
		{"a YAML syntax error", "name: x\ntopology:\n  kind: star\n   hosts: 9\n", []string{
			"scenario:4: not valid YAML: mapping values are not allowed in this context",
		}, []string{
			"scenario:4: 不是有效的 YAML：此处不允许出现映射值（key: value；缩进是否对齐？）",
		}},
		{"a value that is not a number", "name: x\ntopology: {kind: star, hosts: nine}\n", []string{
			`scenario:2: topology.hosts: "nine" is not a whole number`,
		}, []string{
			`scenario:2: topology.hosts: "nine" 不是整数`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for lang, want := range map[i18n.Lang][]string{i18n.EN: c.en, i18n.ZH: c.zh} {
				ev, ok := check(protocol.Check{ID: 1, YAML: c.yaml}, lang).(protocol.Checked)
				require.True(t, ok)
				var got []string
				for _, e := range ev.Errors {
					got = append(got, e.Message)
				}
				assert.Equal(t, want, got, lang)
			}
		})
	}
}

// An indentation error points at its own line: the key out of step, not the
// document's first line or where its block began.
func TestCheckPointsAtTheMisindentedLine(t *testing.T) {
	for _, c := range []struct {
		yaml string
		line int
	}{
		{"name: x\ntopology:\n  kind: star\n   hosts: 9\n", 4},                                              // deeper than its sibling
		{"name: x\ntopology:\n  kind: star\n hosts: 9\n", 4},                                                // between two levels
		{"name: x\nseed: 1\ntopology:\n  kind: star\n  hosts: 9\nnetwork:\n  mtu: 4096\n    rto: 1ms\n", 8}, // late in the document
		{"name: x\ntraffic:\n  flows:\n    - src: 0\n      dst: 1\n     bytes: 1MiB\n", 6},                  // inside a list's item
		{"name: x\ntopology:\n  kind: star\n\thosts: 9\n", 4},                                               // a tab
	} {
		ev, ok := check(protocol.Check{ID: 1, YAML: c.yaml}, i18n.ZH).(protocol.Checked)
		require.True(t, ok)
		require.Len(t, ev.Errors, 1, c.yaml)
		assert.Equal(t, c.line, ev.Errors[0].Line, "%q: %s", c.yaml, ev.Errors[0].Message)
		assert.Contains(t, ev.Errors[0].Message, "不是有效的 YAML", c.yaml)
	}
}

// The editor lists every problem, past the ten a command line prints (which
// ends with "… and 2 more").
func TestCheckListsPastTen(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: x\nnetwork:\n")
	for i := range 12 {
		fmt.Fprintf(&b, "  key%d: 1\n", i)
	}
	_, err := scenario.Parse([]byte(b.String()), "scenario")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "… and 2 more")
	ev, ok := check(protocol.Check{ID: 1, YAML: b.String()}, i18n.EN).(protocol.Checked)
	require.True(t, ok)
	require.Len(t, ev.Errors, 12)
	for i, e := range ev.Errors {
		assert.Equal(t, i+3, e.Line)
		assert.Equal(t, fmt.Sprintf("network.key%d", i), e.Key)
	}
}

// The canvas says a load's error in the page's language.
func TestFailureInThePagesLanguage(t *testing.T) {
	g, _ := started(t, "?scenario=incast&set=topology.hosts=0&lang=zh")
	assert.Equal(t, "--set topology.hosts=0: topology.hosts: 0 无效：星形拓扑至少需要 2 台主机（例如 hosts: 9）", g.failure)
	require.NotNil(t, g.errorPic.pic, "the canvas pictures it")
	g, _ = started(t, "?scenario=incast&set=topology.hosts=0")
	assert.Equal(t, "--set topology.hosts=0: topology.hosts: 0 is not allowed: a star needs at least 2 hosts (e.g. hosts: 9)", g.failure)
}

// A key the scenario ignores does not hold back the checks that need a valid
// scenario: a training that does not fit shows beside it, not after it.
func TestCheckListsAnIgnoredKeyWithTheLaterChecks(t *testing.T) {
	yaml := "name: fit\ntopology:\n  kind: dgx\n  nodes: 1\n  hosts: 4\nsim:\n  fidelity: flow\ntraining:\n  model: llama3-8b\n  gpu: h100\n  batch: 16384\n  checkpointing: none\n"
	ev, ok := check(protocol.Check{ID: 1, YAML: yaml}, i18n.EN).(protocol.Checked)
	require.True(t, ok)
	var keys []string
	for _, e := range ev.Errors {
		keys = append(keys, e.Key)
	}
	assert.Equal(t, []string{"topology.hosts", "training.batch"}, keys)
	require.Len(t, ev.Errors, 2)
	assert.Contains(t, ev.Errors[0].Message, "ignored: it is used only with topology.kind: star")
	assert.Contains(t, ev.Errors[1].Message, "does not fit")
	_, err := scenario.Parse([]byte(yaml), "scenario")
	require.Error(t, err, "the scenario's own checks report the ignored key")
	assert.NotContains(t, err.Error(), "does not fit", "without sim/plan's checks")
}

// The editor's other answers are in the page's language too: a source whose
// set= does not apply, a snapshot with nothing on the canvas.
func TestEditorAnswersInThePagesLanguage(t *testing.T) {
	ev, ok := source(protocol.AskSource{ID: 2, Scenario: "incast", Sets: []string{"topology.hostz=3"}}, i18n.ZH).(protocol.CommandError)
	require.True(t, ok)
	assert.Equal(t, "--set topology.hostz=3: 未知的键；topology 可用 kind, hosts, nodes, gpus_per_node, nics_per_node, leaves, spines, hosts_per_leaf, k, oversubscription, rail_optimized, dims, fabric, link_gbps, link_latency, switch_latency, nvlink_efficiency, nvlink, gpu, nic_efficiency, storage_nodes, storage_gbps, from", ev.Message)
	g, _ := started(t, "?scenario=incast&set=topology.hosts=0&lang=zh")
	snap, ok := g.snapshot(protocol.AskSnapshot{ID: 3}).(protocol.CommandError)
	require.True(t, ok)
	assert.Equal(t, "快照：画布上还没有内容；请先加载一个场景", snap.Message)
}

// Every error of the loader's cases (sim/scenario/testdata/errors), with
// sim/plan's checks, has a Chinese for its format and for each phrase in it:
// none is left English inside a Chinese sentence.
func TestEveryErrorCaseHasChinese(t *testing.T) {
	zh := map[string]bool{}
	for _, tx := range i18n.ErrorTexts() {
		zh[tx.EN] = true
	}
	verb := regexp.MustCompile(`%[-+# 0]*(\[\d+\])?[\d.]*(\[\d+\])?[a-zA-Z%]`)
	var missing func(where string, v any) []string
	missing = func(where string, v any) []string {
		var out []string
		switch v := v.(type) {
		case interface{ Message() (string, []any) }:
			format, args := v.Message()
			if !zh[format] && strings.ContainsFunc(verb.ReplaceAllString(format, ""), unicode.IsLetter) {
				out = append(out, where+": "+format)
			}
			for _, a := range args {
				out = append(out, missing(where, a)...)
			}
		case interface{ Unwrap() []error }:
			for _, e := range v.Unwrap() {
				out = append(out, missing(where, e)...)
			}
		}
		return out
	}
	paths, err := filepath.Glob("../../sim/scenario/testdata/errors/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	var gaps []string
	cases := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		_, files := golden.Archive(string(data))
		for _, f := range files {
			if !strings.HasSuffix(f.Name, ".yaml") {
				continue
			}
			var sets []string
			for line := range strings.Lines(f.Text) {
				set, ok := strings.CutPrefix(line, "# --set ")
				if !ok {
					break
				}
				sets = append(sets, strings.TrimSpace(set))
			}
			_, err := plan.ParseWith([]byte(f.Text), f.Name, sets)
			if err == nil {
				continue
			}
			cases++
			gaps = append(gaps, missing(f.Name, err)...)
		}
	}
	assert.Greater(t, cases, 200, "the cases are read")
	assert.Empty(t, gaps, "formats without Chinese (i18n/errors_zh.go)")
}
