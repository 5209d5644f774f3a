package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func cli(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestUsage(t *testing.T) {
	code, _, errOut := cli()
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "fabriclab serve [--addr localhost:8080]")
	code, _, errOut = cli("run", "incast")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `fabriclab-site: unknown command "run"`)
}
