// Package plan resolves a validated scenario, once, into what a run does: a
// Plan. The network models (sim/packet, sim/fluid) and the workloads read
// the plan and never the scenario, so a scenario key reaches them one way,
// and two scenarios run alike exactly when their plans are Equal (a lesson's
// knob must change the plan).
//
// A Plan holds the seed, until and fidelity; the wiring (link kinds and
// rates) and the topology built with it; the network settings with their
// derived values (PFC, ECN and IBCC thresholds, DCQCN's increase steps),
// and a zero where the run does not read a setting; the traffic's flows and
// their names; the workload (a collective with its built schedule, or a
// training job's train.Config); and the sampling interval.
//
// topology.link_gbps from YAML to the ports:
//
//  1. scenario.ParseWith decodes it into Scenario.Topology.LinkGbps and
//     checks its range (scenario.checker.link); the checks of sizes derived
//     from it (buffer, PFC headroom) read it through Scenario.wire.
//  2. Resolve turns it into a rate with topo.LinkRate, the one place Gb/s
//     becomes a unit.Rate, and puts it in Plan.Wiring.Rate. The same rate
//     derives the GPUs' NIC links (topo.NICRate) and, under cc: dcqcn,
//     DCQCN.LineRate and its increase steps (dcqcn in network.go).
//  3. topo.Build(shape, Plan.Wiring) gives every host and switch link that
//     rate (builder.net → builder.cable → topo.Link.Rate); Plan.Topology is
//     the result.
//  4. packet.New sets each port's rate from its link (Model.initPorts);
//     fluid.New each link's capacity (New). Nothing else gives a port a rate.
//
// collective.protocol and topology.gpu resolve here too: the GPU gives the
// NVLink rate (topo.NVLinkRate), the NICs' PCIe (pcieRate) and NCCL's tuning
// tables (coll.Params.Arch); the protocol is collective.protocol or, under
// auto, coll.TuneProtocol's pick for the schedule's algorithm and the size,
// and reaches the run as coll.Options' Protocol, Wire and Latency.
package plan
