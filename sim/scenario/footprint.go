package scenario

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
