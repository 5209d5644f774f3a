package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseQuiz(t *testing.T) {
	q, err := ParseQuiz([]byte("question: Q?\noptions: [a, 'b: c']\nanswer: 1\nexplain: E.\n"))
	require.Nil(t, err)
	assert.Equal(t, Quiz{Question: "Q?", Options: []string{"a", "b: c"}, Answer: 1, Explain: "E."}, q)

	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 1, "a quiz is keys"},
		{"[1, 2]", 1, "a quiz is keys"},
		{"question: [", 1, "not valid YAML"},
		{"question: Q\noptions: [a, b]\nanswer: 2\nexplain: E", 3, `answer: "2" is not an option's index; use 0 to 1`},
		{"question: Q\noptions: [a, b]\nanswer: x\nexplain: E", 3, "is not an option's index"},
		{"question: Q\noptions: [a]\nanswer: 0\nexplain: E", 1, "options: 1 given; a quiz offers 2 to 8"},
		{"question: Q\noptions: a\nanswer: 0\nexplain: E", 2, "options: must be a list"},
		{"question: Q\noptions:\n  - a: b\n  - c\nanswer: 0\nexplain: E", 3, "put it in quotes"},
		{"question: Q\noptions: [a, b]\nanswer: 0", 1, "no explain"},
		{"question: Q\nquestion: R", 2, "duplicate key"},
		{"question: Q\nhint: H", 2, "hint: unknown key; a quiz takes question, options, answer and explain"},
		{"question: ''\n", 1, "question: must be text"},
	} {
		_, err := ParseQuiz([]byte(tc.in))
		require.NotNil(t, err, tc.in)
		assert.Equal(t, tc.line, err.Line, tc.in)
		assert.Contains(t, err.Msg, tc.msg, tc.in)
	}
}
