package coll

// summaryOnly writes the Summary of a ring (over the ranks in order) or
// hierarchical schedule without listing its steps, exactly as
// summarizeSteps would add them up: the same pairs in the same first-seen
// order. It reports false for the schedules it does not know.
func summaryOnly(s *Schedule, op, algo string, n, g int) bool {
	switch {
	case algo == Ring && (op == AllReduce || op == ReduceScatter || op == AllGather):
		// A ring step lists every pair in ring order, as summarize does.
		summarize(s, op, algo, n, g)
		s.omitted = len(s.Summary) * (n - 1)
		return true
	case algo == Hierarchical && op == AllReduce:
		nodes := n / g
		s.Chunks, s.Pipelined = g*nodes, true
		inNode := func(name string) {
			ph := Phase{Name: name, Steps: g - 1}
			for r := range n {
				ph.Pairs = append(ph.Pairs, Pair{r, r/g*g + (r%g+1)%g, (g - 1) * nodes})
			}
			s.Phases, s.Summary = append(s.Phases, name), append(s.Summary, ph)
		}
		rails := func(name string) {
			// The steps list rail by rail, each rail's nodes in order.
			ph := Phase{Name: name, Steps: nodes - 1, NetSteps: nodes - 1}
			for k := range g {
				for node := range nodes {
					ph.Pairs = append(ph.Pairs, Pair{node*g + k, (node+1)%nodes*g + k, nodes - 1})
				}
			}
			s.Phases, s.Summary = append(s.Phases, name), append(s.Summary, ph)
		}
		inNode("reduce-scatter in node (NVLink)")
		rails("reduce-scatter across nodes (rail)")
		rails("all-gather across nodes (rail)")
		inNode("all-gather in node (NVLink)")
		s.omitted = 2*(g-1) + 2*(nodes-1)
		return true
	}
	return false
}
