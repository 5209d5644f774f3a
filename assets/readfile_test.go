package assets

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return data
}
