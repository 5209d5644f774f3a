package scenario

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openRead opens as os.Open does: the file's bytes, and os.Open's error.
func TestOpenRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: x\n"), 0o644))
	f, err := openRead(path)
	require.NoError(t, err)
	data, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "name: x\n", string(data))
	require.NoError(t, f.Close())

	_, err = openRead(path + ".missing")
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "open", pe.Op)
	assert.Equal(t, path+".missing", pe.Path)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
