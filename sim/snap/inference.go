package snap

// Inference is an inference service's requests at the snapshot's Time, by
// where each one is (sim/infer).
type Inference struct {
	Arrived    int // requests that have arrived, of Requests
	Requests   int
	Queued     int // waiting for a prefill GPU
	Prefilling int
	Sending    int // their KV cache on its way to a decode GPU
	Decoding   int // on a decode GPU, running or waiting for a place in its batch
	Done       int
	Tokens     int64 // output tokens made so far
	// TTFTP50 is the median time to first token of the requests that have
	// one (0 before any has).
	TTFTP50 float64 // µs
	KVBytes int64   // one request's KV cache
}
