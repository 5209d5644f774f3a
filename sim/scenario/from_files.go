//go:build !js

package scenario

import "fabriclab/sim/nodefile"

// parseNode reads topology.from's file.
func parseNode(data []byte) (*nodefile.Node, error) { return nodefile.Parse(data) }
