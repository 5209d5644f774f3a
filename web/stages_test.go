package web

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lines is a log that tells a waiting test when a line with a given text
// arrives (writes come under stages' lock).
type lines struct {
	buf   bytes.Buffer
	want  string
	found chan struct{}
}

func (l *lines) Write(p []byte) (int, error) {
	if l.found != nil && strings.Contains(string(p), l.want) {
		close(l.found)
		l.found = nil
	}
	return l.buf.Write(p)
}

// A stage prints its start, its end with what it made, and while it runs a
// "still" line each tick; a failed stage says so.
func TestStagesReport(t *testing.T) {
	log := &lines{want: "still compiling", found: make(chan struct{})}
	found := log.found
	st := newStages(log, 2)
	st.tick = time.Millisecond
	require.NoError(t, st.run("compiling", "cmd/viz", func() (string, error) {
		<-found // the ticker spoke while the stage ran
		return "viz.wasm 8.0 MiB", nil
	}))
	err := st.run("compressing", "", func() (string, error) { return "", errors.New("disk full") })
	require.Error(t, err)

	got := strings.Split(strings.TrimSpace(log.buf.String()), "\n")
	require.GreaterOrEqual(t, len(got), 5, log.buf.String())
	assert.Equal(t, "[1/2] compiling (cmd/viz) …", got[0])
	assert.Regexp(t, `^\[1/2\] still compiling \(\d+ s\)$`, got[1])
	assert.Regexp(t, `^\[1/2\] compiling: viz\.wasm 8\.0 MiB \(\d+\.\d s\)$`, got[len(got)-3])
	assert.Equal(t, "[2/2] compressing …", got[len(got)-2])
	assert.Regexp(t, `^\[2/2\] compressing failed after \d+\.\d s$`, got[len(got)-1])
}

// Writing the site reports compressing in tenths of the bytes to compress,
// up to 100 %, once each.
func TestWriteReportsCompressing(t *testing.T) {
	site := map[string][]byte{"small.png": []byte("not compressed")}
	for i := range 20 {
		site[fmt.Sprintf("page%02d.html", i)] = bytes.Repeat([]byte("<p>fabriclab</p>"), 64)
	}
	var log bytes.Buffer
	st := newStages(&log, 1)
	st.n = 1
	require.NoError(t, writeSite(t.TempDir(), site, false, st.share("compressed")))
	want := ""
	for p := 10; p <= 100; p += 10 {
		want += fmt.Sprintf("[1/1] compressed %d %%\n", p)
	}
	assert.Equal(t, want, log.String())

	// One big file (the WebAssembly is 90 % of the bytes) moves the share as it goes.
	log.Reset()
	big := map[string][]byte{"viz.wasm": bytes.Repeat([]byte("fabriclab"), 3<<20/9)}
	require.NoError(t, writeSite(t.TempDir(), big, false, st.share("compressed")))
	assert.Equal(t, "[1/1] compressed 10 %\n[1/1] compressed 30 %\n[1/1] compressed 50 %\n[1/1] compressed 60 %\n[1/1] compressed 80 %\n[1/1] compressed 100 %\n", log.String())
}
