package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"fabriclab/sim/msg"
)

// Error is one problem with a scenario, located by source line and key path.
// It prints as "incast.yaml:4: topology.hosts: 0 is not allowed: …".
type Error struct {
	// Source is the file name, or "--set key=value" when the value came from
	// the command line; empty for a scenario built in Go.
	Source string
	// Line is 1-based; 0 when the key is absent (a default applies) or the
	// value came from --set.
	Line int
	// Key is the key path, e.g. "traffic.flows[3].src"; empty when the problem
	// is with the document as a whole.
	Key string
	// Msg says what is wrong and what would work, in English.
	Msg string
	// Format and Args are Msg's English format and its args (msg.Text
	// phrases among them), for i18n to say Msg in the page's language.
	Format string
	Args   []any
}

// newError is the Error with the message format says of args.
func newError(source string, line int, key, format string, args ...any) *Error {
	return &Error{Source: source, Line: line, Key: key, Msg: msg.F(format, args...).String(), Format: format, Args: args}
}

func (e *Error) Error() string { return e.At(e.Msg) }

// Message is the English format of Msg and its args.
func (e *Error) Message() (string, []any) {
	if e.Format == "" {
		return "%s", []any{e.Msg}
	}
	return e.Format, e.Args
}

// At is message (Msg, or Msg in another language) at the error's place:
// "incast.yaml:4: topology.hosts: " and message.
func (e *Error) At(message string) string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(message)
	return escapeUnprintable(b.String())
}

// escapeUnprintable writes the control characters and bidirectional
// overrides in s (which messages may quote from the input) as Go escapes, so
// that an error printed to a terminal cannot recolour or rewrite it.
func escapeUnprintable(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, unprintable) < 0 {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		if _, size := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			continue
		}
		if unprintable(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maxErrors is how many problems one call reports; the rest are counted.
const maxErrors = 10

// errorList collects problems in the order they are found.
type errorList []*Error

func (l *errorList) add(e *Error) { *l = append(*l, e) }

// err joins the first maxErrors problems, or returns nil when there are none.
func (l errorList) err() error {
	if len(l) == 0 {
		return nil
	}
	errs := make([]error, 0, maxErrors+1)
	for i, e := range l {
		if i == maxErrors {
			errs = append(errs, &moreErrors{Text: msg.F("… and %d more", len(l)-maxErrors), rest: l[maxErrors:]})
			break
		}
		errs = append(errs, e)
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// moreErrors stands for the problems past the first maxErrors: it prints as
// "… and 5 more", and unwraps to them, for a reader that lists every problem
// (the editor: a learner fixing ten must not uncover the next batch).
type moreErrors struct {
	msg.Text
	rest []*Error
}

func (m *moreErrors) Error() string { return m.String() }

// Unwrap is the problems it stands for.
func (m *moreErrors) Unwrap() []error {
	errs := make([]error, len(m.rest))
	for i, e := range m.rest {
		errs[i] = e
	}
	return errs
}

// orList says words as "a, b or c".
func orList(words []string) msg.Text {
	switch len(words) {
	case 0:
		return msg.F("")
	case 1:
		return msg.F("%s", words[0])
	}
	head := msg.F("%s", words[0])
	for _, w := range words[1 : len(words)-1] {
		head = msg.F("%s, %s", head, w)
	}
	return msg.F("%s or %s", head, words[len(words)-1])
}
