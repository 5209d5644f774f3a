package lessons

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCourseQuizzesWait: in every step with a quiz, of every lesson in both
// languages, the page as built shows nothing that answers the quiz before it
// is answered: not the explanation, not the reasons of the wrong options,
// nothing after the quiz (its text and figures are in the hidden gate), and
// the step's knob status lines are hidden too, waiting for the same quiz.
// Revealed as quiz.js reveals them, the explanation and the text after the
// quiz show. (What the canvas writes into the status lines is the browser
// test's part: TestBrowserCourse.)
func TestCourseQuizzesWait(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	form := regexp.MustCompile(`<form class="lesson-quiz" data-quiz="(\d+)"`)
	explain := regexp.MustCompile(`<div class="lesson-quiz-explain"[^>]*><p class="lesson-quiz-verdict"></p><p>(.*?)</p></div>`)
	why := regexp.MustCompile(`data-why="([^"]*)"`)
	status := regexp.MustCompile(`<p class="lesson-knobs-status"[^>]*>`)
	quizzes := 0
	for _, l := range ls {
		for _, s := range l.Steps {
			page := string(s.HTML)
			m := form.FindStringSubmatchIndex(page)
			if m == nil {
				continue
			}
			quizzes++
			where := l.Slug + "." + l.Lang + "#" + s.ID
			n := page[m[2]:m[3]]
			end := strings.Index(page[m[0]:], "</form>") + m[0] + len("</form>")
			shown := visibleText(page)
			e := explain.FindStringSubmatch(page)
			require.NotNil(t, e, where)
			assert.NotContains(t, shown, html.UnescapeString(e[1]), "%s: the explanation waits for the answer", where)
			for _, w := range why.FindAllStringSubmatch(page, -1) {
				assert.NotContains(t, shown, html.UnescapeString(w[1]), "%s: an option's why shows when it is picked", where)
			}
			assert.Empty(t, strings.TrimSpace(visibleText(page[end:])), "%s: nothing after the quiz shows before it is answered", where)
			for _, p := range status.FindAllString(page, -1) {
				assert.Contains(t, p, ` data-quiz="`+n+`" hidden`, "%s: the knobs' status line waits for the quiz", where)
			}
			// Answered: quiz.js unhides the explanation and what waits for quiz n.
			open := strings.ReplaceAll(page, `data-quiz="`+n+`" hidden`, `data-quiz="`+n+`"`)
			open = strings.Replace(open, `aria-live="polite" hidden><p class="lesson-quiz-verdict">`, `aria-live="polite"><p class="lesson-quiz-verdict">`, 1)
			assert.Contains(t, visibleText(open), html.UnescapeString(e[1]), "%s: the explanation shows once answered", where)
			after := visibleText(open[strings.Index(open, "</form>")+len("</form>"):])
			assert.Equal(t, strings.TrimSpace(textSkipping(page[end:], whenBranch)), strings.TrimSpace(after), "%s: everything after the quiz shows once answered", where)
		}
	}
	assert.GreaterOrEqual(t, quizzes, 60, "30 quizzes in two languages")
}

var (
	tagPattern  = regexp.MustCompile(`<(/?)([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*/?>`)
	attrPattern = regexp.MustCompile(`\s+([a-z-]+)(?:="[^"]*")?`)
)

// visibleText is the text of an HTML fragment without its hidden elements.
func visibleText(page string) string {
	return textSkipping(page, func(attrs string) bool { return hasAttr(attrs, "hidden") })
}

// whenBranch is a conditional sentence's branch the build hid (the page
// shows the one that holds for the run): hidden whether a quiz is answered or not.
func whenBranch(attrs string) bool {
	return hasAttr(attrs, "hidden") && strings.Contains(attrs, "lesson-when-branch")
}

// textSkipping is an HTML fragment's text without the elements whose
// attributes skip accepts.
func textSkipping(page string, skipIt func(attrs string) bool) string {
	var b strings.Builder
	skip, depth, last := "", 0, 0 // inside a hidden element: its tag and depth
	for _, m := range tagPattern.FindAllStringSubmatchIndex(page, -1) {
		if skip == "" {
			b.WriteString(page[last:m[0]])
		}
		last = m[1]
		closing, tag := m[3] > m[2], page[m[4]:m[5]]
		switch {
		case skip != "" && tag == skip && closing:
			if depth--; depth == 0 {
				skip = ""
			}
		case skip != "" && tag == skip:
			depth++
		case skip == "" && !closing && skipIt(page[m[6]:m[7]]):
			skip, depth = tag, 1
		}
	}
	if skip == "" {
		b.WriteString(page[last:])
	}
	return html.UnescapeString(b.String())
}

// allText is an HTML fragment's text, hidden or not.
func allText(page string) string { return html.UnescapeString(tagPattern.ReplaceAllString(page, "")) }

func hasAttr(attrs, name string) bool {
	for _, a := range attrPattern.FindAllStringSubmatch(attrs, -1) {
		if a[1] == name {
			return true
		}
	}
	return false
}
