package framewire

import "fabriclab/sim/snap"

// The faults in effect and the traffic classes' names are written whole in
// every frame that has them: a few links, GPUs and names at most.
func putFaults(w *writer, f *snap.Faults) {
	w.list(len(f.Down), f.Down == nil)
	for _, l := range f.Down {
		w.int(int64(l))
	}
	w.list(len(f.Degraded), f.Degraded == nil)
	for _, d := range f.Degraded {
		w.int(int64(d.Link))
		w.f64(d.Gbps)
	}
	w.list(len(f.Slow), f.Slow == nil)
	for _, g := range f.Slow {
		w.int(int64(g.Endpoint))
		w.f64(g.Factor)
	}
}

func getFaults(r *reader) *snap.Faults {
	r.section = "faults"
	f := &snap.Faults{}
	if n, null := r.list(1); !null && r.err == nil {
		f.Down = make([]int, n)
		for i := range f.Down {
			f.Down[i] = int(r.int())
		}
	}
	if n, null := r.list(9); !null && r.err == nil {
		f.Degraded = make([]snap.DegradedLink, n)
		for i := range f.Degraded {
			f.Degraded[i] = snap.DegradedLink{Link: int(r.int()), Gbps: r.f64()}
		}
	}
	if n, null := r.list(9); !null && r.err == nil {
		f.Slow = make([]snap.SlowGPU, n)
		for i := range f.Slow {
			f.Slow[i] = snap.SlowGPU{Endpoint: int(r.int()), Factor: r.f64()}
		}
	}
	return f
}

func putClasses(w *writer, names []string) {
	w.list(len(names), false)
	for _, n := range names {
		w.str(n)
	}
}

func getClasses(r *reader) []string {
	r.section = "classes"
	n, _ := r.list(1)
	if r.err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}
