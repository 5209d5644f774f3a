package snap

// Faults are the faults in effect at a snapshot's time (faults:), for the
// viewer: links down or degraded, and slow GPUs.
type Faults struct {
	Down     []int          // link IDs, both directions of each cable
	Degraded []DegradedLink // both directions of each cable
	Slow     []SlowGPU
}

// DegradedLink is a link running at a fault's rate.
type DegradedLink struct {
	Link int
	Gbps float64
}

// SlowGPU is an endpoint whose compute takes Factor times as long.
type SlowGPU struct {
	Endpoint int
	Factor   float64
}

// LinkDown reports whether link id is down now (f may be nil).
func (f *Faults) LinkDown(id int) bool {
	if f == nil {
		return false
	}
	for _, l := range f.Down {
		if l == id {
			return true
		}
	}
	return false
}

// LinkGbps is link id's degraded rate now, or 0 (f may be nil).
func (f *Faults) LinkGbps(id int) float64 {
	if f == nil {
		return 0
	}
	for _, d := range f.Degraded {
		if d.Link == id {
			return d.Gbps
		}
	}
	return 0
}

// SlowFactor is endpoint ep's compute factor, or 0 when it is not slow (f may be nil).
func (f *Faults) SlowFactor(ep int) float64 {
	if f == nil {
		return 0
	}
	for _, s := range f.Slow {
		if s.Endpoint == ep {
			return s.Factor
		}
	}
	return 0
}
