package i18n

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Both languages have every string, with the same format verbs (argument by
// argument) and the same holes for the page's script; no key is in both
// halves of the catalogue.
func TestCatalogueComplete(t *testing.T) {
	canvas, page := catalogue()
	parts := []map[string]Text{canvasWords(), pageWords(), goalWords(), glossaryWords(), explainWords(), scenarioSummaries()}
	seen := map[string]bool{}
	for _, m := range parts {
		for k := range m {
			assert.False(t, seen[k], "%s is in two of the catalogue's tables: keep it in one", k)
			seen[k] = true
		}
	}
	assert.Len(t, seen, len(canvas)+len(page), "every table reaches the catalogue")
	for half, m := range map[string]map[string]Text{"canvas": canvas, "page": page} {
		for k, tx := range m {
			assert.NotEmpty(t, tx.EN, "%s: %s has no English", half, k)
			assert.NotEmpty(t, tx.ZH, "%s: %s has no Chinese", half, k)
			assert.Equal(t, verbs(tx.EN), verbs(tx.ZH), "%s: %q and %q take different arguments", k, tx.EN, tx.ZH)
			assert.Equal(t, holes(tx.EN), holes(tx.ZH), "%s: %q and %q have different holes", k, tx.EN, tx.ZH)
		}
	}
	assert.Equal(t, "队列深度（最忙的端口）", T(ZH, "chart.queues"))
	assert.Equal(t, "Queue depth, busiest ports", T("", "chart.queues"), "no language is English")
	assert.Equal(t, "上一步", T(ZH, "lesson.prev"), "the page's half is found too")
	assert.Equal(t, "no.such.key", T(ZH, "no.such.key"), "an unknown key shows as itself")
	assert.Equal(t, "8 条中已完成 3 条 · 中位数 1 µs · p99 2 µs", Tf(ZH, "chart.fct.figures", 3, 8, "1 µs", "2 µs"), "Chinese reorders the figures")
	assert.Equal(t, []string{"0:d", "1:d", "2:s", "3:s"}, verbs("%[2]d 条中已完成 %[1]d 条 · 中位数 %[3]s · p99 %[4]s %%"))
	assert.Equal(t, []string{"0:d", "1:.0f"}, verbs("%d and %.0f"))
	assert.Equal(t, []string{"{done}", "{total}", "{}"}, holes("{} {total} of {done}"))
	w := Words(ZH, "embed.")
	assert.Equal(t, "暂停", w["embed.pause"])
	assert.NotContains(t, w, "editor.run", "only the prefixes asked for")
	assert.True(t, slices.IsSorted(Keys()))
	assert.Len(t, Keys(), len(canvas)+len(page))
	assert.Len(t, CanvasKeys(), len(canvas))
}

var verbRE = regexp.MustCompile(`%[-+# 0]*(\[\d+\])?[\d.]*(\[\d+\])?([a-zA-Z%])`)

// verbs lists a format string's verbs as "argument:verb", sorted.
func verbs(s string) []string {
	var out []string
	arg := 0
	for _, m := range verbRE.FindAllStringSubmatch(s, -1) {
		if m[3] == "%" {
			continue
		}
		for _, ix := range m[1:3] {
			if ix != "" {
				n, _ := strconv.Atoi(strings.Trim(ix, "[]"))
				arg = n - 1
			}
		}
		prec := ""
		if i := strings.Index(m[0], "."); i >= 0 {
			prec = strings.TrimRight(m[0][i:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
		}
		out = append(out, strconv.Itoa(arg)+":"+prec+m[3])
		arg++
	}
	slices.Sort(out)
	return out
}

var holeRE = regexp.MustCompile(`\{[a-z]*\}`)

// holes lists the {} and {name} holes a page's script fills, sorted.
func holes(s string) []string {
	out := holeRE.FindAllString(s, -1)
	slices.Sort(out)
	return out
}
