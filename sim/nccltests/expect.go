package nccltests

import (
	"fmt"
	"strconv"

	"fabriclab/sim"
	"fabriclab/sim/coll"
	"fabriclab/sim/plan"
	"fabriclab/sim/unit"
)

// Expected is what fabriclab gives for one size.
type Expected struct {
	Size         unit.Bytes
	TimeUs       float64
	AlgBw, BusBw float64 // GB/s, as nccl-tests define them
	Algo, Proto  string  // what ran: the algorithm auto chose, NCCL's protocol
	Channels     int
}

// Run runs the scenario name (read with read) with sets once per size and
// returns a row for each and the number of ranks.
func Run(name string, read func(string) ([]byte, error), sets []string, sizes []unit.Bytes) ([]Expected, int, error) {
	var rows []Expected
	ranks := 0
	for _, size := range sizes {
		sc, err := plan.Load(name, read, append(append([]string(nil), sets...), "collective.bytes="+strconv.FormatInt(int64(size), 10)))
		if err != nil {
			return nil, 0, err
		}
		res, err := sim.Run(sc)
		if err != nil {
			return nil, 0, err
		}
		c := res.Collective
		if c == nil {
			return nil, 0, fmt.Errorf("%s: the collective of %s did not finish (is until too short?)", name, size)
		}
		ranks = c.Ranks
		rows = append(rows, Expected{size, c.TimeUs, c.AlgBwGBps, c.BusBwGBps, c.Algo, c.Protocol, c.Channels})
	}
	return rows, ranks, nil
}

// Compare runs the shape's scenario at the output's sizes, and the other
// algorithms at the largest one, and explains the output against them.
func Compare(o *Output, s Shape) (Report, error) {
	yaml := []byte(s.YAML(""))
	read := func(string) ([]byte, error) { return yaml, nil }
	sizes := o.Sizes()
	exp, _, err := Run("explain.yaml", read, nil, sizes)
	if err != nil {
		return Report{}, fmt.Errorf("the scenario for this output: %w\n%s", err, yaml)
	}
	var alts []Alternative
	if len(sizes) > 0 && (s.Op == coll.AllReduce || s.Op == coll.AllGather || s.Op == coll.ReduceScatter) {
		for _, a := range []string{coll.Ring, coll.Tree, coll.InNetwork, coll.NVLSTree} {
			e, _, err := Run("explain.yaml", read, []string{"collective.algo=" + a}, sizes[len(sizes)-1:])
			if err == nil { // an algorithm this shape cannot run is no alternative
				alts = append(alts, Alternative{Algo: a, Expected: e[0]})
			}
		}
	}
	return Explain(o, s, exp, alts), nil
}
