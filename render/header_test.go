package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"fabriclab/sim/unit"
)

// headerTexts are the texts dl draws in L's header.
func headerTexts(dl *DisplayList, L *Layout) string {
	var out []string
	for _, p := range dl.Prims {
		if p.Kind == KindText && L.Header.Contains(float64(p.X), float64(p.Y)) {
			out = append(out, p.Str)
		}
	}
	return strings.Join(out, "\n")
}

// A packet-level run with selective repeat says so in the header, in the
// canvas's language; go-back-N (the default) goes unsaid.
func TestHeaderNamesSelectiveRepeat(t *testing.T) {
	r := play(t, "incast-lossy", []string{"network.recovery=sr"}, 200*unit.Microsecond, 2)
	for lang, want := range map[Lang]string{EN: "selective repeat", ZH: "选择性重传"} {
		L := NewLayout(r.topo, 1280, 720, Options{Title: r.name, Lang: lang, SelectiveRepeat: true})
		assert.Contains(t, headerTexts(Scene(r.frame(L)), L), want, lang)
		L = NewLayout(r.topo, 1280, 720, Options{Title: r.name, Lang: lang})
		assert.NotContains(t, headerTexts(Scene(r.frame(L)), L), want, lang)
	}
}
