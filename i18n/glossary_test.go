package i18n

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGlossaryAvoided fails on any word a glossary entry avoids, in the
// Chinese lessons, the catalogue (canvas and page, which give the index its
// words and the built-in scenarios' summaries) and the page templates.
func TestGlossaryAvoided(t *testing.T) {
	texts := map[string]string{} // where → text
	for _, key := range Keys() {
		t, _ := lookup(key)
		texts["catalogue "+key] = t.ZH
	}
	for _, term := range Glossary {
		texts["glossary "+term.Concept] = term.Def.ZH
	}
	for en, zh := range errorWords() {
		texts["error format "+en] = zh
	}
	for _, pattern := range []string{"../lessons/content/*.zh.md", "../web/templates/*.html", "../web/static/*.js"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		require.NotEmpty(t, files, pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			for i, line := range strings.Split(string(data), "\n") {
				texts[f+":"+itoa(i+1)] = line
			}
		}
	}
	for where, text := range texts {
		for _, term := range Glossary {
			for _, v := range term.Avoid {
				assert.NotContains(t, text, v, "%s: %q is not the course's word for %s; write %q (i18n/glossary.go)", where, v, term.EN, term.ZH)
			}
		}
	}
}

// TestGlossaryEntries checks each entry is whole and its own words are not avoided.
func TestGlossaryEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, term := range Glossary {
		assert.False(t, seen[term.Concept], "concept %s twice", term.Concept)
		seen[term.Concept] = true
		assert.NotEmpty(t, term.EN, term.Concept)
		assert.NotEmpty(t, term.ZH, term.Concept)
		assert.NotEmpty(t, term.Def.EN, term.Concept)
		assert.NotEmpty(t, term.Def.ZH, term.Concept)
		for _, other := range Glossary {
			for _, v := range other.Avoid {
				assert.NotContains(t, term.ZH, v, "%s's word %q contains %q, which %s avoids", term.Concept, term.ZH, v, other.Concept)
			}
		}
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
