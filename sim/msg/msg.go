// Package msg keeps a message to the learner as its English format and
// arguments, not only as the English sentence, so that the page can say it in
// another language (i18n.Error looks the format up in its catalogue).
package msg

import (
	"errors"
	"fmt"
)

// Text is a message or a phrase of one: an English format and its args. A
// Text among another's args is a phrase of it ("a fabric", "a or b"), said in
// the same language as the sentence.
type Text struct {
	Format string
	Args   []any
}

// F is the Text of format and args. format is a string literal, so that
// i18n's tests find it and check the catalogue says it in Chinese.
func F(format string, args ...any) Text { return Text{Format: format, Args: args} }

// String is the message in English.
func (t Text) String() string {
	if len(t.Args) == 0 {
		return t.Format
	}
	return fmt.Sprintf(t.Format, t.Args...)
}

// Message is the English format and its args.
func (t Text) Message() (string, []any) { return t.Format, t.Args }

// Error is an error whose message is a Text.
type Error struct {
	Text
	err error // fmt.Errorf's: the English, and what %w wraps
}

// Errorf is fmt.Errorf that keeps its format and args (format is a string
// literal, as for F).
func Errorf(format string, args ...any) error {
	return &Error{Text: F(format, args...), err: fmt.Errorf(format, args...)}
}

func (e *Error) Error() string { return e.err.Error() }

// Unwrap is the error a %w wrapped, or nil.
func (e *Error) Unwrap() error { return errors.Unwrap(e.err) }
