package playback

import (
	"encoding/base64"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"fabriclab/protocol"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// Params are the embed page's URL parameters.
type Params struct {
	Scenario string   // a built-in name
	YAML     string   // a whole scenario (yaml=, base64url)
	Sets     []string // set=key.path=value, repeatable
	Play     bool     // start playing once loaded
	Speed    unit.Time
	Start    unit.Time // t=, in µs: where playback starts
	Theme    string    // light | dark
	Controls bool
	Big      bool   // big=1: projector-size text on the canvas
	Lang     string // en | zh: the language of the canvas's text
	// Compare (compare=1, left=…, right=…) shows two scenarios side by side (compare.go).
	Compare *[2]Side
	// FirstLoad (first=load): the page sends the first run as a load
	// command, and the canvas waits for it (a lesson's canvas) rather than
	// play incast meanwhile.
	FirstLoad bool
}

// Limits on the parameters. The page's whole query is bounded first, so that
// no address makes parsing slow; yaml= then takes up to MaxYAML bytes of YAML
// (base64url makes that 4/3 as many characters) and the set= values together
// up to MaxSets bytes.
const (
	MaxYAML  = protocol.MaxYAML // 64 KiB
	MaxSets  = 64 << 10
	MaxQuery = protocol.MaxQuery // 256 KiB
)

// editor (editor=1), knobs (knobs=key,key) and knob.KEY (a knob's values)
// are the page's own (editor.js shows the scenario editor, embedknobs.js the
// knobs); the canvas ignores them.
var paramNames = []string{"scenario", "yaml", "set", "play", "speed", "t", "theme", "controls", "big", "lang", "first", "editor", "knobs"}

// ParseQuery reads a URL query string such as "?scenario=incast&play=1".
// Errors name the parameter, the value and what is allowed.
func ParseQuery(q string) (Params, error) {
	p := Params{Theme: "dark", Controls: true, Lang: "en"}
	if len(q) > MaxQuery {
		return p, fmt.Errorf("the page address's parameters are %d KiB; at most %d KiB (yaml= takes up to %d KiB of YAML, set= up to %d KiB)", len(q)>>10, MaxQuery>>10, MaxYAML>>10, MaxSets>>10)
	}
	vals, err := url.ParseQuery(strings.TrimPrefix(q, "?"))
	if err != nil {
		return p, fmt.Errorf("the page address's parameters cannot be read (%v); write them as ?scenario=incast&play=1", err)
	}
	if err := checkParamNames(vals); err != nil {
		return p, err
	}
	if err := parseSource(vals, &p); err != nil {
		return p, err
	}
	if err := parseCompare(vals, &p); err != nil {
		return p, err
	}
	err = parseView(vals, &p)
	return p, err
}

// ParseQueryKeeping reads q as ParseQuery does, but leaves out what is
// wrong: each parameter whose removal changes the error goes, until the rest
// reads, and errs says what was left out and why. An address that cannot be
// read at all, or is too long, keeps nothing (the defaults, and its error).
func ParseQueryKeeping(q string) (p Params, errs []error) {
	p, err := ParseQuery(q)
	if err == nil || len(q) > MaxQuery {
		return p, nil
	}
	vals, perr := url.ParseQuery(strings.TrimPrefix(q, "?"))
	if perr != nil {
		return Params{Theme: "dark", Controls: true, Lang: "en"}, []error{err}
	}
	for err != nil && len(errs) < 8 {
		dropped := false
		for _, k := range slices.Sorted(maps.Keys(vals)) {
			rest := maps.Clone(vals)
			delete(rest, k)
			again, rerr := ParseQuery(rest.Encode())
			if rerr == nil || rerr.Error() != err.Error() {
				errs = append(errs, err)
				vals, p, err, dropped = rest, again, rerr, true
				break
			}
		}
		if !dropped {
			break
		}
	}
	if err != nil { // nothing to leave out makes it read
		p, _ = ParseQuery("")
		errs = append(errs, err)
	}
	return p, errs
}

// checkParamNames refuses an unknown parameter, or one given twice (set=,
// left.set= and right.set= may repeat).
func checkParamNames(vals url.Values) error {
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(paramNames, k) && !slices.Contains(compareParams, k) && !(strings.HasPrefix(k, "knob.") && len(k) > len("knob.")) {
			return fmt.Errorf("unknown parameter %q; the canvas takes %s, knob.KEY", k, strings.Join(append(paramNames, compareParams...), ", "))
		}
		if k != "set" && !strings.HasSuffix(k, ".set") && len(vals[k]) > 1 {
			return fmt.Errorf("parameter %s is given %d times; give it once", k, len(vals[k]))
		}
	}
	return nil
}

// parseSource reads what runs: scenario= or yaml=, and the set= overrides.
func parseSource(vals url.Values, p *Params) error {
	if s := vals.Get("scenario"); s != "" {
		if _, ok := scenario.Builtin(s); !ok {
			names := []string{}
			for _, b := range scenario.Builtins() {
				names = append(names, b.Name)
			}
			return fmt.Errorf("parameter scenario=%q is not a built-in scenario; use one of %s", s, strings.Join(names, ", "))
		}
		p.Scenario = s
	}
	if vals.Has("yaml") && vals.Get("yaml") == "" {
		return fmt.Errorf("parameter yaml= is empty; give a scenario's YAML, base64url-encoded, or leave yaml= out to play scenario= (default incast)")
	}
	if y := vals.Get("yaml"); y != "" {
		y = strings.TrimRight(y, "=")
		if n := base64.RawURLEncoding.DecodedLen(len(y)); n > MaxYAML {
			return fmt.Errorf("parameter yaml is %d bytes of YAML, more than the %d KiB (%d bytes) the address takes; shorten the scenario, or send it with a load message", n, MaxYAML>>10, MaxYAML)
		}
		data, err := base64.RawURLEncoding.DecodeString(y)
		if err != nil {
			return fmt.Errorf("parameter yaml is not base64url-encoded YAML (%v); encode the scenario with base64url", err)
		}
		p.YAML = string(data)
	}
	if p.Scenario != "" && p.YAML != "" {
		return fmt.Errorf("give either scenario= or yaml=, not both")
	}
	sets := 0
	for _, s := range vals["set"] {
		if sets += len(s); sets > MaxSets {
			return fmt.Errorf("parameters set= come to more than %d KiB; give fewer overrides, or put them in a yaml= scenario", MaxSets>>10)
		}
		if !strings.Contains(s, "=") {
			return fmt.Errorf("parameter set=%q: write set=key.path=value, e.g. set=traffic.senders=4", s)
		}
		p.Sets = append(p.Sets, s)
	}
	return nil
}

// parseView reads how it plays and looks: play, controls, big, speed, t,
// theme and lang; and first.
func parseView(vals url.Values, p *Params) error {
	var err error
	if f := vals.Get("first"); f != "" || vals.Has("first") {
		if f != "load" {
			return fmt.Errorf("parameter first=%q: use first=load (the page sends the first run as a load message), or leave it out", f)
		}
		p.FirstLoad = true
	}
	if p.Play, err = queryFlag(vals, "play"); err != nil {
		return err
	}
	if vals.Has("controls") {
		if p.Controls, err = queryFlag(vals, "controls"); err != nil {
			return err
		}
	}
	if p.Big, err = queryFlag(vals, "big"); err != nil {
		return err
	}
	if s := vals.Get("speed"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0) || v > MaxSpeed.Micros() {
			return fmt.Errorf("parameter speed=%q: give simulated µs per second, above 0 and at most %g", s, MaxSpeed.Micros())
		}
		p.Speed = clampSpeed(unit.Time(v * float64(unit.Microsecond)))
	}
	if s := vals.Get("t"); s != "" {
		if p.Start, err = parseStart(s); err != nil {
			return err
		}
	}
	if th := vals.Get("theme"); th != "" {
		if th != "light" && th != "dark" {
			return fmt.Errorf("parameter theme=%q: use light or dark", th)
		}
		p.Theme = th
	}
	if l := vals.Get("lang"); l != "" {
		if l != "en" && l != "zh" {
			return fmt.Errorf("parameter lang=%q: use en (English) or zh (Simplified Chinese)", l)
		}
		p.Lang = l
	}
	return nil
}

// queryFlag reads a yes-or-no parameter: present without a value, 1, true
// or yes; 0, false or no.
func queryFlag(vals url.Values, k string) (bool, error) {
	v := vals.Get(k)
	switch v {
	case "", "1", "true", "yes":
		return v != "" || vals.Has(k), nil
	case "0", "false", "no":
		return false, nil
	}
	return false, fmt.Errorf("parameter %s=%q: use %s=1 or %s=0", k, v, k, k)
}

// parseStart reads t=: a plain number is µs; a time with its unit (500us,
// 1.2ms) as the CLI's --t takes it.
func parseStart(s string) (unit.Time, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if d, derr := unit.ParseTime(s); derr == nil {
			v, err = d.Micros(), nil
		}
	}
	if err != nil || !(v >= 0) || v > scenario.MaxUntil.Micros() {
		return 0, fmt.Errorf("parameter t=%q: give the start time in µs (500) or with its unit (500us, 1.2ms), from 0 to %g µs", s, scenario.MaxUntil.Micros())
	}
	return unit.Time(v * float64(unit.Microsecond)), nil
}

// NamesRun says whether the parameters ask for a run of their own: a
// scenario, YAML, set= overrides or a comparison. Without one the canvas
// plays incast, unless the page has sent a load already (a lesson sends its
// step's before the canvas is ready).
func (p Params) NamesRun() bool {
	return p.Scenario != "" || p.YAML != "" || len(p.Sets) > 0 || p.Compare != nil
}

// Scenario loads what the parameters ask for: a built-in, inline YAML, or
// (neither) the incast scenario, with the set= overrides.
func (p Params) Load() (scenario.Scenario, error) {
	if p.YAML != "" {
		return plan.ParseWith([]byte(p.YAML), "yaml parameter", p.Sets)
	}
	name := p.Scenario
	if name == "" {
		name = "incast"
	}
	return plan.Load(name, nil, p.Sets)
}

// Begin is the worker's begin (protocol.Begin, without its run_id and heap
// limit) for the run the parameters name: Load's.
func (p Params) Begin() protocol.Begin {
	b := protocol.Begin{YAML: p.YAML, Scenario: p.Scenario, Sets: p.Sets, Lang: p.Lang}
	if b.YAML == "" && b.Scenario == "" {
		b.Scenario = "incast"
	}
	return b
}

// LoadBegin is the worker's begin (without its run_id and heap limit) for
// load command c, of one scenario, on a page in lang: LoadCommand's.
func LoadBegin(c protocol.Load, lang string) protocol.Begin {
	return protocol.Begin{YAML: c.YAML, Scenario: c.Scenario, Sets: c.Sets, Lang: lang}
}

// FirstRun is the worker's begin (without its run_id and heap limit) for
// the canvas's first run on a page whose address has the parameters query,
// when load is the load command the page sent before the canvas started
// (nil: none): the address's run when it names one, or when no load came
// and the address does not say one will (first=load); else the load's. Of
// a comparison (the address's compare=, or a load of two sides) it is the
// begin of side ("left" or "right"), which the worker of that side
// computes; side is "" for one run. ok is false when the first run is not
// that (one run for a side, or a comparison for none) or is still to come
// (first=load, no load yet). cmd/viz's newGame and handleLoad begin the
// same; cmd/worker computes it early (protocol.Early).
func FirstRun(query string, load *protocol.Load, side string) (b protocol.Begin, ok bool) {
	p, _ := ParseQueryKeeping(query)
	var sides [2]Side
	switch {
	case p.Compare != nil:
		sides = *p.Compare
	case side == "" && (p.NamesRun() || (load == nil && !p.FirstLoad)):
		return p.Begin(), true
	case load == nil || p.NamesRun():
		return b, false
	case load.Left != nil && load.Right != nil:
		sides = [2]Side{Side(*load.Left), Side(*load.Right)}
	case side == "" && load.Left == nil && load.Right == nil:
		return LoadBegin(*load, p.Lang), true
	default:
		return b, false
	}
	switch side {
	case "left":
		return sides[0].Begin(side, p.Lang), true
	case "right":
		return sides[1].Begin(side, p.Lang), true
	}
	return b, false
}

// LoadCommand is the scenario a load command (of one scenario, not a
// comparison) asks for.
func LoadCommand(c protocol.Load) (scenario.Scenario, error) {
	if c.YAML != "" {
		return plan.ParseWith([]byte(c.YAML), "scenario", c.Sets)
	}
	return plan.Load(c.Scenario, nil, c.Sets)
}
