package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/lessons"
)

// A lesson page's canvas speaks the lesson's language: its iframe passes
// lang= to embed.html (playback reads it).
func TestLessonPassesItsLanguageToTheCanvas(t *testing.T) {
	ls := []*lessons.Lesson{{Slug: "incast", Lang: "en", Title: "Incast"}, {Slug: "incast", Lang: "zh", Title: "Incast"}}
	files, err := Site(Inputs{Lessons: ls, VizWASM: []byte("wasm"), WorkerWASM: []byte("wasm"), WasmExec: []byte("js")})
	require.NoError(t, err)
	for page, want := range map[string]string{"incast.zh.html": "embed.html?controls=1&amp;lang=zh&amp;first=load", "incast.en.html": "embed.html?controls=1&amp;lang=en&amp;first=load"} {
		html, ok := files[page]
		require.True(t, ok, "%s is built", page)
		assert.Contains(t, string(html), `src="`+want+`"`, page)
	}
}
