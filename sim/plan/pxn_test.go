package plan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collective.pxn is on by default, as NCCL's PXN is (NCCL_PXN_DISABLE=0), and
// reaches the schedule: two phases with PXN, one without.
func TestPXNKey(t *testing.T) {
	for _, tc := range []struct {
		sets   []string
		pxn    bool
		phases int
	}{
		{nil, true, 2},
		{[]string{"collective.pxn=false"}, false, 1},
		{[]string{"collective.pxn=true"}, true, 2},
	} {
		p := resolve(t, "alltoall-moe", tc.sets...)
		require.NotNil(t, p.Collective, "%v", tc.sets)
		assert.Equal(t, tc.pxn, p.Collective.Params.PXN, "%v", tc.sets)
		assert.Len(t, p.Collective.Schedule.Summary, tc.phases, "%v", tc.sets)
	}
}
