package plan

import (
	"reflect"

	"fabriclab/sim/link"
	"fabriclab/sim/msg"
	"fabriclab/sim/scenario"
	"fabriclab/sim/topo"
	"fabriclab/sim/traffic"
	"fabriclab/sim/unit"
)

// Plan is what a run of a scenario does, resolved once: the models and the
// workloads read it and nothing else. It is plain data; Equal compares two.
type Plan struct {
	Name string // reported as the result's scenario
	Seed uint64
	// Until ends the run; 0 runs until every flow finishes, at most MaxUntil.
	Until     unit.Time
	FlowLevel bool // the flow-level model (sim.fidelity: flow), else the packet-level one
	// Wiring is the rates and kinds of the fabric's links; Topology is
	// built with it, and its links are what the models' ports run at.
	Wiring   topo.Wiring
	Topology *topo.Topology
	Net      Network
	// Flows are the traffic's flows, in the order they are added; Names
	// what the viewer calls them (traffic.Names).
	Flows []traffic.Flow
	Names []string
	// The workload, if any: one collective, training or inference.
	Collective *Collective
	Training   *Training
	Inference  *Inference
	// Faults are the run's stragglers and failures; nil without any.
	Faults *Faults
	// SampleInterval is the time series' first interval (sim.sample_interval,
	// or about 200 samples of until, or the default).
	SampleInterval unit.Time
}

// Limits a run keeps to.
const (
	MaxUntil    = scenario.MaxUntil    // simulated time, without until
	MaxRunFlows = scenario.MaxRunFlows // flows in a run, a workload's transfers included
)

// DefaultSampleInterval is the time series' interval with neither
// sim.sample_interval nor until.
const DefaultSampleInterval = 10 * unit.Microsecond

// Equal reports whether p and q run alike: the same result from both.
func (p *Plan) Equal(q *Plan) bool { return reflect.DeepEqual(p, q) }

// Resolve turns a validated scenario into the plan of its run. Its errors
// are the checks that need an algorithm (check.go): a collective whose
// schedule cannot be built or does not fit a run, a training job that does
// not fit its GPUs or a run; each names the key, and the line of the
// document Parse read it from, as Parse's own do.
func Resolve(sc *scenario.Scenario) (*Plan, error) {
	kind, ok := topo.FabricKind(sc.Topology.Fabric)
	if !ok {
		return nil, msg.Errorf("topology.fabric %q is not a fabric; validate the scenario first (scenario.Parse does)", sc.Topology.Fabric)
	}
	t := &sc.Topology
	rate := topo.LinkRate(t.LinkGbps)
	w := wiring(sc, kind)
	p := &Plan{
		Name: sc.Name, Seed: sc.Seed, Until: sc.Until,
		Wiring:         w,
		Topology:       topo.Build(t.Shape(), w),
		Net:            network(sc, rate),
		Flows:          traffic.Flows(sc),
		SampleInterval: sampleInterval(sc),
	}
	switch sc.Sim.Fidelity {
	case scenario.Packet, "":
	case scenario.FlowLevel:
		p.FlowLevel = true
	default:
		return nil, msg.Errorf("sim.fidelity %q is not implemented yet; use packet", sc.Sim.Fidelity)
	}
	p.Names = traffic.Names(p.Flows)
	k := sc.Check()
	p.Faults = faults(sc, p.Topology, k)
	switch {
	case sc.Collective.Op != "":
		p.Collective = collective(sc, k)
	case sc.Training.Model != "":
		p.Training = training(sc, k)
	case sc.Inference.Model != "":
		p.Inference = inference(sc, k)
	}
	if err := k.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

// wiring is the rates and kinds of sc's links on a fabric of kind.
func wiring(sc *scenario.Scenario, kind link.Kind) topo.Wiring {
	t := &sc.Topology
	rate := topo.LinkRate(t.LinkGbps)
	return topo.Wiring{Fabric: kind, Rate: rate, Latency: t.LinkLatency,
		NVLink: topo.NVLinkRate(t.NVLink, t.NVLinkEfficiency), NIC: topo.NICRate(kind, rate, sc.Network.MTU, t.NICEfficiency, pcieRate(t.GPU)),
		Storage: topo.LinkRate(t.StorageGbps)}
}

// Topology is the fabric Resolve builds for a validated scenario, without
// the rest of its plan: what a canvas lays out while a worker runs it.
func Topology(sc *scenario.Scenario) *topo.Topology {
	kind, _ := topo.FabricKind(sc.Topology.Fabric)
	return topo.Build(sc.Topology.Shape(), wiring(sc, kind))
}

// Endpoints is the number of traffic endpoints.
func (p *Plan) Endpoints() int { return len(p.Topology.Endpoints) }

// Workload reports whether a collective, training or inference makes the
// flows (besides the traffic's own).
func (p *Plan) Workload() bool { return p.Collective != nil || p.Training != nil || p.Inference != nil }

// sampleInterval is the time series' first interval: sim.sample_interval,
// or about 200 samples of until, or DefaultSampleInterval.
func sampleInterval(sc *scenario.Scenario) unit.Time {
	if i := sc.Sim.SampleInterval; i != 0 {
		return i
	}
	if sc.Until > 0 {
		return max(sc.Until/200, unit.Microsecond)
	}
	return DefaultSampleInterval
}

// pcieRate is the GPU–NIC PCIe link of topology.gpu: Gen4 x16 on A100,
// Gen5 x16 from H100 on (REFERENCE.md, "NIC and PCIe per generation").
func pcieRate(gpu string) unit.Rate {
	if gpu == "a100" {
		return link.PCIe4Rate
	}
	return link.PCIe5Rate
}
