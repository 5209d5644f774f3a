package fluid

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/scenario"
)

// flowScenario parses yaml (validated at packet fidelity) and switches it to the flow model.
func flowScenario(t testing.TB, yaml string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.ParseWith([]byte(yaml), t.Name(), sets)
	require.NoError(t, err)
	sc.Sim.Fidelity = scenario.FlowLevel
	return &sc
}

var routeTopologies = []struct{ name, topology string }{
	{"star", "{kind: star, hosts: 5}"},
	{"dgx-1", "{kind: dgx, nodes: 1}"},
	{"dgx-4", "{kind: dgx, nodes: 4, gpus_per_node: 4}"},
	{"dgx-oversub", "{kind: dgx, nodes: 4, gpus_per_node: 2, oversubscription: 2}"},
	{"leafspine", "{kind: leafspine, leaves: 4, hosts_per_leaf: 4, spines: 2}"},
	{"leafspine-1-leaf", "{kind: leafspine, leaves: 1, hosts_per_leaf: 6}"},
	{"leafspine-nodes", "{kind: leafspine, leaves: 2, hosts_per_leaf: 8, gpus_per_node: 4, spines: 4}"},
	{"leafspine-rails", "{kind: leafspine, leaves: 4, hosts_per_leaf: 3, gpus_per_node: 4, rail_optimized: true, spines: 3}"},
	{"fattree", "{kind: fattree, k: 4}"},
}

// The router's distances and minimal next hops are exactly topo.HopsTo's, for
// every pair of endpoints, at every node of every minimal path.
func TestRouterMatchesHopsTo(t *testing.T) {
	for _, tc := range routeTopologies {
		t.Run(tc.name, func(t *testing.T) {
			sc := flowScenario(t, "name: r\ntopology: "+tc.topology+"\ntraffic: {pattern: permutation}\n")
			p := resolve(t, sc)
			tp := p.Topology
			r := newRouter(tp, p.Net.SwitchLatency)
			checked := 0
			for _, dst := range tp.Endpoints {
				hops := tp.HopsTo(dst)
				for _, src := range tp.Endpoints {
					if src == dst {
						continue
					}
					r.target(int32(dst))
					require.Equal(t, hops[src], r.distTo(int32(src)), "%s → %s", tp.Nodes[src].Name, tp.Nodes[dst].Name)
					seen := map[int]bool{src: true}
					level := []int{src}
					for len(level) > 0 {
						var next []int
						for _, n := range level {
							if n == dst {
								continue
							}
							var want []int32
							for _, l := range tp.Nodes[n].Out {
								to := tp.Links[l].To
								if hops[to] == hops[n]-1 && (tp.Nodes[to].Role.Forwards() || to == dst) {
									want = append(want, int32(l))
								}
							}
							got := slices.Clone(r.candidates(int32(n), hops[n]-1))
							require.Equal(t, want, got, "next hops at %s towards %s", tp.Nodes[n].Name, tp.Nodes[dst].Name)
							checked++
							for _, l := range want {
								if to := tp.Links[l].To; !seen[to] {
									seen[to] = true
									next = append(next, to)
								}
							}
						}
						level = next
					}
				}
			}
			assert.Positive(t, checked)
		})
	}
}

// Splitting gives each link the share of the flow that crosses it: every
// share is in (0, 1], and the shares leaving the source and entering the
// destination each add up to 1.
func TestSplitSharesAddUp(t *testing.T) {
	sc := flowScenario(t, "name: r\ntopology: {kind: fattree, k: 4}\n")
	p := resolve(t, sc)
	tp := p.Topology
	r := newRouter(tp, p.Net.SwitchLatency)
	src, dst := int32(tp.Endpoints[0]), int32(tp.Endpoints[15]) // different pods: 4 paths
	links, shares, delay := r.split(src, dst, 4096, nil, nil)
	require.Len(t, shares, len(links))
	var out, in float64
	for i, l := range links {
		assert.Greater(t, shares[i], 0.0)
		assert.LessOrEqual(t, shares[i], 1.0)
		if tp.Links[l].From == int(src) {
			out += shares[i]
		}
		if tp.Links[l].To == int(dst) {
			in += shares[i]
		}
	}
	assert.InDelta(t, 1, out, 1e-12)
	assert.InDelta(t, 1, in, 1e-12)
	assert.Len(t, links, 1+2+4+4+2+1, "host→edge, edge→2 aggs, 4 agg→core, 4 core→agg, 2 agg→edge, edge→host")
	one, _ := r.path(src, dst, 4096, func(_ int32, c []int32) int32 { return c[0] }, nil)
	assert.Len(t, one, 6)
	_, pathDelay := r.path(src, dst, 4096, func(_ int32, c []int32) int32 { return c[0] }, nil)
	assert.Equal(t, pathDelay, delay, "all minimal paths are alike")
}

// The ancestors distTo has not marked yet cannot be on a path shorter than
// unseen says: at every level of the search, for every unmarked ancestor p
// of every destination, the fewest hops from any endpoint to p and down to
// the destination is at least unseen.
func TestRouterUnseenBound(t *testing.T) {
	for _, tc := range routeTopologies {
		t.Run(tc.name, func(t *testing.T) {
			sc := flowScenario(t, "name: r\ntopology: "+tc.topology+"\ntraffic: {pattern: permutation}\n")
			p := resolve(t, sc)
			tp := p.Topology
			r := newRouter(tp, p.Net.SwitchLatency)
			tight := 0
			for _, dst := range tp.Endpoints {
				// Every ancestor and its down-distance, by a full search up from dst.
				down := map[int32]int{int32(dst): 0}
				q := []int32{int32(dst)}
				for i := 0; i < len(q); i++ {
					for _, l := range r.up(q[i]) {
						if v := r.to[l]; r.forwards[v] {
							if _, ok := down[v]; !ok {
								down[v] = down[q[i]] + 1
								q = append(q, v)
							}
						}
					}
				}
				r.ancDst = -1
				r.target(int32(dst))
				for {
					bound := r.unseen()
					for p, d := range down {
						if _, marked := r.descent(p); marked {
							continue
						}
						hops := tp.HopsTo(int(p))
						for _, src := range tp.Endpoints {
							require.GreaterOrEqual(t, int(hops[src])+d, bound, "%s via %s", tp.Nodes[dst].Name, tp.Nodes[p].Name)
							if int(hops[src])+d == bound {
								tight++
							}
						}
					}
					if bound == math.MaxInt {
						break
					}
					r.grow()
				}
			}
			assert.Positive(t, tight, "the bound is reached")
		})
	}
}
