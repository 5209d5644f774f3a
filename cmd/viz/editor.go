package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"fabriclab/playback"
	"fabriclab/render"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// The editor's and the export buttons' commands (editor.js, embed.js):
//
//	{fabriclab: "check", yaml, id}      → checked {id, ok, name, errors: [{line, key, message}]}
//	{fabriclab: "source", scenario | yaml, set, id} → source {id, yaml} (the YAML to edit: set= written in) or error
//	{fabriclab: "snapshot", id}         → snapshot {id, svg, name, t_us, width, height}: the frame on screen
//
// check parses and validates without running; snapshot is the display list
// the canvas draws now, as SVG.
type editorCommand struct {
	Op       string   `json:"fabriclab"`
	YAML     string   `json:"yaml,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	Sets     []string `json:"set,omitempty"`
	ID       float64  `json:"id,omitempty"` // echoed back, so the page knows which answer is the latest
}

var editorOps = []string{"check", "source", "snapshot"}

// checkedError is one problem check found: its line (0: none, e.g. a
// default that does not fit) and key, and the whole message.
type checkedError struct {
	Line    int    `json:"line"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
}

// parseEditorCommand reads one of the editor's commands. ok is false when
// raw is some other command (for playback.ParseCommand); err says what is
// wrong with an editor command.
func parseEditorCommand(raw []byte) (c editorCommand, ok bool, err error) {
	// A cheap look first: every other command goes on untouched.
	if !bytes.Contains(raw, []byte(`"check"`)) && !bytes.Contains(raw, []byte(`"source"`)) && !bytes.Contains(raw, []byte(`"snapshot"`)) {
		return c, false, nil
	}
	var probe struct {
		Op any `json:"fabriclab"`
	}
	if len(raw) > playback.MaxYAML*2 || json.Unmarshal(raw, &probe) != nil {
		return c, false, nil // ParseCommand says what is wrong
	}
	if op, _ := probe.Op.(string); !slices.Contains(editorOps, op) {
		return c, false, nil
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, true, fmt.Errorf("command %s: %v; send e.g. {\"fabriclab\": \"check\", \"yaml\": \"name: x\"}", c.Op, err)
	}
	switch c.Op {
	case "check":
		if c.Scenario != "" || len(c.Sets) > 0 {
			return c, true, fmt.Errorf("check takes yaml (the scenario's text) only")
		}
	case "source":
		if (c.YAML == "") == (c.Scenario == "") {
			return c, true, fmt.Errorf("source needs yaml (a scenario) or scenario (a built-in name), not both")
		}
	}
	if len(c.YAML) > playback.MaxYAML {
		return c, true, fmt.Errorf("%s: the scenario is too long: at most %d KiB", c.Op, playback.MaxYAML>>10)
	}
	return c, true, nil
}

// editorCommands answers the editor's commands in raws and returns the others.
func (g *Game) editorCommands(raws [][]byte) [][]byte {
	rest := raws[:0:0]
	for _, raw := range raws {
		c, ok, err := parseEditorCommand(raw)
		switch {
		case !ok:
			rest = append(rest, raw)
		case err != nil:
			g.out.event(map[string]any{"fabriclab": "error", "message": err.Error(), "id": c.ID, "command": c.Op})
		default:
			g.out.event(answerEditor(c, g))
		}
	}
	return rest
}

// answerEditor is the event that answers c.
func answerEditor(c editorCommand, g *Game) map[string]any {
	switch c.Op {
	case "check":
		return check(c)
	case "source":
		return source(c)
	}
	return g.snapshot(c)
}

// check parses and validates c.YAML as the canvas would load it (including
// what the browser can play), without running it.
func check(c editorCommand) map[string]any {
	ev := map[string]any{"fabriclab": "checked", "id": c.ID, "ok": true, "errors": []checkedError{}}
	sc, err := plan.ParseWith([]byte(c.YAML), "scenario", nil)
	if err == nil {
		ev["name"] = sc.Name
		err = playback.FitsBrowser(&sc)
	}
	if err != nil {
		ev["ok"], ev["errors"] = false, problems(err)
	}
	return ev
}

// problems lists the scenario errors err holds, each with its line.
func problems(err error) []checkedError {
	var out []checkedError
	var walk func(error)
	walk = func(err error) {
		if m, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range m.Unwrap() {
				walk(e)
			}
			return
		}
		var se *scenario.Error
		if errors.As(err, &se) {
			out = append(out, checkedError{Line: se.Line, Key: se.Key, Message: se.Error()})
			return
		}
		out = append(out, checkedError{Message: err.Error()})
	}
	walk(err)
	return out
}

// source is the YAML to edit for what a load would load: a built-in's file
// or the given YAML, with the set= overrides written in.
func source(c editorCommand) map[string]any {
	data, from := []byte(c.YAML), "scenario"
	if c.Scenario != "" {
		var ok bool
		if data, ok = scenario.Builtin(c.Scenario); !ok {
			return map[string]any{"fabriclab": "error", "id": c.ID, "command": c.Op,
				"message": fmt.Sprintf("source: %q is not a built-in scenario", c.Scenario)}
		}
		from = "builtin/" + c.Scenario + ".yaml"
	}
	out, err := scenario.Resolve(data, from, c.Sets)
	if err != nil {
		return map[string]any{"fabriclab": "error", "id": c.ID, "command": c.Op, "message": err.Error()}
	}
	return map[string]any{"fabriclab": "source", "id": c.ID, "yaml": string(out)}
}

// snapshot is the frame on screen as SVG: the display list Draw draws, without
// the hover tooltip (the pointer is on the button that asked).
func (g *Game) snapshot(c editorCommand) map[string]any {
	if g.failure != "" || g.p == nil || g.frame.Layout == nil || g.frame.Cur == nil {
		return map[string]any{"fabriclab": "error", "id": c.ID, "command": c.Op, "message": "snapshot: nothing is on the canvas yet; load a scenario first"}
	}
	f := g.frame
	f.Hover = render.Hover{}
	var b render.Builder
	dl := b.Scene(&f)
	var svg strings.Builder
	if err := dl.SVG(&svg); err != nil {
		return map[string]any{"fabriclab": "error", "id": c.ID, "command": c.Op, "message": "snapshot: " + err.Error()}
	}
	return map[string]any{"fabriclab": "snapshot", "id": c.ID, "svg": svg.String(), "name": g.p.Scenario().Name,
		"t_us": f.Cur.Time.Micros(), "width": dl.W, "height": dl.H}
}
