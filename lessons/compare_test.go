package lessons

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzCompare reads compare blocks: bad ones give errors located inside the
// block (or at its fence), good ones two labelled scenarios.
func FuzzCompare(f *testing.F) {
	f.Add("left:\n  label: L\n  use: incast\nright:\n  label: R\n  use: incast\n  set: [traffic.senders=2]\n")
	f.Add("left: {label: L, use: incast}\nright:\n  label: R\n  name: x\n  topology: {kind: star, hosts: 2}\n")
	f.Add("left:\n  label: |\n    two\n    lines\n  use: incast\n")
	f.Add("left: x\nright: [1]\n")
	f.Add("left:\n  label: L\n  label: M\n")
	f.Add("- a\n")
	f.Fuzz(func(t *testing.T, in string) {
		const first = 10
		r, errs := resolveCompare(in, "x.en.md", first)
		lines := strings.Count(strings.ReplaceAll(in, "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(in, "\r\n", ""), "\r")
		for _, err := range errs {
			e, ok := err.(*Error)
			require.True(t, ok, "%q: %v is an *Error", in, err)
			assert.GreaterOrEqual(t, e.Line, first-1, "%q: %v", in, err)
			assert.LessOrEqual(t, e.Line, first+lines+1, "%q: %v", in, err)
			noInternals(t, e.Msg, in)
		}
		if len(errs) > 0 {
			return
		}
		for s := range r.sides {
			assert.NotEmpty(t, r.labels[s])
			assert.LessOrEqual(t, len([]rune(r.labels[s])), MaxCompareLabel)
			assert.NotEmpty(t, r.sides[s].yaml)
			assert.NotEmpty(t, r.sides[s].canonical)
		}
	})
}

// TestCompareSideLines checks that a side's problems are reported at their
// own lines, in both sides and both forms.
func TestCompareSideLines(t *testing.T) {
	src := "left:\n  label: L\n  use: incast\n  set: [traffic.senders=0]\nright:\n  label: R\n  name: r\n  topology:\n    kind: star\n    hosts: 1\n"
	_, errs := resolveCompare(src, "x.en.md", 20)
	require.Len(t, errs, 2)
	assert.Equal(t, 23, errs[0].(*Error).Line, "left's set: is on the block's 4th line")
	assert.Equal(t, 29, errs[1].(*Error).Line, "right's hosts: is on the block's 10th line")
	r, errs := resolveCompare("left:\n  label: ' L '\n  use: incast\nright: {label: R, use: incast-dcqcn}\n", "x.en.md", 1)
	require.Empty(t, errs)
	assert.Equal(t, [2]string{"L", "R"}, r.labels)
	assert.Equal(t, "incast-dcqcn", r.sides[1].parsed.Name)
	assert.NotContains(t, r.compare().Left.Scenario, "label", "the label is not part of the scenario")
}
