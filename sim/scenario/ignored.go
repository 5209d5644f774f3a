package scenario

import (
	"encoding"
	"reflect"
	"slices"
	"strings"

	"fabriclab/sim/msg"
)

// keyUse says when the model reads a key: used reports it for a scenario
// with its defaults filled in (nil: always), with names that setting as the
// README would ("traffic.pattern: flows") and has what this scenario has
// instead. A key written while the scenario does not use it is an error: the
// user meant something the run would not do.
type keyUse struct {
	key  string // a key path, or a section whose keys share the rule
	used func(s *Scenario) bool
	with msg.Text
	has  func(s *Scenario) msg.Text
	fix  msg.Text // what to do instead of removing it; none is "set " + with
}

// keyUses lists every scenario key: a key without its own entry takes its
// section's (network.dcqcn.g takes network.dcqcn's). A new key goes here
// (TestEveryKeyHasAUse fails until it does).
var keyUses = []keyUse{
	{key: "name"},
	{key: "seed"},
	{key: "until"},
	{key: "sim"},

	{key: "topology"},
	{key: "topology.kind"},
	{key: "topology.hosts", used: kindIs(Star), with: msg.F("topology.kind: star"), has: kindHas},
	{key: "topology.nodes", used: kindIs(DGX), with: msg.F("topology.kind: dgx"), has: kindHas},
	{key: "topology.gpus_per_node", used: kindIs(DGX, LeafSpine), with: msg.F("topology.kind: dgx or leafspine"), has: kindHas},
	{key: "topology.nics_per_node", used: kindIs(DGX), with: msg.F("topology.kind: dgx"), has: kindHas},
	{key: "topology.leaves", used: kindIs(LeafSpine), with: msg.F("topology.kind: leafspine"), has: kindHas},
	{key: "topology.hosts_per_leaf", used: kindIs(LeafSpine), with: msg.F("topology.kind: leafspine"), has: kindHas},
	{key: "topology.rail_optimized", used: kindIs(LeafSpine), with: msg.F("topology.kind: leafspine"), has: kindHas},
	{key: "topology.spines", used: twoTier, with: msg.F("topology.kind: leafspine, or dgx with nodes above 1"), has: tierHas},
	{key: "topology.oversubscription", used: twoTier, with: msg.F("topology.kind: leafspine, or dgx with nodes above 1"), has: tierHas},
	{key: "topology.k", used: kindIs(FatTree), with: msg.F("topology.kind: fattree"), has: kindHas},
	{key: "topology.dims", used: kindIs(Torus), with: msg.F("topology.kind: torus"), has: kindHas},
	{key: "topology.fabric"},
	{key: "topology.link_gbps"},
	{key: "topology.link_latency"},
	{key: "topology.switch_latency"},
	{key: "topology.gpu", used: gpuNodes, with: gpuNodesText, has: gpuHas, fix: gpuNodesFix},
	{key: "topology.nvlink", used: gpuNodes, with: gpuNodesText, has: gpuHas, fix: gpuNodesFix},
	{key: "topology.nvlink_efficiency", used: gpuNodes, with: gpuNodesText, has: gpuHas, fix: gpuNodesFix},
	{key: "topology.nic_efficiency", used: gpuNodes, with: gpuNodesText, has: gpuHas, fix: gpuNodesFix},
	{key: "topology.from"},
	{key: "topology.storage_nodes"},
	{key: "topology.storage_gbps", used: func(s *Scenario) bool { return s.Topology.StorageNodes > 0 }, with: msg.F("topology.storage_nodes above 0"),
		has: func(s *Scenario) msg.Text { return msg.F("topology.storage_nodes: 0") }},

	// The flow-level model reads only mtu and routing, but the rest still
	// describes the network it approximates: a switch of sim.fidelity keeps it.
	{key: "network"},
	{key: "network.ecn", used: ccIs(CCDCQCN), with: msg.F("network.cc: dcqcn"), has: ccHas},
	{key: "network.cnp_interval", used: ccIs(CCDCQCN), with: msg.F("network.cc: dcqcn"), has: ccHas},
	{key: "network.clamp_target_rate", used: ccIs(CCDCQCN), with: msg.F("network.cc: dcqcn"), has: ccHas},
	{key: "network.dcqcn", used: ccIs(CCDCQCN), with: msg.F("network.cc: dcqcn"), has: ccHas},
	{key: "network.ibcc", used: ccIs(CCIBCC), with: msg.F("network.cc: ibcc"), has: ccHas},
	{key: "network.pfc", used: pfc, with: msg.F("network.flow_control: pfc"), has: func(s *Scenario) msg.Text { return msg.F("network.flow_control: %s", s.Network.FlowControl) }},
	{key: "network.switch_buffer", used: shared, with: msg.F("network.buffer_model: shared"), has: func(s *Scenario) msg.Text { return msg.F("network.buffer_model: %s", s.Network.BufferModel) }},
	{key: "network.dt_alpha", used: shared, with: msg.F("network.buffer_model: shared"), has: func(s *Scenario) msg.Text { return msg.F("network.buffer_model: %s", s.Network.BufferModel) }},

	{key: "network.recovery", used: func(s *Scenario) bool { return s.Sim.Fidelity != FlowLevel }, with: msg.F("sim.fidelity: packet"),
		fix: msg.F("set sim.fidelity: packet (flows at flow level lose nothing)"), has: func(s *Scenario) msg.Text { return msg.F("sim.fidelity: %s", s.Sim.Fidelity) }},

	{key: "network.reroute_delay"},
	{key: "faults"},

	{key: "traffic.pattern"},
	{key: "traffic", used: traffic, with: msg.F("a traffic.pattern other than none"), has: patternHas},
	{key: "traffic.senders", used: patternIs(PatternIncast), with: msg.F("traffic.pattern: incast"), has: patternHas},
	{key: "traffic.receiver", used: patternIs(PatternIncast), with: msg.F("traffic.pattern: incast"), has: patternHas},
	{key: "traffic.flows", used: patternIs(PatternFlows), with: msg.F("traffic.pattern: flows"), has: patternHas},
	{key: "traffic.start", used: patternIs(PatternIncast, PatternPermutation, PatternAllToAll), with: msg.F("traffic.pattern: incast, permutation or alltoall"), has: patternHas,
		fix: msg.F("give each flow its own start, or set traffic.pattern: incast, permutation or alltoall")},

	{key: "collective.op"},
	{key: "collective", used: collective, with: msg.F("collective.op"), has: func(*Scenario) msg.Text { return msg.F("no collective.op") }},
	// Training's all-reduces run with the collective's options too. A
	// streamed run moves each phase as one transfer per pair: no channels,
	// no pieces; only an explicit execution counts, not sim.fidelity's default.
	{key: "collective.channels", used: stepwise, with: stepwiseText, has: stepwiseHas},
	{key: "collective.chunk", used: stepwise, with: stepwiseText, has: stepwiseHas},
	{key: "collective.execution", used: collectiveOrTraining, with: collTrainText, has: collTrainHas},
	{key: "collective.latency", used: collectiveOrTraining, with: collTrainText, has: collTrainHas},
	{key: "collective.class", used: collectiveOrTraining, with: collTrainText, has: collTrainHas},
	{key: "collective.alpha", used: func(s *Scenario) bool { return collectiveOrTraining(s) && s.StepLatency() == LatencyAlpha },
		with: msg.F("collective.latency: alpha"),
		fix:  msg.F("set collective.latency: alpha (under nccl, NCCL's step latencies stand in for alpha)"), has: func(s *Scenario) msg.Text {
			if !collectiveOrTraining(s) {
				return collTrainHas(s)
			}
			return msg.F("collective.latency: %s", s.StepLatency())
		}},
	{key: "collective.floor", used: func(s *Scenario) bool { return s.Collective.Op != "" && s.StepLatency() == LatencyNCCL },
		with: msg.F("a collective under collective.latency: nccl"),
		fix:  msg.F("set collective.latency: nccl (the floor is part of NCCL's model; training's collectives have none)"), has: func(s *Scenario) msg.Text {
			if s.Collective.Op == "" {
				return collTrainHas(s)
			}
			return msg.F("collective.latency: %s", s.StepLatency())
		}},
	{key: "collective.root", used: func(s *Scenario) bool { return s.Collective.Op == "broadcast" }, with: msg.F("collective.op: broadcast"),
		has: func(s *Scenario) msg.Text { return msg.F("collective.op: %s", orNone(s.Collective.Op)) }},
	{key: "collective.pxn", used: func(s *Scenario) bool { return s.Collective.Op == "alltoall" }, with: msg.F("collective.op: alltoall"),
		has: func(s *Scenario) msg.Text { return msg.F("collective.op: %s", orNone(s.Collective.Op)) }},

	{key: "inference.model"},
	{key: "inference", used: inference, with: msg.F("inference.model"), has: func(*Scenario) msg.Text { return msg.F("no inference.model") }},

	{key: "training.model"},
	{key: "training", used: training, with: msg.F("training.model"), has: func(*Scenario) msg.Text { return msg.F("no training.model") }},
	{key: "training.layers", used: func(s *Scenario) bool { return s.Training.Model == "custom" }, with: msg.F("training.model: custom"),
		has: func(s *Scenario) msg.Text { return msg.F("training.model: %s", orNone(s.Training.Model)) }},
	{key: "training.tp_layout", used: func(s *Scenario) bool { return training(s) && s.Training.TP > 1 && s.Training.PP <= 1 },
		with: msg.F("training.tp above 1 without training.pp"), fix: msg.F("set training.tp above 1 (with training.pp above 1, training.placement places the groups instead)"),
		has: func(s *Scenario) msg.Text {
			if !training(s) {
				return msg.F("no training.model")
			}
			if s.Training.PP > 1 {
				return msg.F("training.pp: %d", s.Training.PP)
			}
			return msg.F("training.tp: %d", s.Training.TP)
		}},
	{key: "training.pp_schedule", used: pipelined, with: msg.F("training.pp above 1"), has: ppHas},
	{key: "training.pp_virtual", used: pipelined, with: msg.F("training.pp above 1"), has: ppHas},
	{key: "training.placement", used: pipelined, with: msg.F("training.pp above 1"), has: ppHas},
	{key: "training.storage_class", used: func(s *Scenario) bool {
		return training(s) && (s.Training.CheckpointEvery > 0 || s.Training.SampleBytes > 0)
	}, with: msg.F("training.checkpoint_every or training.sample_bytes above 0"), has: func(s *Scenario) msg.Text {
		if !training(s) {
			return msg.F("no training.model")
		}
		return msg.F("neither checkpoints nor reads")
	}},
}

func pipelined(s *Scenario) bool { return training(s) && s.Training.PP > 1 }

func ppHas(s *Scenario) msg.Text {
	if !training(s) {
		return msg.F("no training.model")
	}
	return msg.F("training.pp: %d", s.Training.PP)
}

func kindIs(kinds ...string) func(*Scenario) bool {
	return func(s *Scenario) bool { return slices.Contains(kinds, s.Topology.Kind) }
}

func kindHas(s *Scenario) msg.Text { return msg.F("topology.kind: %s", s.Topology.Kind) }

func twoTier(s *Scenario) bool {
	t := &s.Topology
	return t.Kind == LeafSpine || t.Kind == DGX && t.Nodes > 1
}

func tierHas(s *Scenario) msg.Text {
	if s.Topology.Kind == DGX {
		return msg.F("topology.kind: dgx with nodes: %d", s.Topology.Nodes)
	}
	return kindHas(s)
}

var (
	gpuNodesText = msg.F("GPU nodes (topology.kind: dgx, or leafspine with gpus_per_node above 1)")
	gpuNodesFix  = msg.F("use topology.kind: dgx, or leafspine with gpus_per_node above 1")
)

func gpuNodes(s *Scenario) bool {
	t := &s.Topology
	return t.Kind == DGX || t.Kind == LeafSpine && t.GPUsPerNode > 1
}

func gpuHas(s *Scenario) msg.Text {
	if s.Topology.Kind == LeafSpine {
		return msg.F("topology.kind: leafspine with gpus_per_node: %d", s.Topology.GPUsPerNode)
	}
	return kindHas(s)
}

func ccIs(cc string) func(*Scenario) bool {
	return func(s *Scenario) bool { return s.Network.CC == cc }
}

func ccHas(s *Scenario) msg.Text { return msg.F("network.cc: %s", s.Network.CC) }

func pfc(s *Scenario) bool { return s.Network.FlowControl == FCPFC }

func shared(s *Scenario) bool { return s.Network.BufferModel == BufferShared }

func traffic(s *Scenario) bool { return s.Traffic.Pattern != PatternNone }

func patternIs(patterns ...string) func(*Scenario) bool {
	return func(s *Scenario) bool { return slices.Contains(patterns, s.Traffic.Pattern) }
}

func patternHas(s *Scenario) msg.Text { return msg.F("traffic.pattern: %s", s.Traffic.Pattern) }

func collective(s *Scenario) bool { return s.Collective.Op != "" }

func training(s *Scenario) bool { return s.Training.Model != "" }

func collectiveOrTraining(s *Scenario) bool { return collective(s) || training(s) }

var collTrainText = msg.F("collective.op or training.model")

func collTrainHas(*Scenario) msg.Text { return msg.F("neither a collective.op nor a training.model") }

var stepwiseText = msg.F("collective.execution: steps")

func stepwise(s *Scenario) bool {
	return collectiveOrTraining(s) && s.Collective.Execution != "streamed"
}

func stepwiseHas(s *Scenario) msg.Text {
	if !collectiveOrTraining(s) {
		return collTrainHas(s)
	}
	return msg.F("collective.execution: streamed")
}

func orNone(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

// ignored reports every key the document wrote that the scenario's settings
// do not use. A key under a section with one rule (network.dcqcn) is
// reported once, at the section; a key that already has an error is left to
// it (as is a section with a key that has one).
func (c *checker) ignored() {
	if c.at == nil {
		return // built in Go: nothing was written
	}
	failed := map[string]bool{}
	for _, e := range c.errs {
		failed[e.Key] = true
	}
	written := make([]string, 0, len(c.at))
	for k := range c.at {
		if !strings.Contains(k, "[") && !isSection(k) { // list items are their list's
			written = append(written, k)
		}
	}
	slices.Sort(written)
	// A file's key that a --set made ignored can go by --set too.
	sets := false
	for _, p := range c.at {
		sets = sets || strings.HasPrefix(p.source, "--set ")
	}
	done := map[string]bool{}
	for _, k := range written {
		u := useOf(k)
		if u.used == nil || u.used(c.s) {
			continue
		}
		if strings.Contains(u.key, ".") && isSection(u.key) {
			k = u.key
		}
		if done[k] || failedUnder(failed, k) {
			continue
		}
		done[k] = true
		fix := u.fix
		if fix.Format == "" {
			fix = msg.F("set %s", u.with)
		}
		remove := msg.F("remove it")
		if p := c.at[k]; sets && !strings.HasPrefix(p.source, "--set ") {
			remove = msg.F("remove it (--set %s= does)", k)
		}
		c.fail(k, "ignored: it is used only with %s, and this scenario has %s; %s, or %s", u.with, u.has(c.s), remove, fix)
	}
}

// useOf is the entry of keyUses that covers key: its own, or its nearest
// section's.
func useOf(key string) keyUse {
	for k := key; ; {
		for _, u := range keyUses {
			if u.key == k {
				return u
			}
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			panic("scenario: no keyUses entry for " + key) // TestEveryKeyHasAUse
		}
		k = k[:i]
	}
}

// isSection reports whether key names a section of keys (topology,
// network.dcqcn) rather than a value.
func isSection(key string) bool {
	t := reflect.TypeFor[Scenario]()
	for part := range strings.SplitSeq(key, ".") {
		f, ok := fieldByKey(t, part)
		if !ok {
			return false
		}
		t = f.Type
	}
	return t.Kind() == reflect.Struct && !isValue(t)
}

// isValue reports whether struct type t is a single value (a unit) rather
// than a section of keys.
func isValue(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

// keyPaths lists every key of type t below prefix, sections and values, in
// declaration order; list items are their list's key.
func keyPaths(t reflect.Type, prefix string) []string {
	var keys []string
	for _, f := range fieldsOf(t) {
		key := join(prefix, f.key)
		keys = append(keys, key)
		if ft := t.Field(f.index).Type; ft.Kind() == reflect.Struct && !isValue(ft) {
			keys = append(keys, keyPaths(ft, key)...)
		}
	}
	return keys
}

// failedUnder reports whether key, or a key below it, has an error.
func failedUnder(failed map[string]bool, key string) bool {
	for k := range failed {
		if k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[") {
			return true
		}
	}
	return false
}
