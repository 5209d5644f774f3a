package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Presenter mode's ? list of keys fits a 1024×768 projector without
// scrolling, in both languages, its text at the presenter's 18 px floor.
func TestBrowserPresenterKeysFit(t *testing.T) {
	ctx, base, _ := browser(t)
	for _, lang := range []string{"en", "zh"} {
		presenting(t, ctx, base, "incast."+lang+".html", 1024, 768)
		eval[bool](t, ctx, `((b) => { b.focus(); b.click(); return true })(document.getElementById("keys-button"))`)
		poll(t, ctx, `document.getElementById("keys").open`, 5*time.Second)
		box := `document.querySelector("#keys .box")`
		over := eval[float64](t, ctx, `(() => { const b = `+box+`; return b.scrollHeight - b.clientHeight })()`)
		assert.LessOrEqual(t, over, 1.0, "%s: the keys dialog scrolls by %.0f px in presenter mode at 1024×768", lang, over)
		bottom := eval[float64](t, ctx, box+`.getBoundingClientRect().bottom`)
		assert.LessOrEqual(t, bottom, 768.0, "%s: the dialog ends inside the window", lang)
		size := eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("#keys dd")).fontSize)`)
		assert.GreaterOrEqual(t, size, 18.0, "%s: its text is readable from the back", lang)
		keep(t, fmt.Sprintf("keys-presenter-%s.png", lang), screenshot(t, ctx, "", ""))
	}
}
