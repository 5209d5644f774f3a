package framewire

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The reader's varints read as encoding/binary's: the values, where the
// next one starts, and a broken or overlong one as an error.
func TestVarintsAsBinary(t *testing.T) {
	cases := [][]byte{{}, {0x80}, {0xff, 0xff}, append(make([]byte, 0, 12), 0x7f, 0x01)}
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 35, 1<<63 - 1, 1 << 63, math.MaxUint64} {
		cases = append(cases, binary.AppendUvarint(nil, v), append(binary.AppendUvarint(nil, v), 5))
	}
	over := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02} // 65 bits
	long := []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}
	cases = append(cases, over, long, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	for _, b := range cases {
		u, n := binary.Uvarint(b)
		r := &reader{b: b}
		assert.Equal(t, u, r.uint(), "% x", b)
		assert.Equal(t, n <= 0, r.err != nil, "% x: %v", b, r.err)
		if n > 0 {
			assert.Equal(t, n, r.off, "% x", b)
		}
		s, n := binary.Varint(b)
		r = &reader{b: b}
		assert.Equal(t, s, r.int(), "% x", b)
		assert.Equal(t, n <= 0, r.err != nil, "% x", b)
	}
}
