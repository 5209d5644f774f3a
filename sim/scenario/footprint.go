package scenario

import "math"

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
