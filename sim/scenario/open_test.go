package scenario

import (
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openRead opens as os.Open does: the file's bytes, what it is, and os.Open's error.
func TestOpenRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(path, []byte("name: x\n"), 0o644))
	f, info, err := openRead(path)
	require.NoError(t, err)
	assert.True(t, info.Mode().IsRegular())
	assert.EqualValues(t, 8, info.Size())
	data, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "name: x\n", string(data))
	require.NoError(t, f.Close())

	_, _, err = openRead(path + ".missing")
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "open", pe.Op)
	assert.Equal(t, path+".missing", pe.Path)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestReadUserFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	ok, big := write("ok.md", "12345678"), write("big.md", "123456789")
	huge := write("huge.md", "")
	require.NoError(t, os.Truncate(huge, 5<<30)) // sparse: 5 GiB that takes no disk
	link := filepath.Join(dir, "link.md")
	require.NoError(t, os.Symlink("ok.md", link))
	devLink := filepath.Join(dir, "zero.md")
	require.NoError(t, os.Symlink("/dev/zero", devLink))
	sock := filepath.Join(dir, "sock")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	}

	for _, tc := range []struct {
		path, want, kind string
		tooBig           bool
	}{
		{path: ok, want: "12345678"},
		{path: link, want: "12345678"}, // a link to a regular file is read
		{path: big, tooBig: true},
		{path: huge, tooBig: true},
		{path: "/dev/zero", kind: "a device"},
		{path: devLink, kind: "a device"},
		{path: dir, kind: "a directory"},
		{path: sock, kind: "a socket"},
	} {
		if _, err := os.Stat(tc.path); err != nil {
			t.Logf("%s: %v", tc.path, err)
			continue
		}
		data, err := ReadUserFile(tc.path, 8)
		switch {
		case tc.tooBig:
			assert.ErrorIs(t, err, ErrTooBig, tc.path)
			assert.EqualError(t, err, tc.path+" is too big: it has more than 8 bytes")
		case tc.kind != "":
			var nr *NotRegularError
			require.ErrorAs(t, err, &nr, tc.path)
			assert.Equal(t, tc.kind, nr.Kind)
			assert.EqualError(t, err, tc.path+" is "+tc.kind+", not a regular file")
		default:
			require.NoError(t, err, tc.path)
			assert.Equal(t, tc.want, string(data))
		}
	}
	_, err := ReadUserFile(filepath.Join(dir, "missing"), 8)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// A directory of the user's as a file system: what os.DirFS gives, but each
// file read as ReadUserFile reads it.
func TestUserDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.md"), []byte("lesson"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "b.md"), []byte("b"), 0o644))
	fsys := UserDir(dir, 8)
	require.NoError(t, fstest.TestFS(fsys, "a.md", "sub/b.md"))

	data, err := fs.ReadFile(fsys, "a.md")
	require.NoError(t, err)
	assert.Equal(t, "lesson", string(data))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.md"), []byte("123456789"), 0o644))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.md")))
	for _, read := range []func(string) error{
		func(name string) error { _, err := fs.ReadFile(fsys, name); return err },
		func(name string) error { _, err := fsys.Open(name); return err },
	} {
		err := read("big.md")
		assert.ErrorIs(t, err, ErrTooBig)
		assert.ErrorContains(t, err, filepath.Join(dir, "big.md")+" is too big", "the whole path")
		var nr *NotRegularError
		require.ErrorAs(t, read("zero.md"), &nr)
		assert.Equal(t, "a device", nr.Kind)
		assert.ErrorIs(t, read("../x.md"), fs.ErrInvalid, "no way out of the directory by name")
		assert.ErrorIs(t, read("missing.md"), fs.ErrNotExist)
	}
}

// The scenario reader's errors say what to give instead.
func TestReadFileErrorsSayWhatToGive(t *testing.T) {
	_, err := ReadFile("/dev/null")
	var nr *NotRegularError
	assert.ErrorAs(t, err, &nr)
	assert.EqualError(t, err, "/dev/null is a device, not a regular file: give the path of a scenario YAML file (or a built-in name)")

	path := filepath.Join(t.TempDir(), "huge.yaml")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	require.NoError(t, os.Truncate(path, MaxSourceBytes+1))
	_, err = ReadFile(path)
	assert.True(t, errors.Is(err, ErrTooBig))
	assert.EqualError(t, err, path+" is too big: a scenario file may have at most 8388608 bytes (8 MiB); generate flows with traffic.pattern instead of listing them")
}
