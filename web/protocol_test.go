package web_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/protocol"
)

// messageName finds the messages the page's scripts send and test for:
// {fabriclab: "seek", …}, ev.fabriclab === "loaded" (not typeof … "string").
var messageName = regexp.MustCompile(`(typeof [\w.]+)?fabriclab(?:: | === | !== )"(\w+)"`)

// The scripts speak the protocol: every message they name is a command or an
// event of package protocol (the page's or the worker's).
func TestScriptsSpeakTheProtocol(t *testing.T) {
	known := map[string]bool{}
	for _, c := range protocol.Commands {
		known[c.Command()] = true
	}
	for _, e := range protocol.Events {
		known[e.Event()] = true
	}
	for _, c := range protocol.WorkerCommands { // the explain page talks to the worker
		known[c.WorkerCommand()] = true
	}
	for _, e := range protocol.WorkerEvents {
		known[e.WorkerEvent()] = true
	}
	scripts, err := filepath.Glob("static/*.js")
	require.NoError(t, err)
	named := 0
	for _, path := range scripts {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, m := range messageName.FindAllStringSubmatch(string(data), -1) {
			if m[1] != "" {
				continue
			}
			named++
			assert.True(t, known[m[2]], "%s names a message %q that package protocol does not have: add its type (protocol/doc.go says how), or fix the script", path, m[2])
		}
	}
	assert.Greater(t, named, 20, "the scripts' messages are found")
}
