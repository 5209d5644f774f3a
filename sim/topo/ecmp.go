package topo

// FlowHash is the ECMP hash of a flow's 5-tuple: its endpoints, the UDP source
// port a RoCE NIC picks per queue pair, and RoCE's destination port 4791.
// Both network models hash with it, so a scenario's flows take the same paths.
func FlowHash(src, dst int32, sport uint64) uint64 {
	return mix(mix(uint64(src)<<32|uint64(dst)) ^ sport<<16 ^ 4791)
}

// ECMPPick is which of n equal next hops a switch salted with salt picks for a
// flow hashed to h.
func ECMPPick(h, salt uint64, n int) int { return int(mix(h^salt) % uint64(n)) }

// mix is SplitMix64's finaliser: a fast hash with good avalanche.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
