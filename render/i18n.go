package render

// The canvas's words come from the one catalogue, package i18n (its doc says
// how to add one). Options.Lang picks the language: a Chinese page gets a
// Chinese canvas.

import "fabriclab/i18n"

// Lang is the language of the canvas's text: "" or "en" English, "zh"
// Simplified Chinese.
type Lang = i18n.Lang

// Languages.
const (
	EN = i18n.EN
	ZH = i18n.ZH
)

func (b *Builder) t(key string) string { return i18n.T(b.layout.Opt.Lang, key) }

func (b *Builder) tf(key string, args ...any) string { return i18n.Tf(b.layout.Opt.Lang, key, args...) }

// flowName is a scenario's name for a flow as the canvas shows it: a name
// the catalogue knows (flow.name.victim) in the canvas's language, any other
// as the scenario wrote it.
func (b *Builder) flowName(name string) string {
	if name != "" && i18n.Has("flow.name."+name) {
		return b.t("flow.name." + name)
	}
	return name
}
