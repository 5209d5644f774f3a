package lessons

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCourse holds every shipped lesson to what issue 14 asks of a lesson:
// English and Chinese with the same steps, 6–10 steps, at least two quizzes
// and one knob, a recap whose last step links on (another lesson in its
// language, or the index: index.html, index.zh.html) and says where its figures come from, and a place of its own in the
// course's order.
func TestCourse(t *testing.T) {
	ls, err := courseLessons()
	require.NoError(t, err)
	link := regexp.MustCompile(`href="([a-z0-9-]+)\.(en|zh)\.html"|href="index\.html"`)
	orders := map[int]string{}
	for _, l := range ls {
		name := l.Slug + "." + l.Lang
		assert.GreaterOrEqual(t, taught(l), 6, "%s: at least 6 steps", name)
		assert.LessOrEqual(t, taught(l), 10, "%s: at most 10 steps (a drill's not counted)", name)
		quizzes, knobs := 0, 0
		for _, s := range l.Steps {
			quizzes += strings.Count(string(s.HTML), `class="lesson-quiz"`)
			knobs += len(s.Knobs)
		}
		assert.GreaterOrEqual(t, quizzes, 2, "%s: at least two predict-then-watch quizzes", name)
		assert.GreaterOrEqual(t, knobs, 1, "%s: at least one knob", name)
		last := string(l.Steps[len(l.Steps)-1].HTML)
		if m := link.FindStringSubmatch(last); assert.NotNil(t, m, "%s: the recap links to the next lesson", name) && m[1] != "" && m[1] != "index" {
			assert.NotNil(t, Find(ls, m[1], l.Lang), "%s: the recap links to %s.%s.html, which is not a lesson", name, m[1], m[2])
			assert.Equal(t, l.Lang, m[2], "%s: the recap links to the next lesson in its own language", name)
		}
		assert.Contains(t, last, "REFERENCE.md", "%s: the recap says where its figures come from", name)
		assert.NotNil(t, l.Assumes, "%s: the front matter says what the lesson assumes (assumes: [] for nothing)", name)
		other := "zh"
		if l.Lang == "zh" {
			other = "en"
		}
		assert.NotNil(t, Find(ls, l.Slug, other), "%s: the lesson is in both languages", name)
		// The recap's last lesson link is the next lesson in the course's order (the index after the last).
		links := link.FindAllStringSubmatch(last, -1)
		if next := nextLesson(ls, l); next != nil && len(links) > 0 {
			assert.Equal(t, next.Slug, links[len(links)-1][1], "%s: the recap's last link leads on to the next lesson", name)
		}
		if l.Lang == "en" {
			if prev, dup := orders[l.Order]; dup {
				t.Errorf("%s and %s have the same order %d; give each lesson its place in the course", prev, l.Slug, l.Order)
			}
			orders[l.Order] = l.Slug
		}
	}
}

// nextLesson is the lesson after l in the course's order, in l's language.
func nextLesson(ls []*Lesson, l *Lesson) *Lesson {
	seen := false
	for _, o := range ls {
		if o.Lang != l.Lang {
			continue
		}
		if seen {
			return o
		}
		seen = o == l
	}
	return nil
}
