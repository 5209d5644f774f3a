package main

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchRepeat(t *testing.T) {
	var out, errs strings.Builder
	require.Equal(t, 0, run([]string{"bench", "--only", "incast", "--repeat", "2"}, &out, &errs), errs.String())
	assert.Equal(t, 2, strings.Count(out.String(), "\nincast "), "one line a run:\n%s", out.String())
	assert.Contains(t, out.String(), " cpu s ")
	if runtime.GOOS == "linux" {
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(line); len(f) > 2 && f[0] == "incast" {
				cpu, err := strconv.ParseFloat(f[2], 64)
				require.NoError(t, err, line)
				assert.Greater(t, cpu, 0.0, "the CPU time of a run: %s", line)
			}
		}
	}

	out.Reset()
	errs.Reset()
	assert.NotEqual(t, 0, run([]string{"bench", "--repeat", "0"}, &out, &errs))
	assert.Contains(t, errs.String(), "--repeat 0: give a count of at least 1")
}

// --only matching no case is an error listing the cases, not a bench that
// exits 0 having run nothing.
func TestBenchOnlyMatchingNothing(t *testing.T) {
	code, out, errOut := cli("bench", "--only", "nosuch")
	assert.Equal(t, 1, code)
	assert.Empty(t, out, "no header for no cases")
	assert.Contains(t, errOut, `--only "nosuch" matches no case: give text from one of the cases' labels: perm-1024 spray, perm-1024 ecmp, incast, ring-allreduce-8, `)
}
