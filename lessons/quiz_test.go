package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseQuiz(t *testing.T) {
	q, err := ParseQuiz([]byte("question: Q?\noptions: [{text: a, why: W}, 'b: c']\nanswer: 1\nexplain: E.\n"))
	require.Nil(t, err)
	assert.Equal(t, Quiz{Question: "Q?", Options: []QuizOption{{Text: "a", Why: "W"}, {Text: "b: c"}}, Answer: 1, Explain: "E."}, q)
	q, err = ParseQuiz([]byte("question: Q?\noptions:\n  - text: a\n  - why: ' W '\n    text: b\nanswer: 0\nexplain: E.\n"))
	require.Nil(t, err)
	assert.Equal(t, []QuizOption{{Text: "a"}, {Text: "b", Why: "W"}}, q.Options)

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
		{"question: Q\noptions:\n  - a: b\n  - c\nanswer: 1\nexplain: E", 3, `options: "a" is not a key of an option; an option is text, or text: and why: (put text that contains ": " in quotes)`},
		{"question: Q\noptions:\n  - a\n  - c\nanswer: 1\nexplain: E", 3, `option 0 ("a") is wrong but has no why:`},
		{"question: Q\noptions:\n  - {text: a, why: W}\n  - {text: c, why: X}\nanswer: 1\nexplain: E", 4, "option 1 is the answer and has a why:; the explain: says why it is right"},
		{"question: Q\noptions:\n  - why: W\n  - c\nanswer: 1\nexplain: E", 3, "an option with why: needs text: too"},
		{"question: Q\noptions:\n  - {text: a, why: W, why: X}\n  - c\nanswer: 1\nexplain: E", 3, "options: why: duplicate key"},
		{"question: Q\noptions:\n  - {text: a, why: ''}\n  - c\nanswer: 1\nexplain: E", 3, "why: must be text"},
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
