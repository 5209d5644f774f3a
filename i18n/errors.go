package i18n

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
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
	said, marked := make([]any, len(args)), make([]any, len(args))
	phrases := map[string]string{} // mark → phrase
	for i, a := range args {
		switch a.(type) {
		case message, interface{ Unwrap() []error }:
			said[i] = say(lang, a)
			mark := "\x00" + strconv.Itoa(i) + "\x00"
			marked[i], phrases[mark] = mark, said[i].(string)
		default:
			said[i], marked[i] = a, a
		}
	}
	text := fmt.Sprintf(format, marked...)
	for mark, phrase := range phrases {
		if !strings.Contains(text, mark) { // quoted (%q): no joining
			return fmt.Sprintf(format, said...)
		}
		text = strings.ReplaceAll(text, mark, joinable(phrase))
	}
	return joinHan(text)
}

// joinable marks phrase's ends that may join the Chinese around it.
func joinable(phrase string) string { return "\x01" + phrase + "\x01" }

// joinHan joins each phrase to the sentence around it as Chinese is set:
// no space between two Chinese characters (the format's "请用 %s" before
// "更小的 batch" loses its space, "星形拓扑 共有" too), a space between a
// Chinese character and a Latin letter or digit ("有效的 DCQCN 配置"); and
// drops the phrases' marks. Only a phrase's edges change: the format's own
// text and the values quoted from the input stay as they are.
func joinHan(text string) string {
	rs := []rune(text)
	out := make([]rune, 0, len(rs)+4)
	for i, r := range rs {
		switch {
		case r == '\x01':
			after, n := next(rs, i), len(out)
			switch {
			case n > 1 && out[n-1] == ' ' && chinese(out[n-2]) && chinese(after):
				out = out[:n-1]
			case n > 0 && (han(out[n-1]) && latin(after) || latin(out[n-1]) && han(after)):
				out = append(out, ' ')
			}
			continue
		case r == ' ' && i > 0 && rs[i-1] == '\x01' && len(out) > 0 && chinese(out[len(out)-1]) && chinese(next(rs, i)):
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// next is the rune after i, past the phrases' marks.
func next(rs []rune, i int) rune {
	for i++; i < len(rs); i++ {
		if rs[i] != '\x01' {
			return rs[i]
		}
	}
	return 0
}

func han(r rune) bool { return unicode.Is(unicode.Han, r) }

// chinese says whether r is a Chinese character or punctuation (，（）).
func chinese(r rune) bool {
	return han(r) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

func latin(r rune) bool { return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

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
