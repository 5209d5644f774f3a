package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserFrames measures, for BENCHMARKS.md ("Issue 15 frames",
// "Canvas frames"), the canvas's frames while a computed scenario plays at
// 1280×720: the intervals between requestAnimationFrame callbacks (the
// page's frames), between new pictures (the stats event) and the CPU time
// the browser's GPU process and renderer spent a frame (read from /proc,
// Linux only), which depends less on the machine's load than the intervals
// do. It asserts nothing about speed. Run it with FABRICLAB_BROWSER_BENCH=1;
// FABRICLAB_BENCH_ONLY takes a comma-separated list of scenarios.
//
// To compare builds back to back, FABRICLAB_BENCH_SITES takes
// comma-separated name=dir pairs (sites made by `fabriclab build --fast`),
// and FABRICLAB_BENCH_ROUNDS how many times to measure each in turn; the
// test then prints the medians of each build.
func TestBrowserFrames(t *testing.T) {
	names := benchScenarios(t, "incast", "ecmp-collisions")
	type site struct{ name, dir string }
	sites := []site{{"this", ""}}
	if s := os.Getenv("FABRICLAB_BENCH_SITES"); s != "" {
		sites = nil
		for _, kv := range strings.Split(s, ",") {
			name, dir, ok := strings.Cut(kv, "=")
			require.True(t, ok, "FABRICLAB_BENCH_SITES=%s: write name=dir,name=dir", s)
			sites = append(sites, site{name, dir})
		}
	}
	rounds := 1
	if r := os.Getenv("FABRICLAB_BENCH_ROUNDS"); r != "" {
		var err error
		rounds, err = strconv.Atoi(r)
		require.NoError(t, err, "FABRICLAB_BENCH_ROUNDS=%s: write a number of rounds", r)
	}
	all := map[string][]frameFigures{}
	for round := 0; round < rounds; round++ {
		for _, name := range names {
			for _, s := range sites {
				// A subtest, so that its browser is closed before the next
				// one is measured (a tab left open goes on playing).
				t.Run(fmt.Sprintf("%s/%s/%d", s.name, name, round), func(t *testing.T) {
					var ctx context.Context
					var base string
					if s.dir == "" {
						ctx, base, _ = browser(t)
					} else {
						ctx, base, _ = browserAt(t, s.dir)
					}
					f := measureFrames(t, ctx, base, name)
					fmt.Printf("%s %s\n", s.name, f)
					all[s.name+" "+name] = append(all[s.name+" "+name], f)
				})
			}
		}
	}
	if rounds > 1 || len(sites) > 1 {
		for _, name := range names {
			for _, s := range sites {
				fs := all[s.name+" "+name]
				med := func(v func(frameFigures) float64) float64 {
					x := make([]float64, len(fs))
					for i, f := range fs {
						x[i] = v(f)
					}
					slices.Sort(x)
					return x[len(x)/2]
				}
				fmt.Printf("median of %d: %s %s: page frames p50 %.0f, p95 %.0f, max %.0f ms; pictures p50 %.0f, p95 %.0f ms; Go %.1f ms; CPU a frame: GPU process %.1f ms, renderer %.1f ms\n",
					len(fs), s.name, name, med(func(f frameFigures) float64 { return f.p50 }), med(func(f frameFigures) float64 { return f.p95 }),
					med(func(f frameFigures) float64 { return f.max }), med(func(f frameFigures) float64 { return f.stats["interval_p50_ms"] }),
					med(func(f frameFigures) float64 { return f.stats["interval_p95_ms"] }), med(func(f frameFigures) float64 { return f.stats["draw_p50_ms"] }),
					med(func(f frameFigures) float64 { return f.gpu }), med(func(f frameFigures) float64 { return f.renderer }))
			}
		}
	}
}

// frameFigures are what measureFrames found.
type frameFigures struct {
	name          string
	load          string
	frames        int
	secs          float64 // from the first page frame to the last
	p50, p95, max float64 // page frame intervals, ms
	gpu, renderer float64 // CPU ms a page frame
	stats         map[string]float64
}

func (f frameFigures) String() string {
	s := f.stats
	return fmt.Sprintf("%s 1280x720 playing (load %s): %d page frames in %.1f s, interval p50 %.0f ms, p95 %.0f ms, max %.0f ms; %.0f pictures: interval p50 %.0f ms, p95 %.0f ms, max %.0f ms, Go builds and draws one in p50 %.1f ms; CPU a page frame: GPU process %.1f ms, renderer %.1f ms",
		f.name, f.load, f.frames, f.secs, f.p50, f.p95, f.max, s["frames"], s["interval_p50_ms"], s["interval_p95_ms"], s["interval_max_ms"], s["draw_p50_ms"], f.gpu, f.renderer)
}

// frameCount is how many page frames measureFrames watches playback for
// (8 s at 60 a second).
const frameCount = 480

// measureFrames opens scenario name playing in the embed on the site at
// base, waits until it is computed and measures frameCount page frames of playback.
func measureFrames(t *testing.T, ctx context.Context, base, name string) frameFigures {
	scenario, fragment, _ := strings.Cut(name, "#")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(base+"/embed.html?scenario="+scenario+"&play=1#"+fragment)))
	// Computed to the end (playback loops through what is computed), then measured.
	poll(t, ctx, `window.fabriclabFirstFrameMs > 0 && document.getElementById('computing').hidden`, 3*time.Minute)
	eval[bool](t, ctx, `window.fabriclabRAF = []; (function f(t) { fabriclabRAF.push(t); requestAnimationFrame(f) })(performance.now());
		window.fabriclabCommand(JSON.stringify({fabriclab: "stats"})), true`)
	pid := chromedp.FromContext(ctx).Browser.Process().Pid
	cpu0 := browserCPU(pid)
	animationFrames(t, ctx, "window", frameCount)
	cpu1 := browserCPU(pid)
	raf := eval[[]float64](t, ctx, `fabriclabRAF`)
	eval[bool](t, ctx, `delete window.fabriclabStats; window.fabriclabCommand(JSON.stringify({fabriclab: "stats"})), true`)
	poll(t, ctx, `window.fabriclabStats !== undefined`, 30*time.Second)
	s := eval[map[string]float64](t, ctx, `(({fabriclab, workers, ...rest}) => rest)(fabriclabStats)`)
	var iv []float64
	for i := 1; i < len(raf); i++ {
		iv = append(iv, raf[i]-raf[i-1])
	}
	slices.Sort(iv)
	q := func(f float64) float64 {
		if len(iv) == 0 {
			return 0
		}
		return iv[min(len(iv)-1, int(f*float64(len(iv))))]
	}
	frames := max(1, float64(len(iv)))
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	keep(t, "frames-"+name+".png", shot)
	return frameFigures{name: name, load: loadAverage(), frames: len(iv), secs: (raf[len(raf)-1] - raf[0]) / 1000, p50: q(0.5), p95: q(0.95), max: q(1),
		gpu: (cpu1["gpu-process"] - cpu0["gpu-process"]) / frames, renderer: (cpu1["renderer"] - cpu0["renderer"]) / frames, stats: s}
}

// browserCPU is the CPU time, in ms, that the browser with process id root
// and its child processes have used, by process type (--type=gpu-process,
// renderer; "browser" for the main process); empty where /proc is missing.
func browserCPU(root int) map[string]float64 {
	type proc struct {
		ppid int
		typ  string
		ms   float64
	}
	procs := map[int]proc{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err1 := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		cmd, err2 := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		i := strings.LastIndexByte(string(stat), ')')
		if err1 != nil || err2 != nil || i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:])) // state ppid … utime stime (fields 4, 14, 15 of stat)
		if len(f) < 13 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		user, _ := strconv.ParseFloat(f[11], 64)
		sys, _ := strconv.ParseFloat(f[12], 64)
		p := proc{ppid: ppid, typ: "browser", ms: (user + sys) * 10} // USER_HZ is 100 on Linux
		// Chromium rewrites its command line into one space-separated string.
		for _, a := range strings.FieldsFunc(string(cmd), func(r rune) bool { return r == 0 || r == ' ' }) {
			if t, ok := strings.CutPrefix(a, "--type="); ok {
				p.typ = t
			}
		}
		procs[pid] = p
	}
	out := map[string]float64{}
	for pid, p := range procs {
		for q, depth := pid, 0; depth < 8; depth++ {
			if q == root {
				out[p.typ] += p.ms
				break
			}
			parent, ok := procs[q]
			if !ok {
				break
			}
			q = parent.ppid
		}
	}
	return out
}

// loadAverage is the machine's one-minute load average, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
