package plan

import (
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
)

// Parse is scenario.Parse with the checks that need an algorithm
// (check.go), located in the document as Parse's own.
func Parse(data []byte, source string) (scenario.Scenario, error) {
	return ParseWith(data, source, nil)
}

// ParseWith is scenario.ParseWith with the checks that need an algorithm.
func ParseWith(data []byte, source string, sets []string) (scenario.Scenario, error) {
	return scenario.ParseChecked(data, source, sets, check)
}

// Load is scenario.Load with the checks that need an algorithm.
func Load(nameOrPath string, readFile func(string) ([]byte, error), sets []string) (scenario.Scenario, error) {
	return scenario.LoadChecked(nameOrPath, readFile, sets, check)
}

// check makes the checks of sc that need an algorithm: its workload's.
func check(sc *scenario.Scenario, k *scenario.Check) {
	switch {
	case sc.Collective.Op != "":
		collective(sc, k)
	case sc.Training.Model != "":
		training(sc, k)
	case sc.Inference.Model != "":
		inference(sc, k)
	}
	if len(sc.Faults) > 0 {
		var t *topo.Topology // only link names need it
		for _, f := range sc.Faults {
			if f.LinkFault() && t == nil {
				kind, _ := topo.FabricKind(sc.Topology.Fabric)
				t = topo.Build(sc.Topology.Shape(), wiring(sc, kind))
			}
		}
		faults(sc, t, k)
	}
}
