package main

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
)

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// zeros is a stream of n zero bytes.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n)
	clear(p[:k])
	z.n -= k
	return int(k), nil
}

func TestReadLimitedStopsPastTheLimit(t *testing.T) {
	var err error
	n := allocated(func() { _, err = scenario.ReadLimited(&zeros{n: 64 << 20}, "big.yaml") })
	assert.EqualError(t, err, "big.yaml is too big: a scenario file may have at most 8388608 bytes (8 MiB); generate flows with traffic.pattern instead of listing them")
	assert.Less(t, n, uint64(4*scenario.MaxSourceBytes), "a 64 MiB stream is read only to the limit")

	data, err := scenario.ReadLimited(&zeros{n: scenario.MaxSourceBytes}, "ok.yaml")
	require.NoError(t, err)
	assert.Len(t, data, scenario.MaxSourceBytes, "exactly the limit is allowed")
}

func TestReadScenarioFileRefusesSpecialAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.yaml")
	require.NoError(t, os.WriteFile(huge, nil, 0o644))
	require.NoError(t, os.Truncate(huge, 1<<30)) // sparse: 1 GiB that takes no disk
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Logf("no FIFO here: %v", err)
	}
	sock := filepath.Join(dir, "sock")
	if l, err := net.Listen("unix", sock); err != nil {
		t.Logf("no Unix socket here: %v", err)
	} else {
		defer l.Close()
	}

	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero is a device, not a regular file: give the path of a scenario YAML file"},
		{dir, dir + " is a directory, not a regular file"},
		{fifo, fifo + " is a named pipe (FIFO), not a regular file"},
		{sock, sock + " is a socket, not a regular file"},
		{huge, huge + " is too big: a scenario file may have at most 8388608 bytes (8 MiB)"},
	} {
		if _, err := os.Stat(tc.path); err != nil {
			t.Logf("%s: %v", tc.path, err)
			continue
		}
		var err error
		n := allocated(func() { _, err = scenario.ReadFile(tc.path) })
		require.Error(t, err, tc.path)
		assert.Contains(t, err.Error(), tc.want)
		assert.Less(t, n, uint64(1<<20), "%s: refused before reading", tc.path)

		code, out, errOut := cli("run", tc.path)
		assert.Equal(t, 1, code, tc.path)
		assert.Empty(t, out)
		assert.Equal(t, "fabriclab run: reading scenario: "+err.Error()+"\n", errOut)
	}
}

func TestReadScenarioFileReadsARegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: s\ntraffic: {senders: 2, bytes: 64KiB}\n"), 0o644))
	code, out, errOut := cli("run", path)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "s — star"), out)

	_, err := scenario.ReadFile(filepath.Join(t.TempDir(), "missing.yaml"))
	assert.ErrorIs(t, err, os.ErrNotExist, "Load tells a missing file from a built-in name")
}
