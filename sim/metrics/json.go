package metrics

import (
	"encoding/json"
	"io"
)

// WriteJSON writes r as a json.Encoder with SetIndent("", "  ") writes it,
// byte for byte, with a newline at the end; nothing if r holds a NaN or an
// infinity (encoding/json's error says which). It indents encoding/json's
// compact output itself, writing about 16 KiB at a time: with the Encoder's
// own indentation pass the 16k hierarchical all-reduce's 24 MB took three
// to six times as long (go test -bench WriteJSON ./sim/metrics).
func (r *Result) WriteJSON(w io.Writer) error {
	in := indenter{sink: w, b: make([]byte, 0, flushAt+flushAt/4)}
	if err := json.NewEncoder(&in).Encode(r); err != nil {
		return err
	}
	in.flush()
	return in.err
}

// flushAt is how much WriteJSON buffers before writing.
const flushAt = 16 << 10

// indenter indents compact JSON: every field and element on its own line,
// two spaces a level, empty objects and arrays as {} and [].
type indenter struct {
	b     []byte
	depth int
	sink  io.Writer
	err   error // the sink's first
}

// Write indents src, a whole compact document (the Encoder writes once).
func (in *indenter) Write(src []byte) (int, error) {
	in.indent(src)
	return len(src), nil
}

func (in *indenter) indent(src []byte) {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for src[j] != '"' {
				if src[j] == '\\' {
					j++ // the escaped character
				}
				j++
			}
			in.b = append(in.b, src[i:j+1]...)
			i = j
		case '{', '[':
			if src[i+1] == c+2 { // '}' and ']' are '{'+2 and '['+2
				in.b = append(in.b, c, c+2)
				i++
				continue
			}
			in.b = append(in.b, c)
			in.depth++
			in.newline()
		case '}', ']':
			in.depth--
			in.newline()
			in.b = append(in.b, c)
		case ',':
			in.b = append(in.b, c)
			if len(in.b) >= flushAt {
				in.flush()
			}
			in.newline()
		case ':':
			in.b = append(in.b, ':', ' ')
		default:
			in.b = append(in.b, c)
		}
	}
}

func (in *indenter) newline() {
	in.b = append(in.b, '\n')
	for range in.depth {
		in.b = append(in.b, ' ', ' ')
	}
}

// flush writes what is buffered to the sink.
func (in *indenter) flush() {
	if in.err == nil {
		_, in.err = in.sink.Write(in.b)
	}
	in.b = in.b[:0]
}
