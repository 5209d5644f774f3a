package playback

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Collectives of every algorithm and training runs say how far computing has
// got (not "estimating" throughout): a collective by the share of its bytes
// arrived, which only grows; training by iterations of the length seen so far.
func TestProgressKnownForCollectivesAndTraining(t *testing.T) {
	for _, c := range []struct {
		name      string
		sets      []string
		monotonic bool
	}{
		{"hierarchical-allreduce", nil, true},
		{"ring-allreduce-8", []string{"collective.algo=tree", "collective.bytes=16MiB"}, true},
		{"dp-resnet50", []string{"sim.fidelity=flow", "training.iterations=3"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPlayer(t, c.name, c.sets...)
			var seen []float64
			for i := 0; !p.Compute(2 * time.Millisecond); i++ {
				require.Less(t, i, 100000, "the run ends")
				seen = append(seen, p.Progress())
			}
			require.NotEmpty(t, seen)
			last := 0.0
			for i, f := range seen {
				if i == 0 && f < 0 {
					continue // nothing moved yet
				}
				assert.GreaterOrEqual(t, f, 0.0, "known at sample %d", i)
				assert.Less(t, f, 1.0, "not 1 before the end")
				if c.monotonic {
					assert.GreaterOrEqual(t, f, last, "only grows")
				}
				last = f
			}
			assert.Greater(t, seen[len(seen)-1], 0.3, "near the end it says so")
			assert.Equal(t, 1.0, p.Progress())
		})
	}
}
