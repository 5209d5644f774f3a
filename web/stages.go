package web

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// stages prints the site build's progress: a line as each stage starts and
// ends, and while one runs a line every tick (a cold first compile takes
// minutes and says nothing), so that the build never looks hung.
type stages struct {
	log   io.Writer
	total int           // how many stages the build has
	tick  time.Duration // between "still …" lines
	n     int           // the stage running
	mu    sync.Mutex    // the ticker's lines and the stage's own
}

func newStages(log io.Writer, total int) *stages {
	return &stages{log: log, total: total, tick: 15 * time.Second}
}

// printf writes one line, prefixed with the stage's number.
func (s *stages) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.log, "[%d/%d] "+format+"\n", append([]any{s.n, s.total}, args...)...)
}

// run runs stage name (what it does, "compiling WebAssembly"), which returns
// what it made ("viz.wasm 8.4 MiB"); it prints when it starts (with note, if
// any, in brackets) and ends, and "still …" each tick in between.
func (s *stages) run(name, note string, f func() (string, error)) error {
	s.n++
	if note != "" {
		note = " (" + note + ")"
	}
	s.printf("%s%s …", name, note)
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(s.tick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				s.printf("still %s (%.0f s)", name, time.Since(start).Seconds())
			}
		}
	})
	made, err := f()
	close(stop)
	wg.Wait()
	if err != nil {
		s.printf("%s failed after %.1f s", name, time.Since(start).Seconds())
		return err
	}
	s.printf("%s: %s (%.1f s)", name, made, time.Since(start).Seconds())
	return nil
}

// share reports a stage's progress in tenths: report(done, total) prints a
// line each time done passes another tenth of total.
func (s *stages) share(what string) func(done, total int64) {
	last := int64(0)
	return func(done, total int64) {
		if total <= 0 {
			return
		}
		if tenth := 10 * done / total; tenth > last {
			last = tenth
			s.printf("%s %d %%", what, 10*tenth)
		}
	}
}
