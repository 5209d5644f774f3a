package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// With pipeline stages the timeline has a row per stage, each naming the
// micro-batches its forwards and backwards run, and the header says the
// schedule and the report's bubble.
func TestPipelineTimelineShowsEachStage(t *testing.T) {
	r, _ := playTo(t, "pp-gpt-1f1b", nil, 700*unit.Millisecond, 7) // past its end (666.8 ms)
	sc, err := scenario.Load("pp-gpt-1f1b", nil, nil)
	require.NoError(t, err)
	res, err := sim.Run(sc)
	require.NoError(t, err)
	require.Len(t, r.cur().Training.Steps, 1, "the iteration has ended")
	for _, lang := range []Lang{EN, ZH} {
		L := NewLayout(r.topo, 1280, 720, Options{Training: true, Lang: lang})
		texts := trainingTexts(Scene(r.frame(L)), L)
		s := strings.Join(texts, "\n")
		stage, bubble := "stage %d", " · pipeline bubble %s%%"
		if lang == ZH {
			stage, bubble = "阶段 %d", " · 流水线空闲 %s%%"
		}
		for st := range 4 {
			assert.Contains(t, texts, strings.Replace(stage, "%d", strconv.Itoa(st), 1), "a row per stage")
		}
		count := func(label string) int {
			n := 0
			for _, x := range texts {
				if x == label {
					n++
				}
			}
			return n
		}
		assert.Equal(t, 4, count("B7"), "each stage's last backward, named by its micro-batch")
		assert.Equal(t, 4, count("F0"), "each stage's first forward")
		pct := strconv.FormatFloat(res.Training.BubbleFraction*100, 'f', 1, 64)
		assert.Contains(t, s, strings.Replace(bubble, "%s%%", pct+"%", 1))
		assert.Contains(t, s, "1F1B")
	}
}
