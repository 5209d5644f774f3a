package coll

// TransferCount is how many transfers Run makes for s with o, at most (a
// transfer of no bytes makes no flow): streamed, one per pair per phase;
// step by step, every step's transfers once per channel and pipeline piece.
// Workloads check it against a model's flow budget before they start.
func (s *Schedule) TransferCount(o Options) int64 {
	s = s.onWire()
	var n int64
	if o.Streamed {
		for _, ph := range s.Summary {
			n += int64(len(ph.Pairs))
		}
		return n
	}
	channels := int64(max(o.Channels, 1))
	perChannel := ceilDiv(int64(o.Bytes), channels)
	chunk := int64(o.Chunk)
	if chunk <= 0 {
		chunk = perChannel
	}
	pieces := max(ceilDiv(perChannel, chunk), 1)
	for _, st := range s.Steps {
		n += int64(len(st.Transfers))
	}
	return n * channels * pieces
}
