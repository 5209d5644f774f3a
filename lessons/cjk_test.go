package lessons

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChineseLineBreaks: in a zh lesson a line break between two Chinese
// characters is dropped (no space between them), elsewhere it stays.
func TestChineseLineBreaks(t *testing.T) {
	body := "\n## A {#a}\n\n中文\n换行\n\nsoft\nbreak\n"
	fsys := fstest.MapFS{
		"x.en.md": {Data: []byte("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: en\n---" + body)},
		"x.zh.md": {Data: []byte("---\ntitle: T\nsummary: S\nlevel: beginner\nminutes: 5\nlanguage: zh-Hans\n---" + body)},
	}
	ls, err := load(fsys, nil)
	require.NoError(t, err)
	require.Len(t, ls, 2)
	en, zh := Find(ls, "x", "en"), Find(ls, "x", "zh")
	require.NotNil(t, en)
	require.NotNil(t, zh)
	assert.Contains(t, string(zh.Steps[0].HTML), "<p>中文换行</p>")
	assert.Contains(t, string(zh.Steps[0].HTML), "<p>soft\nbreak</p>")
	assert.Contains(t, string(en.Steps[0].HTML), "<p>中文\n换行</p>")
}
