package playback

import (
	"encoding/base64"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"fabriclab/i18n"
	"fabriclab/protocol"
	simmetrics "fabriclab/sim/metrics"
	"fabriclab/sim/msg"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

// Side is one side of a comparison: a scenario (a built-in name or YAML,
// with set= overrides) and the label over its half of the canvas. A load
// command's sides (protocol.Side) convert to it.
type Side protocol.Side

// Load is the side's scenario.
func (s Side) Load(which string) (scenario.Scenario, error) {
	if s.YAML != "" {
		return plan.ParseWith([]byte(s.YAML), which+" scenario", s.Sets)
	}
	return plan.Load(s.Scenario, nil, s.Sets)
}

// Begin is the worker's begin of the comparison's side ("left" or
// "right") that s is, without its run_id and heap limit.
func (s Side) Begin(side, lang string) protocol.Begin {
	return protocol.Begin{Scenario: s.Scenario, YAML: s.YAML, Sets: s.Sets, Side: side, Lang: lang}
}

// Name is the label, or the scenario's name.
func (s Side) Name(sc *scenario.Scenario) string {
	if s.Label != "" {
		return s.Label
	}
	return sc.Name
}

// Labels are the sides' labels (Name); two sides of one name and no label
// are told apart by the settings each has that the other has not
// ("ecmp-collisions · network.routing=adaptive", at most MaxLabel
// characters): the same name twice left a learner to guess which side
// "finished 4.0× sooner".
func Labels(sides [2]Side, scs [2]*scenario.Scenario) [2]string {
	out := [2]string{sides[0].Name(scs[0]), sides[1].Name(scs[1])}
	if out[0] != out[1] || sides[0].Label != "" || sides[1].Label != "" {
		return out
	}
	for i, s := range sides {
		var own []string
		for _, set := range s.Sets {
			if !slices.Contains(sides[1-i].Sets, set) {
				own = append(own, set)
			}
		}
		if len(own) > 0 {
			out[i] += " · " + strings.Join(own, ", ")
		}
		if r := []rune(out[i]); len(r) > MaxLabel {
			out[i] = string(r[:MaxLabel-1]) + "…"
		}
	}
	return out
}

// MaxLabel bounds a side's label, in characters.
const MaxLabel = protocol.MaxLabel

// compareParams are the parameters of compare=1:
// left=NAME&left.set=k=v&left.label=TEXT (or left.yaml=BASE64URL), the same for right.
var compareParams = []string{"compare", "left", "left.set", "left.yaml", "left.label", "right", "right.set", "right.yaml", "right.label"}

// parseCompare reads compare=1 and the sides' parameters into p.
func parseCompare(vals url.Values, p *Params) error {
	on := vals.Get("compare")
	given := false
	for _, k := range compareParams[1:] {
		given = given || vals.Has(k)
	}
	switch on {
	case "", "0", "false", "no":
		if given {
			return fmt.Errorf("parameters left= and right= need compare=1, e.g. ?compare=1&left=incast&right=incast-dcqcn")
		}
		return nil
	case "1", "true", "yes":
	default:
		return fmt.Errorf("parameter compare=%q: use compare=1 with left= and right=", on)
	}
	if p.Scenario != "" || p.YAML != "" || len(p.Sets) > 0 {
		return fmt.Errorf("parameter compare=1 takes left= and right= (and left.set=, right.set=), not scenario=, yaml= or set=")
	}
	var sides [2]Side
	for i, name := range []string{"left", "right"} {
		s := &sides[i]
		for _, k := range []string{name, name + ".yaml", name + ".label"} {
			if len(vals[k]) > 1 {
				return fmt.Errorf("parameter %s is given %d times; give it once", k, len(vals[k]))
			}
		}
		s.Scenario, s.Label = vals.Get(name), strings.TrimSpace(vals.Get(name+".label"))
		if len([]rune(s.Label)) > MaxLabel {
			return fmt.Errorf("parameter %s.label is %d characters; at most %d", name, len([]rune(s.Label)), MaxLabel)
		}
		if y := vals.Get(name + ".yaml"); y != "" {
			y = strings.TrimRight(y, "=")
			if n := base64.RawURLEncoding.DecodedLen(len(y)); n > MaxYAML {
				return fmt.Errorf("parameter %s.yaml is %d bytes of YAML, more than the %d KiB the address takes; send it with a load message", name, n, MaxYAML>>10)
			}
			data, err := base64.RawURLEncoding.DecodeString(y)
			if err != nil {
				return fmt.Errorf("parameter %s.yaml is not base64url-encoded YAML (%v); encode the scenario with base64url", name, err)
			}
			s.YAML = string(data)
		}
		switch {
		case s.Scenario != "" && s.YAML != "":
			return fmt.Errorf("parameters %s= and %s.yaml= are both given; give one of them", name, name)
		case s.Scenario == "" && s.YAML == "":
			return fmt.Errorf("parameter compare=1 needs %s=NAME (a built-in) or %s.yaml=; e.g. ?compare=1&left=ecmp-collisions&right=ecmp-collisions&right.set=network.routing=adaptive", name, name)
		case s.Scenario != "":
			if _, ok := scenario.Builtin(s.Scenario); !ok {
				return fmt.Errorf("parameter %s=%q is not a built-in scenario; use one of %s", name, s.Scenario, builtinNames())
			}
		}
		n := 0
		for _, set := range vals[name+".set"] {
			if n += len(set); n > MaxSets {
				return fmt.Errorf("parameters %s.set= come to more than %d KiB; give fewer overrides", name, MaxSets>>10)
			}
			if !strings.Contains(set, "=") {
				return fmt.Errorf("parameter %s.set=%q: write %s.set=key.path=value, e.g. %s.set=network.routing=adaptive", name, set, name, name)
			}
			s.Sets = append(s.Sets, set)
		}
	}
	p.Compare = &sides
	return nil
}

func builtinNames() string {
	var names []string
	for _, b := range scenario.Builtins() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}

// Pair plays two players in lock-step on one clock: both show the same
// simulated time; a side that has ended holds its last frame. Playback
// waits for the side computed least far.
type Pair struct {
	Sides   [2]*Player
	pos     unit.Time
	playing bool
	speed   unit.Time
	auto    bool      // speed follows the longer run
	target  unit.Time // a Seek past what both have computed; -1 for none
}

// NewPair pairs two players, paused at time 0.
func NewPair(a, b *Player) *Pair {
	q := &Pair{Sides: [2]*Player{a, b}, auto: true, target: -1}
	q.speed = max(a.Speed(), b.Speed())
	return q
}

// Done reports whether both runs are computed.
func (q *Pair) Done() bool { return q.Sides[0].Done() && q.Sides[1].Done() }

// Err is why a side stopped short (the first's, if both did), naming it.
func (q *Pair) Err() error {
	for i, p := range q.Sides {
		if p.Err() != nil {
			if i == 1 {
				return msg.Errorf("right side: %w", p.Err())
			}
			return msg.Errorf("left side: %w", p.Err())
		}
	}
	return nil
}

// End is how far playback may go: the longer run's end once both are
// computed, else the least computed time of a side still computing.
func (q *Pair) End() unit.Time {
	end := unit.Time(math.MaxInt64)
	for _, p := range q.Sides {
		if !p.Done() {
			end = min(end, p.End())
		}
	}
	if end == math.MaxInt64 {
		return max(q.Sides[0].End(), q.Sides[1].End())
	}
	return end
}

// Compute gives the slice to the side computed least far (so that both
// reach the shared time together) and reports whether both are done.
func (q *Pair) Compute(budget time.Duration) bool {
	var p *Player
	for _, s := range q.Sides {
		if !s.Done() && s.Err() == nil && (p == nil || s.End() < p.End()) {
			p = s
		}
	}
	if p != nil {
		p.Compute(budget)
	}
	q.settle()
	return q.Done() || q.Err() != nil
}

// Pos is the shared playback position; Playing, Speed as for a Player.
func (q *Pair) Pos() unit.Time   { return q.pos }
func (q *Pair) Playing() bool    { return q.playing }
func (q *Pair) Speed() unit.Time { return q.speed }

// Seeking is where a Seek waits to go.
func (q *Pair) Seeking() (unit.Time, bool) { return q.target, q.target >= 0 }

// Progress is the less computed side's share; ETA the longer wait (−1 unknown).
func (q *Pair) Progress() float64 {
	p := 1.0
	for _, s := range q.Sides {
		if !s.Done() {
			p = min(p, s.Progress())
		}
	}
	return p
}

func (q *Pair) ETA() float64 {
	eta := 0.0
	for _, s := range q.Sides {
		if !s.Done() {
			e := s.ETA()
			if e < 0 {
				return -1
			}
			eta += e // the two share the computing
		}
	}
	return eta
}

// sync puts both players at the shared time (each at most at its own end).
func (q *Pair) sync() {
	for _, p := range q.Sides {
		p.Seek(min(q.pos, p.End()))
	}
}

// settle takes a waiting Seek once what it waits for is computed, and
// follows the longer run's speed until the speed is set.
func (q *Pair) settle() {
	if q.auto {
		q.speed = max(q.Sides[0].Speed(), q.Sides[1].Speed())
	}
	if q.target >= 0 && (q.target <= q.End() || q.Done() || q.Err() != nil) {
		t := q.target
		q.target = -1
		q.Seek(t)
	}
	q.sync()
}

// Tick moves the shared clock on by real seconds (when playing); at the end
// of both runs it pauses there.
func (q *Pair) Tick(real float64) {
	if q.playing {
		q.pos += unit.Time(float64(q.speed) * real)
		if end := q.End(); q.pos >= end {
			q.pos = end
			if q.Done() {
				q.playing = false
			}
		}
	}
	q.sync()
}

// Play, Pause, Toggle and Reset as for a Player.
func (q *Pair) Play() {
	if q.Done() && q.pos >= q.End() {
		q.pos = 0
	}
	q.target, q.playing = -1, true
	q.sync()
}

func (q *Pair) Pause() { q.playing = false }

func (q *Pair) Toggle() {
	if q.playing {
		q.Pause()
	} else {
		q.Play()
	}
}

func (q *Pair) Reset() { q.pos, q.playing, q.target = 0, false, -1; q.sync() }

// Seek moves both to t; past what both have computed it waits at the
// computed end until t is.
func (q *Pair) Seek(t unit.Time) {
	t = max(0, t)
	q.target = -1
	if end := q.End(); t > end {
		if !q.Done() && q.Err() == nil {
			q.target = t
		}
		t = end
	}
	if t >= q.End()-endSlack {
		t = q.End()
	}
	q.pos = t
	q.sync()
}

// Step pauses and moves to the next change either side shows; StepBack to
// the latest one before.
func (q *Pair) Step() {
	q.playing, q.target = false, -1
	next := unit.Time(-1)
	for _, p := range q.Sides {
		if q.pos >= p.End() {
			continue
		}
		p.Seek(q.pos)
		p.Step()
		if t := p.Pos(); t > q.pos && (next < 0 || t < next) {
			next = t
		}
		p.stepPending = false
	}
	if next >= 0 {
		q.pos = min(next, q.End())
	}
	q.sync()
}

func (q *Pair) StepBack() {
	q.playing, q.target = false, -1
	prev := unit.Time(0)
	for _, p := range q.Sides {
		p.Seek(min(q.pos, p.End()))
		if p.Pos() < q.pos {
			prev = max(prev, p.Pos()) // an ended side: its end is a stop
			continue
		}
		p.StepBack()
		if t := p.Pos(); t < q.pos {
			prev = max(prev, t)
		}
	}
	q.pos = prev
	q.sync()
}

// SetSpeed, Faster and Slower as for a Player.
func (q *Pair) SetSpeed(s unit.Time) { q.speed, q.auto = clampSpeed(s), false }
func (q *Pair) Faster()              { q.SetSpeed(q.speed * 2) }
func (q *Pair) Slower()              { q.SetSpeed(q.speed / 2) }

// Summary says in one line how two finished runs differ: which finished
// first and by how much, then the figures that differ most, e.g.
// "Adaptive routing finished 2.1× sooner (412 µs vs 871 µs); max queue 3.1 MiB vs 0.4 MiB; drops 0 vs 0".
func Summary(labels [2]string, a, b *simmetrics.Result) string { return SummaryIn("en", labels, a, b) }

// SummaryIn is Summary in a language: en or zh (others: en).
func SummaryIn(lang string, labels [2]string, a, b *simmetrics.Result) string {
	l := i18n.Lang(lang)
	ta, tb := a.Totals.SimTimeUs, b.Totals.SimTimeUs
	var head string
	switch {
	case beside(a) && beside(b): // the collective is the point, not the traffic that outlasts it
		head = collectiveHead(l, labels, a.Collective.TimeUs, b.Collective.TimeUs)
	case sameish(ta, tb):
		head = i18n.Tf(l, "compare.both", usText(ta))
	case ta < tb:
		head = i18n.Tf(l, "compare.sooner", labels[0], ratioText(tb/ta), usText(ta), usText(tb))
	default:
		head = i18n.Tf(l, "compare.sooner", labels[1], ratioText(ta/tb), usText(tb), usText(ta))
	}
	type figure struct {
		name   string
		a, b   float64
		format func(float64) string
	}
	count := func(v float64) string { return strconv.FormatInt(int64(v), 10) }
	figs := []figure{
		{i18n.T(l, "compare.max-queue"), float64(maxQueue(a)), float64(maxQueue(b)), bytesText},
		{i18n.T(l, "compare.drops"), float64(a.Totals.Drops), float64(b.Totals.Drops), count},
		{i18n.T(l, "compare.pauses"), float64(a.Totals.PauseFrames), float64(b.Totals.PauseFrames), count},
		{i18n.T(l, "compare.ecn"), float64(a.Totals.ECNMarks), float64(b.Totals.ECNMarks), count},
		{i18n.T(l, "compare.retransmits"), float64(a.Totals.Retransmits), float64(b.Totals.Retransmits), count},
		{i18n.T(l, "compare.mean-fct"), a.Totals.MeanFctUs, b.Totals.MeanFctUs, usText},
		{i18n.T(l, "compare.goodput"), a.Totals.GoodputGbps, b.Totals.GoodputGbps, func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + " Gb/s" }},
	}
	diff := func(f figure) float64 {
		if m := max(math.Abs(f.a), math.Abs(f.b)); m > 0 {
			return math.Abs(f.a-f.b) / m
		}
		return 0
	}
	// The two that differ most (by share), ties in the order above; drops
	// always count as a figure worth saying.
	parts := []string{head}
	used := map[int]bool{}
	for len(used) < 2 {
		best := -1
		for i, f := range figs {
			if !used[i] && (best < 0 || diff(f) > diff(figs[best])) {
				best = i
			}
		}
		if diff(figs[best]) < 0.05 {
			best = 1 // nothing else differs: say the drops
			if used[best] {
				break
			}
		}
		used[best] = true
		f := figs[best]
		parts = append(parts, f.name+" "+f.format(f.a)+i18n.T(l, "compare.vs")+f.format(f.b))
	}
	return strings.Join(parts, i18n.T(l, "compare.sep"))
}

// collectiveHead says which side's collective finished first.
func collectiveHead(l i18n.Lang, labels [2]string, ta, tb float64) string {
	switch {
	case sameish(ta, tb):
		return i18n.Tf(l, "compare.both.collective", usText(ta))
	case ta < tb:
		return i18n.Tf(l, "compare.sooner.collective", labels[0], ratioText(tb/ta), usText(ta), usText(tb))
	}
	return i18n.Tf(l, "compare.sooner.collective", labels[1], ratioText(ta/tb), usText(tb), usText(ta))
}

// beside tells a run whose collective ran beside other traffic that
// outlasted it (a noisy neighbour).
func beside(r *simmetrics.Result) bool {
	return r.Collective != nil && r.Collective.TimeUs > 0 && r.Collective.TimeUs < 0.99*r.Totals.SimTimeUs
}

func sameish(a, b float64) bool { return math.Abs(a-b) <= 0.005*max(math.Abs(a), math.Abs(b)) }

func maxQueue(r *simmetrics.Result) int64 {
	var m int64
	for _, l := range r.Links {
		m = max(m, l.MaxQueueBytes)
	}
	return m
}

// ratioText writes a ratio as 2.1×, 12×.
func ratioText(r float64) string {
	if r >= 10 {
		return strconv.FormatFloat(r, 'f', 0, 64) + "×"
	}
	if r < 1.1 {
		return strconv.FormatFloat(r, 'f', 2, 64) + "×"
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "×"
}

// usText writes a time in µs as 412 µs, 1.37 ms, 2.05 s (three significant digits).
func usText(us float64) string {
	v, u := us, "µs"
	switch {
	case us >= 1e6:
		v, u = us/1e6, "s"
	case us >= 1000:
		v, u = us/1000, "ms"
	}
	return sig3(v) + " " + u
}

func bytesText(b float64) string {
	switch {
	case b >= 1<<30:
		return sig3(b/(1<<30)) + " GiB"
	case b >= 1<<20:
		return sig3(b/(1<<20)) + " MiB"
	case b >= 1<<10:
		return sig3(b/(1<<10)) + " KiB"
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " B"
}

func sig3(v float64) string {
	d := 0
	switch a := math.Abs(v); {
	case a == 0 || a >= 100:
	case a >= 10:
		d = 1
	default:
		d = 2
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}
