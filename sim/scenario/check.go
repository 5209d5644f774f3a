package scenario

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"fabriclab/sim/msg"
	"fabriclab/sim/unit"
)

// checker runs the validation rules, locating each problem by key path.
type checker struct {
	s      *Scenario
	source string           // file name for keys the document does not have
	at     map[string]place // where each key was written; nil for a scenario built in Go
	errs   errorList
	// valid says the scenario passed every check but ignored's: a key it
	// does not use does not stop the checks that need a valid scenario.
	valid bool
}

func (c *checker) fail(key, format string, args ...any) {
	e := newError(c.source, 0, key, format, args...)
	if p, ok := c.at[key]; ok {
		e.Source, e.Line = p.source, p.line
	}
	c.errs.add(e)
}

// text is the value of key as written in the document, or v printed.
func (c *checker) text(key string, v any) string {
	if p, ok := c.at[key]; ok && p.text != "" {
		return p.text
	}
	if b, ok := v.(unit.Bytes); ok {
		return sizeText(b)
	}
	return fmt.Sprint(v)
}

func (c *checker) present(key string) bool {
	_, ok := c.at[key]
	return ok
}

// blame is the key to report a problem with a derived value at: key when the
// document wrote it (or the scenario was built in Go), else the first of
// causes that it wrote, else key. An error never names a key the user did
// not write when one they wrote is the cause.
func (c *checker) blame(key string, causes ...string) string {
	if c.at == nil || c.present(key) {
		return key
	}
	for _, k := range causes {
		if c.present(k) {
			return k
		}
	}
	return key
}

// share checks lo ≤ v ≤ hi for a fractional key; what says what it is and
// example is a value that works.
func (c *checker) share(key string, v, lo, hi float64, what msg.Text, example float64) bool {
	if v >= lo && v <= hi {
		return true
	}
	c.fail(key, "%s is not allowed: %s, from %g to %g (e.g. %s: %g)", c.text(key, v), what, lo, hi, leaf(key), example)
	return false
}

// printable checks that a name has no control characters (ANSI escapes,
// newlines, tabs) or bidirectional overrides: names are shown as they are in
// terminals and in the browser, where those would recolour, move or reorder
// what is shown.
func (c *checker) printable(key, name, example string) bool {
	if !utf8.ValidString(name) {
		c.fail(key, "%q is not valid UTF-8; use printable characters (e.g. %s: %s)", name, leaf(key), example)
		return false
	}
	for i, r := range name {
		if unprintable(r) {
			c.fail(key, "%q has the control character %U at byte %d: names are shown in terminals and the browser; use printable characters (e.g. %s: %s)",
				name, r, i, leaf(key), example)
			return false
		}
	}
	return true
}

// unprintable reports whether r must not appear in a name.
func unprintable(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
}

// oneOf checks that v is one of allowed.
func (c *checker) oneOf(key, v string, what msg.Text, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	c.fail(key, "%q is not %s; use %s", v, what, orList(allowed))
	return false
}

// between checks lo ≤ v ≤ hi for a whole-number key; example is a value that works.
func (c *checker) between(key string, v, lo, hi, example int, what msg.Text) bool {
	switch {
	case v < lo:
		c.fail(key, "%s is not allowed: %s must be at least %d (e.g. %s: %d)", c.text(key, v), what, lo, leaf(key), example)
	case v > hi:
		c.fail(key, "%s is too many: %s must be at most %d (e.g. %s: %d)", c.text(key, v), what, hi, leaf(key), example)
	default:
		return true
	}
	return false
}

// duration checks lo ≤ v ≤ hi for a time key.
func (c *checker) duration(key string, v, lo, hi unit.Time, example string) bool {
	switch {
	case v < 0:
		c.fail(key, "%s is negative: it must be ≥ 0", c.text(key, v))
	case v < lo:
		c.fail(key, "%s is too short: it must be from %s to %s (e.g. %s: %s)", c.text(key, v), lo, hi, leaf(key), example)
	case v > hi:
		c.fail(key, "%s is too long: it must be at most %s (e.g. %s: %s)", c.text(key, v), hi, leaf(key), example)
	default:
		return true
	}
	return false
}

// leaf is the last key of a path: "hosts" for "topology.hosts".
func leaf(key string) string { return key[strings.LastIndex(key, ".")+1:] }

func sizeText(b unit.Bytes) string {
	text, _ := b.MarshalText()
	return string(text)
}

// roundUp rounds b up to whole KiB, for suggestions.
func roundUp(b unit.Bytes) unit.Bytes { return (b + unit.KiB - 1) / unit.KiB * unit.KiB }

// roundDown rounds b down to whole KiB when that stays above 0, for suggestions.
func roundDown(b unit.Bytes) unit.Bytes {
	if b < unit.KiB {
		return b
	}
	return b / unit.KiB * unit.KiB
}

// Check reports the problems a check after Parse finds (sim/plan's, which
// need an algorithm), each located as Parse locates its own:
// "file:line: key: …; fix".
type Check struct{ c checker }

// Check starts a check of s as a scenario built in Go, whose keys have no
// place in a document (ParseChecked gives its checks the document's).
func (s *Scenario) Check() *Check { return &Check{c: checker{s: s}} }

// Fail reports a problem with key.
func (k *Check) Fail(key, format string, args ...any) { k.c.fail(key, format, args...) }

// Text is the value of key as the document wrote it, or v printed.
func (k *Check) Text(key string, v any) string { return k.c.text(key, v) }

// Blame is the key to report a problem with a derived value at: key when the
// document wrote it, else the first of causes it wrote, else key.
func (k *Check) Blame(key string, causes ...string) string { return k.c.blame(key, causes...) }

// Err is every problem reported, or nil.
func (k *Check) Err() error { return k.c.errs.err() }

// SizeText prints b as a scenario writes it, e.g. 4MiB.
func SizeText(b unit.Bytes) string { return sizeText(b) }

// RoundUp rounds b up to whole KiB, for suggestions.
func RoundUp(b unit.Bytes) unit.Bytes { return roundUp(b) }

// SizeKey is the key that sets the endpoint count, e.g. topology.hosts.
func (t *Topology) SizeKey() string { return t.sizeKey() }
