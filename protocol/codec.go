package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Limits on commands. playback's tests check that they agree with the
// scenario's and the player's own.
const (
	MaxYAML    = 64 << 10    // a scenario's YAML, in bytes
	MaxCommand = 2 * MaxYAML // a command's JSON, in bytes
	MaxLabel   = 60          // a comparison side's label, in characters
	MaxQuery   = 256 << 10   // the embed page's address's parameters (playback.MaxQuery), in bytes
	MaxSeekUs  = 1e8         // a seek's time: scenario.MaxUntil, in µs
	MaxSpeedUs = 1e7         // a speed: playback.MaxSpeed, in µs per second
	maxTap     = 100000      // a tap's coordinates: far beyond any screen
)

// Commands and Events are every message, each a zero value, in the order
// the README documents them.
var (
	Commands = []Command{Load{}, Play{}, Pause{}, Toggle{}, Step{}, Back{}, Reset{}, Seek{}, Faster{}, Slower{}, Speed{},
		Presenter{}, Quiz{}, NextFlow{}, PrevFlow{}, Tap{}, AskStats{}, Check{}, AskSource{}, AskSnapshot{}, Keys{}, Inspect{}}
	Events = []Event{Ready{}, Loaded{}, CompareLoaded{}, Time{}, CompareTime{}, Frame{}, Done{}, CompareDone{}, Ended{},
		Summary{}, CompareSummary{}, Figures{}, View{}, Tooltip{}, Key{}, Stats{}, Error{}, CommandError{}, Checked{}, Source{}, Snapshot{}}
)

// EncodeEvent is e's JSON: {"fabriclab": name, and e's fields}.
func EncodeEvent(e Event) ([]byte, error) { return encode(e.Event(), e) }

// EncodeCommand is c's JSON: {"fabriclab": name, and c's fields}.
func EncodeCommand(c Command) ([]byte, error) { return encode(c.Command(), c) }

func encode(name string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("message %s cannot be written as JSON: %w", name, err)
	}
	head, _ := json.Marshal(name) // a string always marshals
	out := append([]byte(`{"fabriclab":`), head...)
	if len(body) > 2 { // not {}
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// DecodeEvent reads an event's JSON (the page's side; for tests).
func DecodeEvent(data []byte) (Event, error) {
	var head struct {
		Name string `json:"fabriclab"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("event is not JSON like {\"fabriclab\": \"ready\"}: %w", err)
	}
	var candidates []Event
	for _, e := range Events {
		if e.Event() == head.Name {
			candidates = append(candidates, e)
		}
	}
	if len(candidates) == 0 {
		return nil, fmt.Errorf("unknown event %q", head.Name)
	}
	// Of two shapes with one name, the first that has every field given.
	var given map[string]json.RawMessage
	_ = json.Unmarshal(data, &given) // read above: it is an object
	e := candidates[0]
	for _, c := range candidates {
		if hasAll(fields(reflect.TypeOf(c)), given) {
			e = c
			break
		}
	}
	p := reflect.New(reflect.TypeOf(e))
	if err := json.Unmarshal(data, p.Interface()); err != nil {
		return nil, fmt.Errorf("event %s: %w", head.Name, err)
	}
	return p.Elem().Interface().(Event), nil
}

// hasAll says whether names has every key of given but "fabriclab".
func hasAll(names []string, given map[string]json.RawMessage) bool {
	for k := range given {
		if k != "fabriclab" && !slices.Contains(names, k) {
			return false
		}
	}
	return true
}

// fields are the JSON names of a message type's fields, those of embedded
// structs included.
func fields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			names = append(names, fields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// DecodeCommand reads a command's JSON and checks its arguments; it is the
// only reader of what the page sends, which may be anything. Errors say
// what to send instead. With an error, the command is what could be read of
// it (nil when not even its name), so that an editor command's error can
// carry its id (see ErrorFor).
func DecodeCommand(data []byte) (Command, error) {
	if len(data) > MaxCommand {
		return nil, fmt.Errorf("command too long: at most %d KiB", MaxCommand>>10)
	}
	var head struct {
		Name string `json:"fabriclab"`
	}
	if err := unmarshal(data, &head); err != nil {
		return nil, err
	}
	var zero Command
	for _, c := range Commands {
		if c.Command() == head.Name {
			zero = c
		}
	}
	if zero == nil {
		return nil, fmt.Errorf("unknown command %q; use one of %s, e.g. {\"fabriclab\": \"play\"}", head.Name, strings.Join(commandNames(), ", "))
	}
	p := reflect.New(reflect.TypeOf(zero))
	err := unmarshalCommand(data, p.Interface(), head.Name)
	c := p.Elem().Interface().(Command)
	if err == nil {
		if ch, ok := c.(interface{ check() error }); ok {
			err = ch.check()
		}
	}
	return c, err
}

func commandNames() []string {
	var names []string
	for _, c := range Commands {
		if _, page := c.(Keys); !page {
			names = append(names, c.Command())
		}
	}
	return names
}

// unmarshal reads JSON into v, with errors that name the field and what it takes.
func unmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("command field %q is a JSON %s; give %s, e.g. {\"fabriclab\": \"seek\", \"t_us\": 12.5}", te.Field, te.Value, jsonKind(te.Type))
	}
	if te != nil {
		return fmt.Errorf("command is a JSON %s; send an object like {\"fabriclab\": \"play\"}", te.Value)
	}
	return fmt.Errorf("command is not JSON like {\"fabriclab\": \"play\"}: %v", err)
}

// unmarshalCommand reads command name's JSON into v; a field of the wrong
// type is named, with an example of the command that has the field right.
func unmarshalCommand(data []byte, v any, name string) error {
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(data, v); errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%s: field %q is a JSON %s; give %s, e.g. %s", name, te.Field, te.Value, jsonKind(te.Type), Example(name, te.Field))
	}
	return unmarshal(data, v)
}

// examples are each command as a page sends it, with every field it takes
// (those of a load and a source in several examples); a test decodes each.
var examples = map[string][]string{
	"load": {`{"fabriclab": "load", "scenario": "incast", "set": ["traffic.senders=4"], "play": true}`,
		`{"fabriclab": "load", "yaml": "name: mine\ntopology: {kind: star, hosts: 3}", "play": true}`,
		`{"fabriclab": "load", "scenario": "incast", "step": "s2", "figures": ["totals.max_fct_us | ms"], "report": ["cost.gpu_hour_usd=2"]}`,
		`{"fabriclab": "load", "left": {"scenario": "incast", "label": "PFC"}, "right": {"scenario": "incast", "set": ["network.dcqcn=true"], "label": "DCQCN"}}`},
	"seek":      {`{"fabriclab": "seek", "t_us": 12.5}`},
	"speed":     {`{"fabriclab": "speed", "us_per_s": 50}`},
	"presenter": {`{"fabriclab": "presenter", "on": true}`},
	"quiz":      {`{"fabriclab": "quiz", "pending": true}`},
	"tap":       {`{"fabriclab": "tap", "x": 120, "y": 80, "touch": false}`},
	"check":     {`{"fabriclab": "check", "yaml": "name: mine", "id": 1}`},
	"source":    {`{"fabriclab": "source", "scenario": "incast", "set": ["seed=2"], "id": 2}`, `{"fabriclab": "source", "yaml": "name: mine", "id": 2}`},
	"snapshot":  {`{"fabriclab": "snapshot", "id": 3}`},
	"keys":      {`{"fabriclab": "keys", "parent": true, "focus": true, "fullscreen": false}`},
	"inspect":   {`{"fabriclab": "inspect", "dir": 1}`},
}

// Example is command name as JSON, one that has field (a JSON name, or a
// path such as "left.label") when field is not "".
func Example(name, field string) string {
	field, _, _ = strings.Cut(field, ".")
	all := examples[name]
	for _, e := range all {
		if field == "" || strings.Contains(e, `"`+field+`":`) {
			return e
		}
	}
	if len(all) > 0 {
		return all[0]
	}
	return `{"fabriclab": "` + name + `"}`
}

// jsonKind names what a command field takes, for messages.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Float64:
		return "a number"
	case reflect.Int:
		return "a whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of strings"
	}
	return "an object"
}

// ErrorFor is the event that reports err, about command c (nil when it could
// not be read): it names the command, and an editor command's carries its id.
func ErrorFor(c Command, err error) Event {
	e := CommandError{Message: err.Error()}
	switch c := c.(type) {
	case Check:
		e.ID = c.ID
	case AskSource:
		e.ID = c.ID
	case AskSnapshot:
		e.ID = c.ID
	}
	if c != nil {
		e.Command = c.Command()
	}
	return e
}
