package lessons

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/metrics"
	"fabriclab/sim/scenario"
)

func FuzzQuiz(f *testing.F) {
	f.Add("question: Q?\noptions: [a, b]\nanswer: 1\nexplain: E.\n")
	f.Add("question: Q\noptions:\n  - a: b\nanswer: -1\n")
	f.Add("options: *x\n")
	f.Fuzz(func(t *testing.T, in string) {
		q, err := ParseQuiz([]byte(in))
		if err == nil {
			require.True(t, q.Answer >= 0 && q.Answer < len(q.Options), "a valid quiz's answer is an option")
			require.NotEmpty(t, q.Question)
		} else {
			require.NotEmpty(t, err.Msg)
			require.GreaterOrEqual(t, err.Line, 0)
		}
	})
}

func FuzzPlaceholder(f *testing.F) {
	result, err := decodeResult([]byte(sampleResult))
	require.NoError(f, err)
	for _, s := range []string{"totals.max_fct_us | ms", "links[name=switch→host8].util | pct 1", "flows[0].gbps | GBps 2", "a[[b]].c", "x | 1 2", "links[id=2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p, err := ParsePlaceholder(in)
		if err != nil {
			return
		}
		_, _ = p.Lookup(result)
	})
}

// fakeRun stands in for the simulation so that fuzzed lessons cannot ask
// for long runs.
func fakeRun(sc scenario.Scenario) (*metrics.Result, error) {
	if sc.Name == "fail" {
		return nil, errors.New("boom")
	}
	return &metrics.Result{Scenario: sc.Name, Flows: []metrics.Flow{{Gbps: 1}}}, nil
}

func FuzzLesson(f *testing.F) {
	f.Add("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---\nIntro\n## A {#a}\n\n```scenario\nname: x\n```\n\n{{ flows[0].gbps | Gbps }}\n\n```quiz\nquestion: Q\noptions: [a, b]\nanswer: 0\nexplain: E\n```\n")
	f.Add("---\n---\n## {#}\n```scenario\nuse: incast\nset: [traffic.bytes=1]\n```\n{{")
	f.Add("---\ntitle: T\n---\n# H\n## B\n- ```quiz\n  x\n  ```\n")
	f.Fuzz(func(t *testing.T, in string) {
		fsys := fstest.MapFS{"x.en.md": {Data: []byte(in)}, "x.zh.md": {Data: []byte(in)}}
		ls, err := load(fsys, fakeRun)
		if err != nil {
			require.Nil(t, ls)
			for _, e := range flatten(err) {
				var le *Error
				require.ErrorAs(t, e, &le, "every problem is an *Error: %v", e)
			}
		}
	})
}
