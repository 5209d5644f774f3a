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
	files, err := Site(Inputs{Scenarios: builtins, VizWASM: []byte("wasm"), WorkerWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	assert.Contains(t, string(files["index.zh.html"]), `<td lang="zh-Hans">`+i18n.T(i18n.ZH, "scenario.summary.victim-flow")+`</td>`)
	assert.Contains(t, string(files["index.html"]), `<td lang="en">`+template.HTMLEscapeString(builtins[0].Summary)+`</td>`)
}

// TestGlossaryPages: each index links its language's glossary, which lists
// every term of i18n.Glossary with the other language's beside it.
func TestGlossaryPages(t *testing.T) {
	files, err := Site(Inputs{VizWASM: []byte("wasm"), WorkerWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	assert.Contains(t, string(files["index.html"]), `href="glossary.en.html"`)
	assert.Contains(t, string(files["index.zh.html"]), `href="glossary.zh.html"`)
	en, zh := string(files["glossary.en.html"]), string(files["glossary.zh.html"])
	require.NotEmpty(t, en)
	require.NotEmpty(t, zh)
	assert.Contains(t, zh, `<html lang="zh-Hans">`)
	for _, g := range i18n.Glossary {
		assert.Contains(t, en, `<dt id="`+g.Concept+`">`+template.HTMLEscapeString(g.EN)+` <span class="other" lang="zh-Hans">`+g.ZH+`</span></dt><dd>`+template.HTMLEscapeString(g.Def.EN)+`</dd>`)
		assert.Contains(t, zh, `<dt id="`+g.Concept+`">`+g.ZH+` <span class="other" lang="en">`+template.HTMLEscapeString(g.EN)+`</span></dt><dd>`+g.Def.ZH+`</dd>`)
	}
}
