// A program whose output depends on loops, jumps, goroutine switches inside
// loops (frames unwound and resumed mid-loop), panics, defers and calls
// through func values and interfaces: run as built and as rewritten, the
// two outputs must agree.
package main

import (
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"time"
)

type shape interface{ area() float64 }

type rect struct{ w, h float64 }
type circle struct{ r float64 }

func (r rect) area() float64   { return r.w * r.h }
func (c circle) area() float64 { return 3 * c.r * c.r }

// collatz has a loop with a jump back and branches forward inside it.
func collatz(n int) int {
	steps := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return steps
}

// nested has loops in loops, with continue and break to the outer one.
func nested(n int) int {
	s := 0
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case (i+j)%7 == 0:
				continue outer
			case i*j > 3*n:
				break outer
			case j%3 == 0:
				continue
			}
			s += i ^ j
		}
		s++
	}
	return s
}

// pingPong switches goroutines at every step of its loop: each receive
// unwinds this frame and resumes it in the middle of the loop.
func pingPong(n int) int {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for v := range ping {
			pong <- v * 2
		}
		close(pong)
	}()
	sum := 0
	for i := 0; i < n; i++ {
		if i%5 == 3 {
			time.Sleep(time.Microsecond) // a pause of the event loop mid-loop
		}
		ping <- i
		sum += <-pong
		for j := 0; j < i%4; j++ {
			sum += j
		}
	}
	close(ping)
	return sum
}

// recovered panics inside a loop and recovers in a deferred call.
func recovered(n int) (caught int) {
	for i := 0; i < n; i++ {
		func() {
			defer func() {
				if r := recover(); r != nil {
					caught++
				}
			}()
			if i%3 == 0 {
				var a []int
				_ = a[i] // index out of range
			}
			if i%3 == 1 {
				panic(errors.New("odd"))
			}
		}()
	}
	return caught
}

func main() {
	var out strings.Builder
	for n := 1; n < 300; n++ {
		fmt.Fprint(&out, collatz(n), " ")
	}
	fmt.Fprintln(&out, nested(40), pingPong(200), recovered(50))

	shapes := []shape{}
	for i := range 100 {
		if i%2 == 0 {
			shapes = append(shapes, rect{float64(i), float64(i%7 + 1)})
		} else {
			shapes = append(shapes, circle{float64(i % 13)})
		}
	}
	sort.Slice(shapes, func(a, b int) bool { return shapes[a].area() < shapes[b].area() })
	for _, s := range shapes[:10] {
		fmt.Fprintf(&out, "%.1f ", s.area())
	}
	m := map[string]int{}
	for i := range 1000 {
		m[fmt.Sprint(i%97)] += i
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys[:5] {
		fmt.Fprint(&out, k, "=", m[k], " ")
	}
	done := make(chan int)
	for g := range 4 {
		go func() {
			s := 0
			for i := range 1000 {
				s += collatz(i+1) * g
				if i%100 == 0 {
					time.Sleep(0)
				}
			}
			done <- s
		}()
	}
	total := 0
	for range 4 {
		total += <-done
	}
	h := fnv.New64a()
	h.Write([]byte(out.String()))
	fmt.Println(total, len(out.String()), h.Sum64())
	fmt.Println(out.String()[:80])
}
