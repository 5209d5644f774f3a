// Package figures reads a lesson figure, {{ path | format }}, and finds and
// formats its value in the JSON of a run's result (what `fabriclab run
// --json` prints). The lesson build and the canvas (cmd/viz) both use it, so
// a figure shows the same text whether the build or the browser ran it.
package figures

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Placeholder is the inside of {{ path | format }}.
//
// Path walks the result JSON: keys separated by dots, list items by index
// (flows[0]) or by a field's value (links[name=switch→host8], which must
// match exactly one item). Format is optional:
//
//	(none)  the value as it is: whole numbers grouped by thousands (167,371), others with 1 decimal
//	N       N decimals (0–6), e.g. | 1
//	us, ms  a time; the path must end in _us
//	time    a time in µs under 1 ms, else in ms (a knob's status line quotes this)
//	KiB, MiB, GiB  a size; the path must end in bytes
//	bytes   a size in B, KiB, MiB or GiB, whichever keeps it from 1 to 1023 (as time does for times)
//	Gbps, GBps     a rate; the path must end in gbps or _GBps (Gb/s ↔ GB/s converted)
//	pct     a ratio as a percentage (×100, %)
//
// A unit may be followed by decimals (| ms 2); without, it shows three
// significant digits.
type Placeholder struct {
	Path     string   `json:"path"`
	Steps    []string `json:"-"` // Path split into keys and [selectors]
	Unit     string   `json:"unit,omitempty"`
	Decimals int      `json:"decimals"` // −1: automatic
}

// Units are the formats that name a unit.
var Units = []string{"us", "ms", "time", "KiB", "MiB", "GiB", "bytes", "Gbps", "GBps", "pct"}

// String writes p back as the text between {{ and }}, in one spelling
// ("totals.max_fct_us | ms 2"): the page names figures by it.
func (p Placeholder) String() string {
	s := p.Path
	if p.Unit != "" || p.Decimals >= 0 {
		s += " |"
	}
	if p.Unit != "" {
		s += " " + p.Unit
	}
	if p.Decimals >= 0 {
		s += " " + strconv.Itoa(p.Decimals)
	}
	return s
}

// Parse reads the text between {{ and }}.
func Parse(s string) (Placeholder, error) {
	p := Placeholder{Decimals: -1}
	path, format, hasFormat := strings.Cut(s, "|")
	p.Path = strings.TrimSpace(path)
	if p.Path == "" {
		return p, fmt.Errorf("{{%s}} names no value; write a path into the run's result, e.g. {{ totals.max_fct_us | ms }}", s)
	}
	steps, err := splitPath(p.Path)
	if err != nil {
		return p, err
	}
	p.Steps = steps
	if !hasFormat {
		return p, nil
	}
	fields := strings.Fields(format)
	if len(fields) == 0 || len(fields) > 2 {
		return p, fmt.Errorf("format %q: write a unit (%s), a number of decimals, or both (| ms 2)", strings.TrimSpace(format), strings.Join(Units, ", "))
	}
	if slices.Contains(Units, fields[0]) {
		p.Unit, fields = fields[0], fields[1:]
	}
	if len(fields) == 1 {
		d, err := strconv.Atoi(fields[0])
		if err != nil || d < 0 || d > 6 {
			return p, fmt.Errorf("format %q: %q is neither a unit (%s) nor a number of decimals from 0 to 6", strings.TrimSpace(format), fields[0], strings.Join(Units, ", "))
		}
		p.Decimals = d
	}
	return p, nil
}

// splitPath splits "links[name=a.b].drops" into "links", "[name=a.b]", "drops".
func splitPath(path string) ([]string, error) {
	var steps []string
	for i := 0; i < len(path); {
		switch c := path[i]; {
		case c == '[':
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: [ without ]; write flows[0] or links[name=switch→host8]", path)
			}
			if end == 1 {
				return nil, fmt.Errorf("path %q: empty []; write an index or field=value inside", path)
			}
			steps = append(steps, path[i:i+end+1])
			i += end + 1
		case c == '.':
			if i == 0 || i+1 == len(path) || path[i+1] == '.' || path[i+1] == '[' {
				return nil, fmt.Errorf("path %q: a dot must stand between two keys, e.g. totals.drops", path)
			}
			i++
		default:
			end := strings.IndexAny(path[i:], ".[")
			if end < 0 {
				end = len(path) - i
			}
			key := path[i : i+end]
			if strings.ContainsAny(key, " ]|{}") {
				return nil, fmt.Errorf("path %q: %q is not a key; keys are words such as totals, max_fct_us", path, key)
			}
			steps = append(steps, key)
			i += end
		}
	}
	return steps, nil
}

// Source is a run's result as JSON, decoded for lookups.
type Source = any

// Decode turns a result marshalled as JSON into a Source.
func Decode(data []byte) (Source, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// Lookup finds p's value in a result and formats it.
func (p Placeholder) Lookup(result Source) (string, error) {
	v, err := p.find(result)
	if err != nil {
		return "", err
	}
	s, err := p.format(v)
	if err != nil {
		return "", fmt.Errorf("%s: %w", p.Path, err)
	}
	return s, nil
}

// Number finds p's value in a result as a number, unformatted (a lesson's
// goal compares it).
func (p Placeholder) Number(result Source) (float64, error) {
	v, err := p.find(result)
	if err != nil {
		return 0, err
	}
	if n, ok := v.(json.Number); ok {
		if f, err := n.Float64(); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%s: is not a number; name a number in the run's result (e.g. totals.drops)", p.Path)
}

// find walks p's path in a result.
func (p Placeholder) find(result Source) (any, error) {
	v := result
	walked := ""
	for _, step := range p.Steps {
		next, err := lookupStep(v, step, walked)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.Path, err)
		}
		v = next
		if strings.HasPrefix(step, "[") || walked == "" {
			walked += step
		} else {
			walked += "." + step
		}
	}
	return v, nil
}

func lookupStep(v any, step, walked string) (any, error) {
	where := walked
	if where == "" {
		where = "the result"
	}
	if sel, ok := strings.CutPrefix(step, "["); ok {
		sel = strings.TrimSuffix(sel, "]")
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%s is not a list; [%s] selects from lists such as flows and links", where, sel)
		}
		if key, want, ok := strings.Cut(sel, "="); ok {
			var hits []any
			for _, item := range list {
				if m, ok := item.(map[string]any); ok && scalarText(m[key]) == want {
					hits = append(hits, item)
				}
			}
			switch len(hits) {
			case 1:
				return hits[0], nil
			case 0:
				return nil, fmt.Errorf("no item of %s has %s=%s%s", where, key, want, choices(list, key))
			}
			return nil, fmt.Errorf("%d items of %s have %s=%s; select one by index or by id (e.g. [id=3])", len(hits), where, key, want)
		}
		i, err := strconv.Atoi(sel)
		if err != nil || i < 0 || i >= len(list) {
			return nil, fmt.Errorf("[%s]: %s has %d items; use an index from 0 to %d or field=value", sel, where, len(list), len(list)-1)
		}
		return list[i], nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s has no key %s: it is not a group of keys", where, step)
	}
	next, ok := m[step]
	if !ok {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return nil, fmt.Errorf("%s has no key %q; it has %s", where, step, strings.Join(keys, ", "))
	}
	return next, nil
}

// choices lists some values of key in list, for messages.
func choices(list []any, key string) string {
	var vals []string
	for _, item := range list {
		if m, ok := item.(map[string]any); ok {
			if s := scalarText(m[key]); s != "" && len(vals) < 12 {
				vals = append(vals, s)
			}
		}
	}
	if len(vals) == 0 {
		return ""
	}
	return "; there are " + strings.Join(vals, ", ")
}

func scalarText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// format prints a looked-up value.
func (p Placeholder) format(v any) (string, error) {
	last := p.Steps[len(p.Steps)-1]
	switch v := v.(type) {
	case string:
		if p.Unit != "" || p.Decimals >= 0 {
			return "", fmt.Errorf("is text (%q); drop the format", v)
		}
		return v, nil
	case bool:
		if p.Unit != "" || p.Decimals >= 0 {
			return "", fmt.Errorf("is true or false; drop the format")
		}
		return strconv.FormatBool(v), nil
	case json.Number:
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return "", fmt.Errorf("%s is not a finite number", v)
		}
		return p.number(f, last)
	}
	return "", fmt.Errorf("is a list or a group of keys, not a number; go down to one value (e.g. flows[0].fct_us)")
}

const nbsp = "\u00a0"

func (p Placeholder) number(f float64, key string) (string, error) {
	isTime := strings.HasSuffix(key, "_us")
	isSize := strings.HasSuffix(key, "bytes")
	isGbps := strings.HasSuffix(key, "gbps")
	isGBps := strings.HasSuffix(key, "_GBps")
	need := func(ok bool, what, suffix string) error {
		if ok {
			return nil
		}
		return fmt.Errorf("| %s needs %s (a key ending in %s); %s is not one", p.Unit, what, suffix, key)
	}
	suffix := ""
	switch p.Unit {
	case "":
		if p.Decimals < 0 {
			if f == math.Trunc(f) && math.Abs(f) < 1e15 {
				return group(strconv.FormatFloat(f, 'f', 0, 64)), nil
			}
			return group(strconv.FormatFloat(f, 'f', 1, 64)), nil
		}
	case "us", "ms", "time":
		if err := need(isTime, "a time", "_us"); err != nil {
			return "", err
		}
		suffix = nbsp + "µs"
		if p.Unit == "ms" || p.Unit == "time" && math.Abs(f) >= 1000 {
			f, suffix = f/1000, nbsp+"ms"
		}
	case "KiB", "MiB", "GiB", "bytes":
		if err := need(isSize, "a size", "bytes"); err != nil {
			return "", err
		}
		unit := p.Unit
		if unit == "bytes" {
			unit = sizeUnit(f)
		}
		f /= map[string]float64{"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
		suffix = nbsp + unit
	case "Gbps", "GBps":
		if err := need(isGbps || isGBps, "a rate", "gbps or _GBps"); err != nil {
			return "", err
		}
		switch {
		case isGbps && p.Unit == "GBps":
			f /= 8
		case isGBps && p.Unit == "Gbps":
			f *= 8
		}
		suffix = nbsp + map[string]string{"Gbps": "Gb/s", "GBps": "GB/s"}[p.Unit]
	case "pct":
		f, suffix = f*100, "%"
	}
	d := p.Decimals
	if d < 0 {
		d = autoDecimals(f)
	}
	return group(strconv.FormatFloat(f, 'f', d, 64)) + suffix, nil
}

// sizeUnit is the largest of B, KiB, MiB, GiB that n bytes fill at least once.
func sizeUnit(n float64) string {
	unit := "B"
	for _, u := range []struct {
		name string
		size float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if math.Abs(n) >= u.size {
			unit = u.name
		}
	}
	return unit
}

// autoDecimals shows three significant digits, at most three decimals.
func autoDecimals(f float64) int {
	a := math.Abs(f)
	if a == 0 || a >= 100 {
		return 0
	}
	return min(3, max(0, 2-int(math.Floor(math.Log10(a)))))
}

// group puts thousands separators into a formatted number: 167371.5 → 167,371.5.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	if len(whole) <= 3 {
		return sign + s
	}
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}
