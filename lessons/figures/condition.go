package figures

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Condition is the inside of a lesson's {{ if … }}: a value of the run
// compared with a number, a word or another value, so that the page can
// show the sentence that holds for the run on screen:
//
//	totals.drops > 0
//	collective.bytes >= 1MiB          a number may carry a size unit
//	collective.algo == tree           a word is compared as text (== and != only)
//	flows[0].gbps < 0.9 * flows[1].gbps   a number times another value
//
// The left side is always a path into the result (see Placeholder).
type Condition struct {
	Left   Placeholder
	Op     string
	Factor float64      // the right side is Factor × Right, or Number when Right is nil
	Right  *Placeholder // nil: compare with Number or Word
	Number float64
	Word   string // set: compare as text
}

// Ops are the comparisons a condition may make.
var Ops = []string{"<=", ">=", "==", "!=", "<", ">"}

// ParseCondition reads the text after "if" in {{ if … }}.
func ParseCondition(s string) (Condition, error) {
	c := Condition{Factor: 1}
	left, op, right := splitOp(s)
	if op == "" {
		return c, fmt.Errorf("condition %q compares nothing; write a value, a comparison (%s) and what to compare with, e.g. totals.drops > 0", strings.TrimSpace(s), strings.Join(Ops, " "))
	}
	l, err := Parse(left)
	if err != nil {
		return c, fmt.Errorf("condition %q: %w", strings.TrimSpace(s), err)
	}
	if l.Unit != "" || l.Decimals >= 0 {
		return c, fmt.Errorf("condition %q: a format (| …) has no place in a condition; compare the value itself", strings.TrimSpace(s))
	}
	c.Left, c.Op = l, op
	right = strings.TrimSpace(right)
	if factor, path, ok := strings.Cut(right, "*"); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(factor), 64)
		if err != nil {
			return c, fmt.Errorf("condition %q: %q before * is not a number; write e.g. 0.9 * flows[1].gbps", strings.TrimSpace(s), strings.TrimSpace(factor))
		}
		c.Factor, right = f, strings.TrimSpace(path)
		if !isPath(right) {
			return c, fmt.Errorf("condition %q: after * comes a value of the run (a path such as flows[1].gbps), not %q", strings.TrimSpace(s), right)
		}
	}
	switch {
	case right == "":
		return c, fmt.Errorf("condition %q: nothing to compare with after %s", strings.TrimSpace(s), op)
	case isPath(right):
		r, err := Parse(right)
		if err != nil || r.Unit != "" || r.Decimals >= 0 {
			return c, fmt.Errorf("condition %q: %q is not a value of the run; write a path such as totals.drops", strings.TrimSpace(s), right)
		}
		c.Right = &r
	default:
		if n, ok := number(right); ok {
			c.Number = n
			return c, nil
		}
		if strings.ContainsAny(right, " |{}\"'") {
			return c, fmt.Errorf("condition %q: %q is not a number, a word or a path", strings.TrimSpace(s), right)
		}
		if op != "==" && op != "!=" {
			return c, fmt.Errorf("condition %q: %q is a word; words compare with == or != only", strings.TrimSpace(s), right)
		}
		c.Word = right
	}
	return c, nil
}

// splitOp finds the first comparison in s.
func splitOp(s string) (left, op, right string) {
	depth := 0 // inside [ ], a selector's = or > is not a comparison
	for i := range len(s) {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		}
		if depth > 0 {
			continue
		}
		for _, o := range Ops {
			if strings.HasPrefix(s[i:], o) {
				return s[:i], o, s[i+len(o):]
			}
		}
	}
	return s, "", ""
}

// isPath tells a path (it has a dot or a [) from a number or a word.
func isPath(s string) bool {
	if _, ok := number(s); ok {
		return false
	}
	return strings.ContainsAny(s, ".[")
}

// number reads 12, 0.5, -3, 1e6 or a size such as 4MiB or 512KiB.
func number(s string) (float64, bool) {
	mult := 1.0
	for _, u := range []struct {
		name string
		size float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if t, ok := strings.CutSuffix(s, u.name); ok {
			s, mult = t, u.size
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != f || f > 1e300 || f < -1e300 {
		return 0, false
	}
	return f * mult, true
}

// String writes c in one spelling, "if totals.drops > 0": the page names a
// condition by it, as it names a figure by Placeholder.String.
func (c Condition) String() string {
	right := c.Word
	switch {
	case c.Right != nil && c.Factor != 1:
		right = strconv.FormatFloat(c.Factor, 'g', -1, 64) + " * " + c.Right.Path
	case c.Right != nil:
		right = c.Right.Path
	case c.Word == "":
		right = strconv.FormatFloat(c.Number, 'g', -1, 64)
	}
	return "if " + c.Left.Path + " " + c.Op + " " + right
}

// Eval tells whether c holds for a result.
func (c Condition) Eval(result Source) (bool, error) {
	l, err := c.Left.find(result)
	if err != nil {
		return false, err
	}
	if c.Word != "" {
		t, ok := l.(string)
		if !ok {
			return false, fmt.Errorf("%s is not text; compare it with a number", c.Left.Path)
		}
		return (t == c.Word) == (c.Op == "=="), nil
	}
	a, err := toNumber(l, c.Left.Path)
	if err != nil {
		return false, err
	}
	b := c.Number
	if c.Right != nil {
		r, err := c.Right.find(result)
		if err != nil {
			return false, err
		}
		if b, err = toNumber(r, c.Right.Path); err != nil {
			return false, err
		}
		b *= c.Factor
	}
	switch c.Op {
	case "<":
		return a < b, nil
	case "<=":
		return a <= b, nil
	case ">":
		return a > b, nil
	case ">=":
		return a >= b, nil
	case "==":
		return a == b, nil
	}
	return a != b, nil
}

func toNumber(v any, path string) (float64, error) {
	switch v := v.(type) {
	case json.Number:
		return v.Float64()
	case bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	return 0, fmt.Errorf("%s is not a number; compare a number, or text with == word", path)
}

// Evaluate computes what a page asks for by spec: a figure's text, or
// "true" or "false" for a condition ("if …").
func Evaluate(spec string, result Source) (string, error) {
	if cond, ok := strings.CutPrefix(spec, "if "); ok {
		c, err := ParseCondition(cond)
		if err != nil {
			return "", err
		}
		holds, err := c.Eval(result)
		if err != nil {
			return "", err
		}
		return strconv.FormatBool(holds), nil
	}
	p, err := Parse(spec)
	if err != nil {
		return "", err
	}
	return p.Lookup(result)
}
