package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
)

// A lesson file the user's directory refuses to read (scenario.UserDir) is
// one problem of that file, with what it is and the fix.
func TestLoadReportsFilesItWillNotRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.en.md")); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.en.md")
	require.NoError(t, os.WriteFile(big, nil, 0o644))
	require.NoError(t, os.Truncate(big, 5<<30)) // sparse: takes no disk

	_, err := Load(scenario.UserDir(dir, MaxFileBytes))
	require.Error(t, err)
	var problems []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var le *Error
		require.True(t, errors.As(e, &le), "%v is an *Error", e)
		problems = append(problems, le.Error())
	}
	assert.ElementsMatch(t, []string{
		"big.en.md: has more than 1048576 bytes, the most a lesson may have: split it into two lessons",
		"zero.en.md: is a device, not a regular file: a lesson is a regular .md file; replace it with one or remove it",
	}, problems)
}
