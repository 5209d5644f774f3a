// Package framewire is the binary form of a run's recorded frames
// (snap.Snapshot) as they cross from where the run computes to where it
// plays: an Encoder writes each frame against the one it wrote before
// (the chunks of links and flows that did not change are left out, as
// snap.Snapshot.Compact shares them), a Decoder reads them back in the same
// order into compact snapshots equal to the originals, floats bit for bit.
// What a run's frames share is sent once: its routes' names and static
// paths, a training run's model and rows, the append-only training logs
// (only what is new). It imports only sim/snap and sim/unit.
package framewire

import (
	"errors"
	"fmt"

	"fabriclab/sim/snap"
)

// Version is the format's version; a frame of another is refused.
// 3: the routes' news carry reroutes (snap.RouteNews.Moves), training its
// checkpoints' spans. 4: a collective carries its channels' routes (snap.Collective.Routes).
const Version = 4

// magic starts every frame, followed by the version byte.
const magic = "FLF"

// What a frame holds besides links, flows, packets and activity.
const (
	hasRouting = 1 << iota
	hasCollective
	hasTraining
	hasInference
	isDone
	hasFaults
	hasClasses
)

// ErrVersion is the error of a frame written by another version.
var ErrVersion = errors.New("the simulation and the canvas are from different builds: reload the page")

// Encoder writes one run's frames in order. The zero value is ready.
type Encoder struct {
	frames  int            // written so far
	prev    *snap.Snapshot // the frame written before
	routes  snap.RouteReader
	routed  bool   // the routes' static part was written
	trained bool   // the training's static part was written
	logs    [6]int // Training's Tasks, Comms, Starts, Steps, SaveStarts and SaveEnds written
}

// Encode appends frame s to dst, against the frame written before.
func (e *Encoder) Encode(dst []byte, s *snap.Snapshot) []byte {
	w := &writer{b: append(dst, magic...)}
	w.b = append(w.b, Version)
	w.uint(uint64(e.frames))
	w.int(int64(s.Time))
	flags := byte(0)
	for _, f := range []struct {
		on  bool
		bit byte
	}{{s.Routing != nil, hasRouting}, {s.Collective != nil, hasCollective}, {s.Training != nil, hasTraining}, {s.Inference != nil, hasInference}, {s.Done, isDone},
		{s.Faults != nil, hasFaults}, {s.Classes != nil, hasClasses}} {
		if f.on {
			flags |= f.bit
		}
	}
	w.b = append(w.b, flags)
	var prevLinks [][]snap.Link
	var prevFlows [][]snap.Flow
	if e.prev != nil {
		prevLinks, prevFlows = linkChunks(e.prev), flowChunks(e.prev)
	}
	writeChunks(w, s.NumLinks(), linkChunks(s), prevLinks, putLink)
	writeChunks(w, s.NumFlows(), flowChunks(s), prevFlows, putFlow)
	putMoving(w, s)
	if s.Routing != nil {
		e.putRouting(w, s)
	}
	if s.Collective != nil {
		putCollective(w, s.Collective)
	}
	if s.Training != nil {
		e.putTraining(w, s.Training)
	}
	if s.Inference != nil {
		putInference(w, s.Inference)
	}
	if s.Faults != nil {
		putFaults(w, s.Faults)
	}
	if s.Classes != nil {
		putClasses(w, s.Classes)
	}
	e.frames++
	e.prev = s
	return w.b
}

// Decoder reads one run's frames, in the order they were written. The zero
// value is ready.
type Decoder struct {
	frames   int
	prev     *snap.Snapshot
	routes   *snap.Routes
	training *snap.Training  // the static part and the logs so far
	news     *snap.RouteNews // the routes' news of the frame being read, applied once it is whole
}

// Decode reads a frame: a compact snapshot that shares the chunks the
// frame left out with the frame decoded before. On an error nothing of
// the decoder's state changes.
func (d *Decoder) Decode(b []byte) (*snap.Snapshot, error) {
	r := &reader{b: b, section: "header"}
	if r.need(len(magic)+1) || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("framewire: not a frame (it does not start with %q); the canvas was sent something else", magic)
	}
	if v := b[len(magic)]; v != Version {
		return nil, fmt.Errorf("framewire: a frame of version %d, this build reads %d: %w", v, Version, ErrVersion)
	}
	r.off = len(magic) + 1
	if i := r.uint(); r.err == nil && i != uint64(d.frames) {
		return nil, fmt.Errorf("framewire: frame %d came where frame %d was due; frames must arrive in order, each once", i, d.frames)
	}
	s := &snap.Snapshot{}
	s.Time = unitTime(r.int())
	var flags byte
	if !r.need(1) {
		flags, r.off = b[r.off], r.off+1
	}
	s.Done = flags&isDone != 0
	var prevLinks [][]snap.Link
	var prevFlows [][]snap.Flow
	if d.prev != nil {
		prevLinks, prevFlows = d.prev.LinkChunks, d.prev.FlowChunks
	}
	r.section = "links"
	s.LinkChunks, s.LinkCount = readChunks(r, prevLinks, getLinks)
	r.section = "flows"
	s.FlowChunks, s.FlowCount = readChunks(r, prevFlows, getFlows)
	getMoving(r, s)
	next := *d
	if flags&hasRouting != 0 {
		next.getRouting(r, s)
	}
	if flags&hasCollective != 0 {
		s.Collective = getCollective(r)
	}
	if flags&hasTraining != 0 {
		next.getTraining(r, s)
	}
	if flags&hasInference != 0 {
		s.Inference = getInference(r)
	}
	if flags&hasFaults != 0 {
		s.Faults = getFaults(r)
	}
	if flags&hasClasses != 0 {
		s.Classes = getClasses(r)
	}
	if r.err == nil && r.off != len(b) {
		r.section = "end"
		r.fail(fmt.Sprintf("%d bytes left over", len(b)-r.off))
	}
	if r.err != nil {
		return nil, fmt.Errorf("framewire: frame %d: %w; the frame is damaged or from another build (reload the page)", d.frames, r.err)
	}
	next.commit(s)
	*d = next
	return s, nil
}

// commit makes s the frame decoded last.
func (d *Decoder) commit(s *snap.Snapshot) {
	if d.news != nil {
		d.routes.Apply(*d.news)
		d.news = nil
	}
	d.frames++
	d.prev = s
}
