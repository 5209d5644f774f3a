// Package nccltests reads what NVIDIA's nccl-tests print (all_reduce_perf
// and its siblings) and sets it beside what fabriclab expects of a healthy
// cluster of the same shape.
package nccltests

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Limits of one output: far above any real run.
const (
	maxLine    = 64 << 10
	maxRows    = 1000
	maxDevices = 65536
)

// Output is one run of an nccl-tests program as it printed it.
type Output struct {
	Test     string // the program less _perf ("all_reduce"), "" when the output does not say
	Version  string // nccl-tests' version line, if printed
	NThread  int
	NGpus    int
	MinBytes int64
	MaxBytes int64
	Iters    int
	Devices  []Device
	Rows     []Row
	AvgBusBw float64  // the footer's average, 0 when missing
	Info     []string // NCCL's INFO and WARN lines, as printed
}

// Device is a "# Using devices" line: one rank.
type Device struct {
	Line   int
	Rank   int
	Host   string
	Device int
	Name   string // "NVIDIA H100 80GB HBM3"
}

// Row is one size's line of the table.
type Row struct {
	Line  int
	Size  int64
	Count int64
	Type  string
	Redop string
	Root  int // -1 where nccl-tests prints it for collectives without a root
	Out   Result
	In    Result
}

// Result is one half of a row: out of place or in place.
type Result struct {
	TimeUs, AlgBw, BusBw float64
	Wrong                string // "0", or "N/A" where nccl-tests did not check
}

// dataTypes are the -d types of nccl-tests (common.cu's test_typenames).
var dataTypes = map[string]bool{"int8": true, "uint8": true, "int32": true, "uint32": true, "int64": true, "uint64": true,
	"char": true, "int": true, "half": true, "float": true, "double": true, "bfloat16": true, "f8e4m3": true, "f8e5m2": true}

var (
	mpiTag    = lazy(`\[\d+,\d+\]<std(?:out|err)>:`)
	headerRe  = lazy(`nThread\s+(\d+)\s+nGpus\s+(\d+)\s+minBytes\s+(\d+)\s+maxBytes\s+(\d+)`)
	itersRe   = lazy(`(?:^|\s)iters:\s+(\d+)`)
	deviceRe  = lazy(`^#\s*Rank\s+(\d+)\s+Group\s+\d+\s+Pid\s+\d+\s+on\s+(\S+)\s+device\s+(\d+)\s+\[[^\]]*\]\s+(.+)$`)
	startRe   = lazy(`Collective test starting:\s+(\S+)_perf`)
	avgRe     = lazy(`^#\s*Avg bus bandwidth\s*:\s*(\S+)`)
	versionRe = lazy(`^#\s*nccl-tests version\s+(.+)$`)
)

// lazy compiles a pattern on first use: nothing is allocated at the
// start of every program that links the package (cmd/fabriclab's
// TestPackageInitIsSmall).
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Parse reads an output. It keeps only what it understands and ignores
// other lines (mpirun's, kubectl's, ssh's); a result row it cannot read, a
// second run's header or an output without rows or devices is an error
// naming the line and what to do.
func Parse(r io.Reader) (*Output, error) {
	o := &Output{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	seen := map[string]bool{}
	sizes := map[int64]bool{}
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(mpiTag().ReplaceAllString(sc.Text(), " "))
		if strings.Contains(line, "NCCL INFO") || strings.Contains(line, "NCCL WARN") {
			o.Info = append(o.Info, line)
			continue
		}
		if strings.HasPrefix(line, "#") {
			if err := o.comment(n, line, seen); err != nil {
				return nil, err
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 || !isDigits(f[0]) || !isDigits(f[1]) || !dataTypes[f[2]] {
			continue // not a row (a warning, a banner, NCCL's version)
		}
		row, err := parseRow(n, f)
		if err != nil {
			return nil, err
		}
		if row.Size > 0 && sizes[row.Size] { // a second process printing the same table (size-0 rows repeat by themselves)
			continue
		}
		if len(o.Rows) == maxRows {
			return nil, fmt.Errorf("line %d: more than %d result rows: pass one run's output", n, maxRows)
		}
		sizes[row.Size] = true
		o.Rows = append(o.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w (lines longer than %d KiB are not nccl-tests output)", n+1, err, maxLine>>10)
	}
	if len(o.Rows) == 0 {
		return nil, fmt.Errorf("no result rows in %d lines: paste the whole output of an nccl-tests program, from its \"# nThread\" line to \"# Avg bus bandwidth\"", n)
	}
	if len(o.Devices) == 0 {
		return nil, fmt.Errorf("no \"# Using devices\" lines: they give the ranks and their hosts; paste the output from its \"# nThread\" line on")
	}
	return o, nil
}

// comment reads a line that starts with #.
func (o *Output) comment(n int, line string, seen map[string]bool) error {
	if m := headerRe().FindStringSubmatch(line); m != nil {
		nt, _ := strconv.Atoi(m[1])
		ng, _ := strconv.Atoi(m[2])
		lo, _ := strconv.ParseInt(m[3], 10, 64)
		hi, _ := strconv.ParseInt(m[4], 10, 64)
		if o.NGpus != 0 && (nt != o.NThread || ng != o.NGpus || lo != o.MinBytes || hi != o.MaxBytes) {
			return fmt.Errorf("line %d: a second run's header (nGpus %d minBytes %d maxBytes %d after nGpus %d minBytes %d maxBytes %d): explain reads one run; split the file", n, ng, lo, hi, o.NGpus, o.MinBytes, o.MaxBytes)
		}
		o.NThread, o.NGpus, o.MinBytes, o.MaxBytes = nt, ng, lo, hi
		if m := itersRe().FindStringSubmatch(line); m != nil {
			o.Iters, _ = strconv.Atoi(m[1])
		}
		return nil
	}
	if m := deviceRe().FindStringSubmatch(line); m != nil {
		key := m[2] + "/" + m[3]
		if seen[key] { // the same device listed again (a doubled header)
			return nil
		}
		if len(o.Devices) == maxDevices {
			return fmt.Errorf("line %d: more than %d devices", n, maxDevices)
		}
		seen[key] = true
		rank, _ := strconv.Atoi(m[1])
		dev, _ := strconv.Atoi(m[3])
		o.Devices = append(o.Devices, Device{Line: n, Rank: rank, Host: m[2], Device: dev, Name: strings.TrimSpace(m[4])})
		return nil
	}
	if m := startRe().FindStringSubmatch(line); m != nil {
		o.Test = m[1]
	} else if m := avgRe().FindStringSubmatch(line); m != nil {
		o.AvgBusBw, _ = strconv.ParseFloat(m[1], 64)
	} else if m := versionRe().FindStringSubmatch(line); m != nil {
		o.Version = strings.TrimSpace(m[1])
	}
	return nil
}

// parseRow reads a result row: size, count, type, redop, root (since
// nccl-tests 2.10), then time, algbw, busbw and #wrong out of place and in
// place (#wrong is "error", a float, in older versions).
func parseRow(n int, f []string) (Row, error) {
	const want = "size, count, type, redop, root, then time, algbw, busbw and #wrong out of place and in place"
	var r Row
	switch len(f) {
	case 13:
	case 12: // before root was a column
		f = append(f[:4:4], append([]string{"-1"}, f[4:]...)...)
	default:
		return r, fmt.Errorf("line %d: a result row of %d columns, where nccl-tests prints 13 (%s): is the output cut short?", n, len(f), want)
	}
	var err error
	num := func(i int, what string) float64 {
		v, e := strconv.ParseFloat(f[i], 64)
		if e != nil || v < 0 || v > 1e15 {
			if err == nil {
				err = fmt.Errorf("line %d: column %d (%s) is %q, not a number nccl-tests prints (%s)", n, i+1, what, f[i], want)
			}
		}
		return v
	}
	r.Line = n
	r.Size = int64(num(0, "size"))
	r.Count = int64(num(1, "count"))
	r.Type, r.Redop = f[2], f[3]
	root, e := strconv.Atoi(f[4])
	if e != nil && err == nil {
		err = fmt.Errorf("line %d: column 5 (root) is %q, not a whole number (%s)", n, f[4], want)
	}
	r.Root = root
	half := func(i int) Result {
		return Result{TimeUs: num(i, "time"), AlgBw: num(i+1, "algbw"), BusBw: num(i+2, "busbw"), Wrong: f[i+3]}
	}
	r.Out, r.In = half(5), half(9)
	return r, err
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
