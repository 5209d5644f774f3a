package packet

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// pkt.set copies every field: one added to pkt and not to set fails here.
func TestPktSetCopiesEveryField(t *testing.T) {
	var x pkt
	v := reflect.ValueOf(&x).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem() // unexported
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint8:
			f.SetUint(uint64(i + 1))
		default:
			f.SetInt(int64(i + 1))
		}
	}
	var y pkt
	y.set(&x)
	require.Equal(t, x, y)
}
