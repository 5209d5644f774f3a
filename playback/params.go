package playback

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

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
}

// Limits on the parameters. The page's whole query is bounded first, so that
// no address makes parsing slow; yaml= then takes up to MaxYAML bytes of YAML
// (base64url makes that 4/3 as many characters) and the set= values together
// up to MaxSets bytes.
const (
	MaxYAML  = 64 << 10
	MaxSets  = 64 << 10
	MaxQuery = 256 << 10
)

// editor (editor=1) is the page's own (editor.js shows the scenario editor); the canvas ignores it.
var paramNames = []string{"scenario", "yaml", "set", "play", "speed", "t", "theme", "controls", "big", "lang", "editor"}

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

// checkParamNames refuses an unknown parameter, or one given twice (set=,
// left.set= and right.set= may repeat).
func checkParamNames(vals url.Values) error {
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(paramNames, k) && !slices.Contains(compareParams, k) {
			return fmt.Errorf("unknown parameter %q; the canvas takes %s", k, strings.Join(append(paramNames, compareParams...), ", "))
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
// theme and lang.
func parseView(vals url.Values, p *Params) error {
	var err error
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

// Scenario loads what the parameters ask for: a built-in, inline YAML, or
// (neither) the incast scenario, with the set= overrides.
func (p Params) Load() (scenario.Scenario, error) {
	if p.YAML != "" {
		return scenario.ParseWith([]byte(p.YAML), "yaml parameter", p.Sets)
	}
	name := p.Scenario
	if name == "" {
		name = "incast"
	}
	return scenario.Load(name, nil, p.Sets)
}

// Command is one message from the page: {"fabriclab": "seek", "t_us": 12.5}.
type Command struct {
	Op       string   `json:"fabriclab"`
	YAML     string   `json:"yaml,omitempty"`
	Scenario string   `json:"scenario,omitempty"`
	Sets     []string `json:"set,omitempty"`
	TUs      float64  `json:"t_us,omitempty"`
	SpeedUs  float64  `json:"us_per_s,omitempty"`
	Play     bool     `json:"play,omitempty"`
	Step     string   `json:"step,omitempty"` // the lesson step that sent it, echoed back
	On       bool     `json:"on,omitempty"`   // presenter: big text on or off
	// tap: where the canvas was clicked or touched, in CSS px from its top
	// left; Touch says a finger (it also shows the tooltip there).
	X     float64 `json:"x,omitempty"`
	Y     float64 `json:"y,omitempty"`
	Touch bool    `json:"touch,omitempty"`
	// Figures (load) are lesson figures, "path | format", to compute when the run is done.
	Figures []string `json:"figures,omitempty"`
	// Report (load) are the settings of Sets that change only the report, not
	// the run (a lesson knob's description says which, lessons.Knob.Changes).
	Report []string `json:"report,omitempty"`
	// load: two scenarios side by side instead of yaml or scenario (compare.go).
	Left  *Side `json:"left,omitempty"`
	Right *Side `json:"right,omitempty"`
}

// maxTap bounds a tap's coordinates: far beyond any screen.
const maxTap = 100000

var commandOps = []string{"load", "play", "pause", "toggle", "step", "back", "reset", "seek", "faster", "slower", "speed", "stats", "presenter", "nextflow", "prevflow", "tap"}

// ParseCommand reads a command's JSON, checking the operation and its arguments.
func ParseCommand(data []byte) (Command, error) {
	var c Command
	if len(data) > MaxYAML*2 {
		return c, fmt.Errorf("command too long: at most %d KiB", MaxYAML*2>>10)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return c, fmt.Errorf("command field %q is a JSON %s; give %s, e.g. {\"fabriclab\": \"seek\", \"t_us\": 12.5}", te.Field, te.Value, jsonKind(te.Type))
		}
		if te != nil {
			return c, fmt.Errorf("command is a JSON %s; send an object like {\"fabriclab\": \"play\"}", te.Value)
		}
		return c, fmt.Errorf("command is not JSON like {\"fabriclab\": \"play\"}: %v", err)
	}
	if !slices.Contains(commandOps, c.Op) {
		return c, fmt.Errorf("unknown command %q; use one of %s", c.Op, strings.Join(commandOps, ", "))
	}
	switch c.Op {
	case "load":
		if err := checkSides(&c); err != nil || c.Left != nil {
			return c, err
		}
		if c.YAML == "" && c.Scenario == "" {
			return c, fmt.Errorf("load needs yaml (a scenario) or scenario (a built-in name)")
		}
		if len(c.YAML) > MaxYAML {
			return c, fmt.Errorf("load: the scenario is too long: at most %d KiB", MaxYAML>>10)
		}
	case "seek":
		if !(c.TUs >= 0) || c.TUs > scenario.MaxUntil.Micros() {
			return c, fmt.Errorf("seek needs t_us from 0 to %g", scenario.MaxUntil.Micros())
		}
	case "tap":
		if !(c.X >= 0 && c.X <= maxTap) || !(c.Y >= 0 && c.Y <= maxTap) {
			return c, fmt.Errorf("tap needs x and y from 0 to %d (CSS px from the canvas's top left)", maxTap)
		}
	case "speed":
		if !(c.SpeedUs > 0) || c.SpeedUs > MaxSpeed.Micros() {
			return c, fmt.Errorf("speed needs us_per_s above 0 and at most %g", MaxSpeed.Micros())
		}
	}
	return c, nil
}

// jsonKind names what a command field takes, for messages.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of strings"
	}
	return "an object"
}

// Load is the scenario a load command asks for.
func (c Command) Load() (scenario.Scenario, error) {
	if c.YAML != "" {
		return scenario.ParseWith([]byte(c.YAML), "scenario", c.Sets)
	}
	return scenario.Load(c.Scenario, nil, c.Sets)
}
