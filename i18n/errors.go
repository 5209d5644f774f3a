package i18n

import (
	"fmt"
	"slices"
	"strings"
)

// Error is err's message in lang. The simulation's errors keep their English
// format and args (sim/msg's Text and Errorf, scenario.Error); Error looks the
// format up in the catalogue of error formats (errorWords, keyed by the
// English format) and says its phrases (args that are messages themselves)
// and the errors it wraps the same way. The place ("incast.yaml:4:
// topology.hosts: ") and the values quoted from the input stay as they are:
// the keys are YAML's, the same in both languages. A format the catalogue
// lacks, or an error that kept no format, stays English.
func Error(lang Lang, err error) string {
	if err == nil {
		return ""
	}
	if lang != ZH {
		return err.Error()
	}
	return say(lang, err)
}

// message is a message that kept its English format and args (sim/msg.Text,
// msg.Error, scenario.Error).
type message interface {
	Message() (format string, args []any)
}

// placed is a message said at its place in a file (scenario.Error): At
// writes the place before the message, as Error does before the English.
type placed interface {
	At(message string) string
}

// say is v (a message, an error or a value) in lang.
func say(lang Lang, v any) string {
	switch v := v.(type) {
	case message:
		format, args := v.Message()
		text := sayf(lang, format, args)
		if p, ok := v.(placed); ok {
			return p.At(text)
		}
		return text
	case interface{ Unwrap() []error }: // errors.Join's: one a line
		var lines []string
		for _, e := range v.Unwrap() {
			lines = append(lines, say(lang, e))
		}
		return strings.Join(lines, "\n")
	case error:
		return v.Error()
	}
	return fmt.Sprint(v)
}

// sayf formats format's text in lang with args, each message among them
// said in lang too.
func sayf(lang Lang, format string, args []any) string {
	if zh, ok := errorWords()[format]; ok && lang == ZH {
		format = zh
	}
	format = strings.ReplaceAll(format, "%w", "%v") // Errorf's wrapped error, said already
	if len(args) == 0 {
		return format
	}
	said := make([]any, len(args))
	for i, a := range args {
		switch a.(type) {
		case message, interface{ Unwrap() []error }:
			said[i] = say(lang, a)
		default:
			said[i] = a
		}
	}
	return fmt.Sprintf(format, said...)
}

// ErrorTexts is every error format of the catalogue in both languages,
// sorted by the English: the canvas draws errors over itself, so the CJK
// subset font has their characters (cmd/cjkchars, render's
// TestCatalogueGlyphs).
func ErrorTexts() []Text {
	words := errorWords()
	out := make([]Text, 0, len(words))
	for en, zh := range words {
		out = append(out, Text{en, zh})
	}
	slices.SortFunc(out, func(a, b Text) int { return strings.Compare(a.EN, b.EN) })
	return out
}
