package main

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"strings"

	"fabriclab/i18n"
	"fabriclab/playback"
	"fabriclab/protocol"
	"fabriclab/render"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// The editor's and the export buttons' commands (editor.js, embed.js):
// check (protocol.Check) parses and validates without running, answered by
// Checked; source (AskSource), by Source, the YAML to edit with set= written
// in; snapshot (AskSnapshot), by Snapshot, the display list the canvas
// draws now, as SVG. A failed one is answered by a CommandError.

// editorCommand answers c if it is one of the editor's commands (err: what
// was wrong with it), and reports whether it was.
func (g *Game) editorCommand(c protocol.Command, err error) bool {
	switch c.(type) {
	case protocol.Check, protocol.AskSource, protocol.AskSnapshot:
		g.out.event(g.answerEditor(c, err))
		return true
	}
	return false
}

// answerEditor is the event that answers c, an editor command.
func (g *Game) answerEditor(c protocol.Command, err error) protocol.Event {
	if err != nil {
		return protocol.ErrorFor(c, err)
	}
	switch c := c.(type) {
	case protocol.Check:
		return check(c, i18n.Lang(g.params.Lang))
	case protocol.AskSource:
		return source(c, i18n.Lang(g.params.Lang))
	}
	return g.snapshot(c.(protocol.AskSnapshot))
}

// check parses and validates c.YAML as the canvas would load it (including
// what the browser can play), without running it; the messages are in lang.
func check(c protocol.Check, lang i18n.Lang) protocol.Event {
	ev := protocol.Checked{ID: c.ID, OK: true, Errors: []protocol.CheckedError{}}
	sc, err := plan.ParseWith([]byte(c.YAML), "scenario", nil)
	if err == nil {
		ev.Name = sc.Name
		err = playback.FitsBrowser(&sc)
	}
	if err != nil {
		ev.OK, ev.Errors = false, problems(err, lang)
	}
	return ev
}

// problems lists the scenario errors err holds, each with its line, said in
// lang.
func problems(err error, lang i18n.Lang) []protocol.CheckedError {
	var out []protocol.CheckedError
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
			out = append(out, protocol.CheckedError{Line: se.Line, Key: se.Key, Message: i18n.Error(lang, se)})
			return
		}
		out = append(out, protocol.CheckedError{Message: i18n.Error(lang, err)})
	}
	walk(err)
	// in the order of the text (the decoder's and the checks' problems come
	// in two runs), those of no line last
	slices.SortStableFunc(out, func(a, b protocol.CheckedError) int {
		return cmp.Compare(lineOrder(a.Line), lineOrder(b.Line))
	})
	return out
}

// lineOrder sorts a problem of no line (0) after those of a line.
func lineOrder(line int) int {
	if line <= 0 {
		return math.MaxInt
	}
	return line
}

// source is the YAML to edit for what a load would load: a built-in's file
// or the given YAML, with the set= overrides written in; its errors are in
// lang.
func source(c protocol.AskSource, lang i18n.Lang) protocol.Event {
	data, from := []byte(c.YAML), "scenario"
	if c.Scenario != "" {
		var ok bool
		if data, ok = scenario.Builtin(c.Scenario); !ok {
			return protocol.ErrorFor(c, errors.New(i18n.Tf(lang, "editor.source.unknown", c.Scenario)))
		}
		from = "builtin/" + c.Scenario + ".yaml"
	}
	out, err := scenario.Resolve(data, from, c.Sets)
	if err != nil {
		return protocol.ErrorFor(c, errors.New(i18n.Error(lang, err)))
	}
	return protocol.Source{ID: c.ID, YAML: string(out)}
}

// snapshot is the frame on screen as SVG: the display list Draw draws, without
// the hover tooltip (the pointer is on the button that asked).
func (g *Game) snapshot(c protocol.AskSnapshot) protocol.Event {
	if g.failure != "" || g.p == nil || g.frame.Layout == nil || g.frame.Cur == nil {
		return protocol.ErrorFor(c, errors.New(i18n.T(i18n.Lang(g.params.Lang), "editor.snapshot.empty")))
	}
	f := g.frame
	f.Hover = render.Hover{}
	var b render.Builder
	dl := b.Scene(&f)
	var svg strings.Builder
	if err := dl.SVG(&svg); err != nil {
		return protocol.ErrorFor(c, errors.New(i18n.Tf(i18n.Lang(g.params.Lang), "editor.snapshot.failed", err)))
	}
	return protocol.Snapshot{ID: c.ID, SVG: svg.String(), Name: g.p.Scenario().Name,
		TUs: f.Cur.Time.Micros(), Width: dl.W, Height: dl.H}
}
