package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNamesPrintable holds every name that reaches a terminal or the browser
// — the scenario's, its classes', its custom layers' — to printable text, in
// a scenario built in Go too.
func TestNamesPrintable(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(s *Scenario)
		want string
	}{
		{"ansi", func(s *Scenario) { s.Name = "\x1b[31mred" }, `name: "\x1b[31mred" has the control character U+001B at byte 0`},
		{"tab", func(s *Scenario) { s.Name = "a\tb" }, `name: "a\tb" has the control character U+0009 at byte 1`},
		{"C1", func(s *Scenario) { s.Name = "a\u009bb" }, `name: "a\u009bb" has the control character U+009B at byte 1`},
		{"isolate", func(s *Scenario) { s.Name = "a\u2066b" }, `name: "a\u2066b" has the control character U+2066 at byte 1`},
		{"line separator", func(s *Scenario) { s.Name = "a\u2028b" }, `name: "a\u2028b" has the control character U+2028 at byte 1`},
		{"not UTF-8", func(s *Scenario) { s.Name = "a\xffb" }, `name: "a\xffb" is not valid UTF-8`},
		{"class", func(s *Scenario) { s.Network.Classes = []Class{{Name: "\x1b", Weight: 1}} }, `network.classes[0].name: "\x1b" has the control character`},
		{"layer", func(s *Scenario) {
			s.Traffic.Pattern = PatternNone
			s.Training = Default().Training
			s.Training.Model, s.Training.Algo = "custom", "ring"
			s.Training.Layers = []Layer{{Name: "fc\r", Params: 1, FLOPs: 1}}
		}, `training.layers[0].name: "fc\r" has the control character U+000D`},
	} {
		s := Default()
		tc.set(&s)
		err := s.Validate()
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
	s := Default()
	s.Name = "naïve — ünïcode ✓"
	assert.NoError(t, s.Validate(), "printable text beyond ASCII is a name")
}

// TestErrorsEscapeControlCharacters holds error text to printable characters
// whatever a message quotes.
func TestErrorsEscapeControlCharacters(t *testing.T) {
	e := &Error{Source: "--set x=\x1b[2J", Key: "k", Msg: "a\u202eb \xff"}
	assert.Equal(t, `--set x=\x1b[2J: k: a\u202eb \xff`, e.Error())
	e = &Error{Source: "s.yaml", Line: 2, Key: "name", Msg: "plain ✓"}
	assert.Equal(t, "s.yaml:2: name: plain ✓", e.Error(), "printable text stays as it is")
}
