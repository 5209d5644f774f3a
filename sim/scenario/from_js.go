//go:build js

package scenario

import (
	"fabriclab/sim/msg"
	"fabriclab/sim/nodefile"
)

// parseNode is never reached in the browser, which has no files to read
// (its reader is nil); leaving the parsers out keeps encoding/xml out of
// viz.wasm (≈ 270 KB).
func parseNode([]byte) (*nodefile.Node, error) {
	return nil, msg.Errorf("the browser reads no topology files: write the keys topology.from would set")
}
