package web

import (
	"html/template"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/i18n"
	"fabriclab/sim/scenario"
)

// TestScenarioSummaries: every built-in has a Chinese summary whose English
// twin is the YAML's own first line, and each index lists them in its language.
func TestScenarioSummaries(t *testing.T) {
	builtins := scenario.Builtins()
	require.NotEmpty(t, builtins)
	for _, b := range builtins {
		key := "scenario.summary." + b.Name
		if assert.True(t, i18n.Has(key), "no %s in the catalogue (i18n/scenarios.go)", key) {
			assert.Equal(t, b.Summary, i18n.T(i18n.EN, key), "%s: the catalogue's English is not the YAML's first line; copy it", key)
		}
	}
	files, err := Site(Inputs{Scenarios: builtins, VizWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	assert.Contains(t, string(files["index.zh.html"]), `<td lang="zh-Hans">`+i18n.T(i18n.ZH, "scenario.summary.victim-flow")+`</td>`)
	assert.Contains(t, string(files["index.html"]), `<td lang="en">`+template.HTMLEscapeString(builtins[0].Summary)+`</td>`)
}
