package network

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"fabriclab/sim/fabric"
	"fabriclab/sim/metrics"
	"fabriclab/sim/unit"
)

func TestCallsReuseSlotsAndCount(t *testing.T) {
	var c Calls
	var got []int
	a := c.Add(func() { got = append(got, 1) })
	b := c.Add(func() { got = append(got, 2) })
	assert.Equal(t, 2, c.Pending())
	c.Run(b)
	c.Run(a)
	again := c.Add(nil)
	assert.Equal(t, a, again, "the slot freed last is reused first")
	c.Run(again) // a nil callback is allowed
	assert.Equal(t, []int{2, 1}, got)
	assert.Zero(t, c.Pending())
}

func TestStreamsJoinOrderedTransfersOnly(t *testing.T) {
	var s Streams
	_, ok := s.Join(fabric.Transfer{Src: 0, Dst: 1}, 0)
	assert.False(t, ok, "stream 0 is unordered")
	_, ok = s.Join(fabric.Transfer{Src: 0, Dst: 1, Stream: 1}, 1)
	assert.False(t, ok, "the first of its stream")
	prev, ok := s.Join(fabric.Transfer{Src: 0, Dst: 1, Stream: 1}, 2)
	assert.True(t, ok)
	assert.Equal(t, int32(1), prev)
	_, ok = s.Join(fabric.Transfer{Src: 1, Dst: 0, Stream: 1}, 3)
	assert.False(t, ok, "another pair, another stream")
	prev, _ = s.Join(fabric.Transfer{Src: 0, Dst: 1, Stream: 1}, 4)
	assert.Equal(t, int32(2), prev)
}

func TestCadence(t *testing.T) {
	c := NewCadence(DefaultInterval) // plan.Resolve's choice is tested in sim/plan
	assert.Equal(t, DefaultInterval, c.Interval)
	for i := range MaxSamples - 1 {
		c.Take(unit.Time(i) * c.Interval)
	}
	assert.False(t, c.Full())
	c.Take(unit.Time(MaxSamples-1) * c.Interval)
	require.True(t, c.Full())
	c.Halve()
	assert.Equal(t, 2*DefaultInterval, c.Interval)
	assert.Len(t, c.Times, MaxSamples/2)
	assert.Equal(t, 2*DefaultInterval, c.Times[1])
	assert.True(t, c.FinalDue(c.Times[len(c.Times)-1]+1))
	assert.False(t, c.FinalDue(c.Times[len(c.Times)-1]))

	explicit := NewCadence(unit.Microsecond)
	assert.Equal(t, unit.Microsecond, explicit.Interval, "sim.sample_interval")
	for i := range MaxSamples - 1 {
		explicit.Take(unit.Time(i) * unit.Microsecond)
	}
	assert.False(t, explicit.Full())
	explicit.Take(unit.Time(MaxSamples-1) * unit.Microsecond)
	require.True(t, explicit.Full(), "an explicit interval halves too, at the same cap")
	explicit.Halve()
	assert.Equal(t, 2*unit.Microsecond, explicit.Interval)
	assert.Len(t, explicit.Times, MaxSamples/2)
}

func TestFlowTimes(t *testing.T) {
	flows := make([]metrics.Flow, 3)
	var ft FlowTimes
	ft.Finish(&flows[0], 1000, 0, 2*unit.Microsecond)
	ft.Finish(&flows[2], 1000, unit.Microsecond, 5*unit.Microsecond)
	var tot metrics.Totals
	ft.Totals(&tot)
	assert.Equal(t, 4.0, tot.MaxFctUs)
	assert.Equal(t, 3.0, tot.MeanFctUs, "the unfinished flow does not count")
	assert.True(t, flows[2].Finished)
	assert.Equal(t, 5.0, flows[2].FinishUs)
	assert.Equal(t, 2.0, flows[2].Gbps, "1000 bytes in 4 µs")
}
