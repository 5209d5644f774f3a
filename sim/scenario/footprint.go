package scenario

import (
	"fmt"
	"math"

	"fabriclab/sim/coll"
	"fabriclab/sim/unit"
)

// TrafficFlows is how many flows the traffic pattern starts, known before
// anything is built (0 when a collective or training generates the flows).
// With Endpoints it sizes a run ahead, e.g. for the browser canvas.
func (s *Scenario) TrafficFlows() int {
	tr := &s.Traffic
	switch tr.Pattern {
	case PatternFlows:
		return len(tr.Flows)
	case PatternIncast:
		return tr.Senders
	case PatternPermutation:
		return s.Endpoints()
	case PatternAllToAll:
		n := s.Endpoints()
		return n * (n - 1)
	}
	return 0
}

// allToAllFits checks, before its schedule is built, that an all-to-all's
// transfers fit a run: every rank sends to every other, ranks × (ranks − 1)
// transfers however it runs (a schedule of millions of pairs took seconds and
// a gigabyte to build only to be refused).
func (c *checker) allToAllFits(ranks int) bool {
	pairs := int64(ranks) * int64(ranks-1)
	if pairs <= MaxRunFlows {
		return true
	}
	most := int((1 + math.Sqrt(1+4*MaxRunFlows)) / 2) // most × (most − 1) ≤ MaxRunFlows
	key := c.blame("collective.ranks", c.s.Topology.sizeKey(), "collective.op")
	c.fail(key, "%s makes an all-to-all over %d ranks: %d transfers, more than the %d a run may make; use at most %d ranks (e.g. collective.ranks: %d)",
		c.text(key, ranks), ranks, pairs, MaxRunFlows, most, most)
	return false
}

// transfersFit checks that the collective's transfers fit a run: a schedule's
// transfers, times channels and pipeline pieces when it runs step by step.
// The run would find out only after building the network.
func (c *checker) transfersFit(sched *coll.Schedule, ranks int, streamed bool) bool {
	co := &c.s.Collective
	o := coll.Options{Bytes: co.Bytes, Channels: co.Channels, Chunk: co.Chunk, Streamed: streamed}
	n := sched.TransferCount(o)
	if n <= MaxRunFlows {
		return true
	}
	fix := "use fewer collective.ranks"
	if !streamed {
		fix = "use collective.execution: streamed (one transfer per pair per phase)"
		if c.s.Sim.Fidelity == Packet {
			fix = "use sim: {fidelity: flow} or collective.execution: streamed (one transfer per pair per phase)"
		}
		one := sched.TransferCount(coll.Options{Bytes: co.Bytes, Channels: co.Channels, Chunk: 0}) // one piece per channel
		if one <= MaxRunFlows {
			perChannel := (co.Bytes + unit.Bytes(max(co.Channels, 1)) - 1) / unit.Bytes(max(co.Channels, 1))
			pieces := unit.Bytes(MaxRunFlows / one)
			fix += fmt.Sprintf(", or collective.chunk: %s or more", sizeText(roundUp((perChannel+pieces-1)/pieces)))
		}
	}
	key := c.blame("collective.chunk", "collective.bytes", "collective.channels", "collective.ranks", c.s.Topology.sizeKey(), "collective.execution")
	c.fail(key, "%s/%s on %d ranks makes %d transfers, more than the %d a run may make: %s", co.Op, co.Algo, ranks, n, MaxRunFlows, fix)
	return false
}
