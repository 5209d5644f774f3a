package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// The worker's messages (issue 29): the page starts a run in a Web Worker
// that computes it (cmd/worker), and the worker sends back the frames it
// records for the canvas to play. They travel as the page's messages do, a
// JSON object named by its "fabriclab" field; a frame's binary form
// (playback/framewire) travels beside its recorded message, as a
// transferred ArrayBuffer of its bytes; the worker posts a slice's messages
// together (cmd/worker's bridge).

// WorkerCommand is a message to the worker.
type WorkerCommand interface{ WorkerCommand() string }

// WorkerEvent is a message from the worker.
type WorkerEvent interface{ WorkerEvent() string }

// WorkerCommands and WorkerEvents are every worker message, each a zero
// value, in the order the README documents them.
var (
	WorkerCommands = []WorkerCommand{Begin{}, Early{}, Cancel{}, Explain{}}
	WorkerEvents   = []WorkerEvent{WorkerReady{}, Begun{}, Recorded{}, Computing{}, Halved{}, RunResult{}, ResultRest{}, WorkerError{}, Explained{}}
)

// Begin starts computing a run: a built-in's name or YAML, with set=
// overrides; a new begin drops the run before.
type Begin struct {
	RunID        int      `json:"run_id"`
	YAML         string   `json:"yaml,omitempty"`
	Scenario     string   `json:"scenario,omitempty"`
	Sets         []string `json:"set,omitempty"`
	Side         string   `json:"side,omitempty"` // "left" or "right" of a comparison, "" for one run
	HeapLimitMiB int      `json:"heap_limit_mib"` // the worker's memory limit (0: the default)
	Lang         string   `json:"lang,omitempty"` // the page's language, for errors: en or zh
}

// Early starts, before the canvas has started, the run its first begin
// will ask for (issue 29: a lesson step's figures within 1 s of a warm
// load): Query is the embed page's address (its location.search), Load the
// load the parent page sent for the canvas's first run (nil: none). The
// worker reads them as the canvas does (playback.FirstRun), builds that run
// and records its first frame, keeping every message of it to itself, and
// waits for the first begin: one that asks for the same run takes it over
// (its run_id on every message kept, then posted, and the run computes on);
// any other drops it. Sent once, first, by the page. Side is the side of a
// comparison this worker computes ("left": worker 0, "right": worker 1),
// "" for one run.
type Early struct {
	Query string `json:"query"`
	Load  *Load  `json:"load,omitempty"`
	Side  string `json:"side,omitempty"`
}

// Cancel drops a run.
type Cancel struct {
	RunID int `json:"run_id"`
}

// Explain sets an nccl-tests output beside a healthy cluster of its shape
// (issue 32), as fabriclab explain does; answered by Explained. NICGbps,
// Fabric and Op are explain's --nic-gbps, --fabric and --op (zero: from
// the output); Topo is its --topo file's text, the user's node (NCCL's
// topology dump or nvidia-smi topo -m's output; "" for none).
type Explain struct {
	ID      int     `json:"id"` // echoed back, so the page knows the latest answer
	Text    string  `json:"text"`
	NICGbps float64 `json:"nic_gbps,omitempty"`
	Fabric  string  `json:"fabric,omitempty"`
	Op      string  `json:"op,omitempty"`
	Topo    string  `json:"topo,omitempty"`
}

func (Begin) WorkerCommand() string   { return "begin" }
func (Early) WorkerCommand() string   { return "early" }
func (Cancel) WorkerCommand() string  { return "cancel" }
func (Explain) WorkerCommand() string { return "explain" }

// WorkerReady is the worker's first message: the build it is (the site's
// version), so that the page refuses a worker from another build.
type WorkerReady struct {
	Version string `json:"version"`
}

// Begun says a run is built: what the canvas needs to lay it out.
type Begun struct {
	RunID     int     `json:"run_id"`
	Name      string  `json:"name"`
	Endpoints int     `json:"endpoints"`
	Links     int     `json:"links"`
	UntilUs   float64 `json:"until_us"`        // the scenario's time limit, 0 for none
	Early     bool    `json:"early,omitempty"` // begun from the page's early message, before the begin that took it over
}

// Recorded is a frame recorded, its binary form beside the message.
type Recorded struct {
	RunID    int     `json:"run_id"`
	Index    int     `json:"index"` // frames sent before it in this run
	TUs      float64 `json:"t_us"`
	Bytes    int     `json:"bytes"`    // the binary form's length
	Progress float64 `json:"progress"` // the share computed, 0…1, or −1 unknown
	EtaS     float64 `json:"eta_s"`    // seconds of computing left, or −1 unknown
}

// Computing says how far a run has got when no frame has been recorded for
// a while (a long stretch of simulated time between two frames), so that
// the page's progress moves between frames.
type Computing struct {
	RunID    int     `json:"run_id"`
	Progress float64 `json:"progress"` // the share computed, 0…1, or −1 unknown
	EtaS     float64 `json:"eta_s"`    // seconds of computing left, or −1 unknown
}

// Halved says every other frame recorded so far is dropped and the spacing doubled.
type Halved struct {
	RunID int `json:"run_id"`
}

// RunResult is the run's report, after its last frame: sim/metrics.Result
// as JSON without its flows and links, which ResultRest brings next
// (playback.SplitReport; the protocol reads neither).
type RunResult struct {
	RunID  int    `json:"run_id"`
	Result string `json:"result"`
}

// ResultRest follows RunResult with the report's flows and links, as the
// message's bytes: {"flows": […], "links": […]}.
type ResultRest struct {
	RunID int `json:"run_id"`
	Bytes int `json:"bytes"`
}

// WorkerError says a run could not start or stopped short, in the page's language.
type WorkerError struct {
	RunID   int    `json:"run_id"`
	Message string `json:"message"`
}

// Explained answers Explain: what was assumed (Header, a line each), the
// node read from Topo (nil without one), a row per size, the findings, the
// scenario of the healthy cluster (YAML, its collective.bytes to be set per
// size: the keys the topology gave written out, as the browser has no file
// for topology.from) and the size where the two curves part the most
// (PartBytes, 0 when none has both; with Parted false every size is within
// the healthy band and PartBytes is the largest); or Error, the message fabriclab
// explain would give (naming the line), ErrorIn saying which text it is
// about ("text" or "topo"), and nothing else.
type Explained struct {
	ID        int            `json:"id"`
	Error     string         `json:"error,omitempty"`
	ErrorIn   string         `json:"error_in,omitempty"`
	Header    []string       `json:"header"`
	Node      *ExplainedNode `json:"node,omitempty"`
	Rows      []ExplainedRow `json:"rows"`
	Findings  []Finding      `json:"findings"`
	YAML      string         `json:"yaml"`
	PartBytes int64          `json:"part_bytes"`
	Parted    bool           `json:"parted"`
}

// ExplainedRow is one size: measured (out of place) and expected time and
// busbw, their busbw ratio (0 where either is 0) and what NCCL would pick
// there.
type ExplainedRow struct {
	Bytes          int64   `json:"bytes"`
	MeasuredTimeUs float64 `json:"measured_time_us"`
	ExpectedTimeUs float64 `json:"expected_time_us"`
	MeasuredBusBw  float64 `json:"measured_busbw"` // GB/s
	ExpectedBusBw  float64 `json:"expected_busbw"`
	Ratio          float64 `json:"ratio"`
	Algo           string  `json:"algo"`  // NCCL's name: RING, NVLS_TREE
	Proto          string  `json:"proto"` // LL, LL128, SIMPLE
}

// ExplainedNode is what a topology file says of the user's node, for the
// page to say in its language what it read: the file's format ("NCCL
// topology (XML)" or "nvidia-smi topo -m"), its GPUs (GPU is fabriclab's
// topology.gpu, GPUGuess set when the file cannot tell it from another of
// the same NVLink), the NICs that serve them and their speed (0: the file
// does not say; RateGbps is each NIC's rate the expected column takes: the
// file's, else nic_gbps, NCCL's lines or the default), and how far the furthest GPU is from its NIC on PCIe
// (PIX … SYS; GDR whether NCCL uses GPUDirect RDMA over it by default).
type ExplainedNode struct {
	Format   string  `json:"format"`
	GPUs     int     `json:"gpus"`
	GPU      string  `json:"gpu"`
	GPUGuess bool    `json:"gpu_guess,omitempty"`
	NICs     int     `json:"nics"`
	NICGbps  float64 `json:"nic_gbps"`
	RateGbps float64 `json:"rate_gbps"`
	Path     string  `json:"path"`
	GDR      bool    `json:"gdr"`
}

// Finding is one cause found: its kind (latency, bandwidth, algo, gdr,
// pcie, pxn, nics, slow, nvlink, faster, knee, unsteady, busbw) and its
// sentence.
type Finding struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// RunOf is the run a worker's event is about (0: none, as worker_ready's
// and explained's).
func RunOf(e WorkerEvent) int {
	if r, ok := e.(runEvent); ok {
		return r.run()
	}
	return 0
}

// WithRunID is e under run_id id (e as it is when it is about no run).
func WithRunID(e WorkerEvent, id int) WorkerEvent {
	if r, ok := e.(runEvent); ok {
		return r.withRun(id)
	}
	return e
}

// runEvent is a worker event about a run.
type runEvent interface {
	run() int
	withRun(id int) WorkerEvent
}

func (e Begun) run() int       { return e.RunID }
func (e Recorded) run() int    { return e.RunID }
func (e Computing) run() int   { return e.RunID }
func (e Halved) run() int      { return e.RunID }
func (e RunResult) run() int   { return e.RunID }
func (e ResultRest) run() int  { return e.RunID }
func (e WorkerError) run() int { return e.RunID }

func (e Begun) withRun(id int) WorkerEvent       { e.RunID = id; return e }
func (e Recorded) withRun(id int) WorkerEvent    { e.RunID = id; return e }
func (e Computing) withRun(id int) WorkerEvent   { e.RunID = id; return e }
func (e Halved) withRun(id int) WorkerEvent      { e.RunID = id; return e }
func (e RunResult) withRun(id int) WorkerEvent   { e.RunID = id; return e }
func (e ResultRest) withRun(id int) WorkerEvent  { e.RunID = id; return e }
func (e WorkerError) withRun(id int) WorkerEvent { e.RunID = id; return e }

func (WorkerReady) WorkerEvent() string { return "worker_ready" }
func (Begun) WorkerEvent() string       { return "begun" }
func (Recorded) WorkerEvent() string    { return "recorded" }
func (Computing) WorkerEvent() string   { return "computing" }
func (Halved) WorkerEvent() string      { return "halved" }
func (RunResult) WorkerEvent() string   { return "result" }
func (ResultRest) WorkerEvent() string  { return "result_rest" }
func (WorkerError) WorkerEvent() string { return "worker_error" }
func (Explained) WorkerEvent() string   { return "explained" }

// EncodeWorkerCommand and EncodeWorkerEvent are a message's JSON.
func EncodeWorkerCommand(c WorkerCommand) ([]byte, error) { return encode(c.WorkerCommand(), c) }
func EncodeWorkerEvent(e WorkerEvent) ([]byte, error)     { return encode(e.WorkerEvent(), e) }

// DecodeWorkerCommand reads a message to the worker and checks it.
func DecodeWorkerCommand(data []byte) (WorkerCommand, error) {
	c, err := decodeNamed(data, MaxOutput+MaxTopo+MaxCommand, WorkerCommands, WorkerCommand.WorkerCommand, "worker command")
	if err != nil {
		return nil, err
	}
	if ch, ok := c.(interface{ check() error }); ok {
		err = ch.check()
	}
	return c, err
}

// MaxWorkerEvent is the longest message from the worker, in bytes: a run's
// report (run_result) holds every flow and the series, 1.7 MB for perm-1024
// and 24 MB for 16,384 GPUs.
const MaxWorkerEvent = 256 << 20

// DecodeWorkerEvent reads a message from the worker.
func DecodeWorkerEvent(data []byte) (WorkerEvent, error) {
	return decodeNamed(data, MaxWorkerEvent, WorkerEvents, WorkerEvent.WorkerEvent, "worker event")
}

// decodeNamed reads a message of one of list's types, by its name, of at most max bytes.
func decodeNamed[T any](data []byte, max int, list []T, name func(T) string, what string) (T, error) {
	var zero T
	if len(data) > max {
		return zero, fmt.Errorf("%s too long: at most %d KiB", what, max>>10)
	}
	var head struct {
		Name string `json:"fabriclab"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return zero, fmt.Errorf("%s is not JSON like {\"fabriclab\": \"%s\", ...}: %v", what, name(list[0]), err)
	}
	var names []string
	for _, m := range list {
		names = append(names, name(m))
		if name(m) != head.Name {
			continue
		}
		p := reflect.New(reflect.TypeOf(m))
		if err := json.Unmarshal(data, p.Interface()); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				return zero, fmt.Errorf("%s %s: field %q is a JSON %s; give %s", what, head.Name, te.Field, te.Value, jsonKind(te.Type))
			}
			return zero, fmt.Errorf("%s %s: %v", what, head.Name, err)
		}
		return p.Elem().Interface().(T), nil
	}
	return zero, fmt.Errorf("unknown %s %q; use one of %s", what, head.Name, strings.Join(names, ", "))
}

func (c Begin) check() error {
	switch {
	case c.RunID < 1:
		return fmt.Errorf("begin needs run_id, a whole number from 1, e.g. {\"fabriclab\": \"begin\", \"run_id\": 1, \"scenario\": \"incast\"}")
	case (c.YAML == "") == (c.Scenario == ""):
		return fmt.Errorf("begin needs yaml (a scenario) or scenario (a built-in name), one of them")
	case len(c.YAML) > MaxYAML:
		return fmt.Errorf("begin: the scenario is too long: at most %d KiB", MaxYAML>>10)
	case len(strings.Join(c.Sets, "")) > MaxYAML:
		return fmt.Errorf("begin: the set overrides are too long: at most %d KiB in all", MaxYAML>>10)
	case c.Side != "" && c.Side != "left" && c.Side != "right":
		return fmt.Errorf("begin: side %q: use left or right (or leave it out for one run)", c.Side)
	case c.HeapLimitMiB < 0 || c.HeapLimitMiB > maxHeapMiB:
		return fmt.Errorf("begin: heap_limit_mib %d: give 0 (the default) up to %d", c.HeapLimitMiB, maxHeapMiB)
	case c.Lang != "" && c.Lang != "en" && c.Lang != "zh":
		return fmt.Errorf("begin: lang %q: use en or zh", c.Lang)
	}
	return nil
}

func (c Early) check() error {
	if len(c.Query) > MaxQuery {
		return fmt.Errorf("early: the query is %d KiB: at most %d KiB", len(c.Query)>>10, MaxQuery>>10)
	}
	if c.Side != "" && c.Side != "left" && c.Side != "right" {
		return fmt.Errorf("early: side %q: use left or right (a comparison's), or leave it out for one run", c.Side)
	}
	if c.Load != nil {
		return c.Load.check()
	}
	return nil
}

func (c Cancel) check() error {
	if c.RunID < 1 {
		return fmt.Errorf("cancel needs the run_id of a begin, a whole number from 1")
	}
	return nil
}

func (c Explain) check() error {
	switch {
	case c.ID < 1:
		return fmt.Errorf("explain needs id, a whole number from 1, e.g. {\"fabriclab\": \"explain\", \"id\": 1, \"text\": \"…\"}")
	case strings.TrimSpace(c.Text) == "":
		return fmt.Errorf("explain needs text: an nccl-tests output (all_reduce_perf and the like) as it printed it")
	case len(c.Text) > MaxOutput:
		return fmt.Errorf("explain: the output is %d KiB: at most %d KiB (leave out NCCL's INFO lines but those of its topology)", len(c.Text)>>10, MaxOutput>>10)
	case len(c.Topo) > MaxTopo:
		return fmt.Errorf("explain: the topology is %d KiB: at most %d KiB (NCCL's dump of a 16-GPU node is tens of KB)", len(c.Topo)>>10, MaxTopo>>10)
	}
	return nil
}

// MaxOutput is the longest nccl-tests output explain takes from the page,
// in bytes: a 16-rank run with NCCL_DEBUG=INFO is about 100 KiB.
const MaxOutput = 1 << 20

// MaxTopo is the longest topology file explain takes from the page, in
// bytes: sim/nodefile's MaxBytes.
const MaxTopo = 1 << 20

// maxHeapMiB is WebAssembly's 4 GiB of memory.
const maxHeapMiB = 4096
