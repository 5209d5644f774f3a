package packet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
)

// resolve is sc's plan.
func resolve(tb testing.TB, sc *scenario.Scenario) *plan.Plan {
	tb.Helper()
	p, err := plan.Resolve(sc)
	require.NoError(tb, err)
	return p
}
