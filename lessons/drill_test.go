package lessons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const drillOK = "question: Q?\nsymptom: totals.drops > 0\noptions:\n  - {text: a, why: W, fix: [network.buffer=4MiB]}\n" +
	"  - text: b\n    fix: [network.flow_control=pfc, network.cc=dcqcn]\nanswer: 1\nexplain: E.\nfixed: PFC on\n"

func TestParseDrill(t *testing.T) {
	q, d, err := ParseDrill([]byte(drillOK))
	require.Nil(t, err)
	assert.Equal(t, Quiz{Question: "Q?", Options: []QuizOption{{Text: "a", Why: "W"}, {Text: "b"}}, Answer: 1, Explain: "E."}, q)
	assert.Equal(t, "totals.drops > 0", d.Symptom)
	assert.Equal(t, [][]string{{"network.buffer=4MiB"}, {"network.flow_control=pfc", "network.cc=dcqcn"}}, d.Fixes)
	assert.Equal(t, "PFC on", d.Fixed)
	assert.Equal(t, []int{4, 6}, d.fixLines)

	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"question: Q\noptions: [{text: a, why: W, fix: [x=1]}, {text: b, fix: [y=2]}]\nanswer: 1\nexplain: E\nfixed: F", 1, "no symptom; a drill takes question, symptom, options"},
		{"question: Q\nsymptom: a > 1\noptions: [{text: a, why: W, fix: [x=1]}, {text: b, fix: [y=2]}]\nanswer: 1\nexplain: E", 1, "no fixed"},
		{"question: Q\nsymptom: a > 1\noptions:\n  - {text: a, why: W, fix: [x=1]}\n  - b\nanswer: 1\nexplain: E\nfixed: F", 5, `option 1 ("b") has no fix:`},
		{"question: Q\nsymptom: a > 1\noptions:\n  - {text: a, why: W, fix: x=1}\n  - {text: b, fix: [y=2]}\nanswer: 1\nexplain: E\nfixed: F", 4, "fix: takes a list of key=value"},
		{"question: Q\nsymptom: a > 1\noptions:\n  - {text: a, why: W, fix: []}\n  - {text: b, fix: [y=2]}\nanswer: 1\nexplain: E\nfixed: F", 4, "fix: takes a list of key=value"},
		{"question: Q\nsymptom: a > 1\noptions:\n  - {text: a, why: W, fix: [x]}\n  - {text: b, fix: [y=2]}\nanswer: 1\nexplain: E\nfixed: F", 4, "fix: each item is key.path=value"},
		{"question: Q\nsymptom: a\noptions: [{text: a, why: W, fix: [x=1]}, {text: b, fix: [y=2]}]\nanswer: 1\nexplain: E\nfixed: F", 2, "symptom: condition \"a\" compares nothing"},
		{"question: Q\nsymptom: ''\n", 2, "symptom: must be text"},
		{"question: Q\nfixed: [a]\n", 2, "fixed: must be text"},
		{"question: Q\nfixed: " + "0123456789012345678901234567890123456789x" + "\n", 2, "fixed: is 41 characters; at most 40"},
		{"question: Q\nfixed: 鬱\n", 2, "the canvas's font cannot draw \"鬱\""},
		{"question: Q\nhint: H\n", 2, "hint: unknown key; a drill takes question, symptom, options"},
		{"question: Q\nsymptom: a > 1\noptions:\n  - {text: a, fix: [x=1]}\n  - {text: b, fix: [y=2]}\nanswer: 1\nexplain: E\nfixed: F", 4, `option 0 ("a") is wrong but has no why:`},
	} {
		_, _, err := ParseDrill([]byte(tc.in))
		require.NotNil(t, err, tc.in)
		assert.Equal(t, tc.line, err.Line, tc.in)
		assert.Contains(t, err.Msg, tc.msg, tc.in)
	}
	// A quiz takes no fix: a drill's keys are its own.
	_, err = ParseQuiz([]byte(drillOK))
	require.NotNil(t, err)
	assert.Contains(t, err.Msg, "symptom: unknown key; a quiz takes")
}
