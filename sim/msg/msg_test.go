package msg

import (
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTextIsEnglish(t *testing.T) {
	inner := F("%s or %s", "a, b", "c")
	m := F("%q is not %s; use %s", "x", F("a fabric"), inner)
	assert.Equal(t, `"x" is not a fabric; use a, b or c`, m.String())
	format, args := m.Message()
	assert.Equal(t, "%q is not %s; use %s", format)
	assert.Len(t, args, 3)
	assert.Equal(t, "50%", F("50%").String(), "a format without args is the text as it is")
}

func TestErrorfWraps(t *testing.T) {
	err := Errorf("training.algo: %w", io.EOF)
	assert.Equal(t, "training.algo: EOF", err.Error())
	assert.ErrorIs(t, err, io.EOF)
	var e *Error
	if assert.True(t, errors.As(err, &e)) {
		assert.Equal(t, "training.algo: %w", e.Format)
	}
}
