package scenario

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A FIFO put in place of a file after ReadUserFile's Stat does not block the
// open (waiting for a writer that never comes): the open descriptor is a
// FIFO, and it is refused before any read.
func TestOpenReadOfAFIFODoesNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	f, info, err := openRead(fifo) // what ReadUserFile does after its Stat
	require.NoError(t, err)
	defer f.Close()
	assert.Equal(t, fs.ModeNamedPipe, info.Mode().Type())
	var nr *NotRegularError
	require.ErrorAs(t, checkRegular(fifo, info, MaxSourceBytes), &nr)
	assert.Equal(t, "a named pipe (FIFO)", nr.Kind)

	_, err = ReadUserFile(fifo, MaxSourceBytes)
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, fifo+" is a named pipe (FIFO), not a regular file", err.Error())
}
