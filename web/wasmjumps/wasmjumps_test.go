package wasmjumps

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is a WebAssembly module of one type, (i32) → i32, and the given
// function bodies (each its locals and code, without the size).
func module(bodies ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	sec := func(id byte, b []byte) {
		m = append(m, id)
		m = appendU32(m, uint32(len(b)))
		m = append(m, b...)
	}
	sec(1, []byte{1, 0x60, 1, 0x7f, 1, 0x7f})
	funcs := appendU32(nil, uint32(len(bodies)))
	code := appendU32(nil, uint32(len(bodies)))
	for _, b := range bodies {
		funcs = append(funcs, 0)
		code = appendU32(code, uint32(len(b)))
		code = append(code, b...)
	}
	sec(3, funcs)
	sec(10, code)
	return m
}

// codeOf is the body of the module's only function.
func codeOf(t *testing.T, m []byte) []byte {
	t.Helper()
	r := &rd{b: m, i: 8}
	for r.i < len(m) {
		id, size := r.byte(), int(r.u32())
		if id == 10 {
			c := &rd{b: m[r.i : r.i+size]}
			require.Equal(t, uint32(1), c.u32())
			n := int(c.u32())
			return c.b[c.i : c.i+n]
		}
		r.i += size
	}
	t.Fatal("no code section")
	return nil
}

const (
	block = 0x02
	loop  = 0x03
	end   = 0x0b
	br    = 0x0c
	brIf  = 0x0d
	table = 0x0e
	get   = 0x20
	set   = 0x21
	i32   = 0x41
	empty = 0x40
	drop  = 0x1a
)

// Go's shape: segment 0 jumps forward to segment 3; segment 2 jumps back
// to segment 1, which falls through into it, and may unwind.
var goShape = []byte{
	1, 1, 0x7f, // a local
	block, empty, // the unwinding exit
	loop, empty,
	block, empty, block, empty, block, empty, block, empty,
	get, 0, table, 4, 0, 1, 2, 3, 3, end,
	/* segment 0 */ i32, 3, set, 0, br, 3, end,
	/* segment 1 */ i32, 7, drop, end,
	/* segment 2 */ get, 1, brIf, 2, i32, 1, set, 0, br, 1, end,
	/* segment 3 */ i32, 5, drop,
	end,       // the dispatch loop
	0x00, end, // unreachable
	i32, 1, end,
}

func TestRewriteMakesJumpsForwardDirect(t *testing.T) {
	out, st, err := Rewrite(module(goShape))
	require.NoError(t, err)
	assert.Equal(t, Stats{Funcs: 1, Rewritten: 1, Forward: 1, Dispatch: 1}, st)
	want := append([]byte{}, goShape[:25]...)
	want = append(want, br, 2, end) // segment 0: forward, to segment 3's block
	want = append(want, goShape[32:]...)
	require.Equal(t, []byte{i32, 3, set, 0, br, 3, end}, goShape[25:32])
	assert.Equal(t, want, codeOf(t, out))
}

func TestRewriteLoopsMakesJumpsBackDirect(t *testing.T) {
	out, st, err := RewriteLoops(module(goShape))
	require.NoError(t, err)
	assert.Equal(t, Stats{Funcs: 1, Rewritten: 1, Forward: 1, Loops: 1}, st)
	want := []byte{
		2, 1, 0x7f, 1, 0x7f, // rp, a local of its own
		get, 0, set, 2,
		block, empty,
		loop, empty,
		block, empty, block, empty, // before segment 3, before the loop
		block, empty, get, 2, table, 4, 0, 1, 1, 2, 2, end, // pcs 1 and 2 are in the loop
		i32, 0, set, 2, br, 1, end, // segment 0: forward, to segment 3's block
		loop, empty, // segments 1 and 2
		block, empty, // before segment 2
		block, empty, get, 2, 0x45, brIf, 0, // rp 0: the loop's head
		get, 2, i32, 1, 0x6b, table, 2, 0, 1, 0, end,
		i32, 0, set, 2, i32, 7, drop, end, // segment 1
		i32, 0, set, 2, get, 1, brIf, 3, br, 0, // segment 2: back, to its loop
		end, // its loop
		end,
		i32, 0, set, 2, i32, 5, drop, // segment 3
		end, // the dispatch loop
		0x00, end,
		i32, 1, end,
	}
	assert.Equal(t, want, codeOf(t, out))
}

func TestRewriteLeavesOtherShapes(t *testing.T) {
	plain := []byte{0, i32, 1, end} // no dispatch loop
	readsPC := append([]byte{}, goShape...)
	readsPC[37] = 0 // segment 2 reads PC_B: not Go's shape
	require.Equal(t, []byte{get, 0, brIf, 2}, readsPC[36:40])
	for _, body := range [][]byte{plain, readsPC} {
		in := module(body)
		out, st, err := Rewrite(in)
		require.NoError(t, err)
		assert.Equal(t, in, out)
		assert.Equal(t, Stats{Funcs: 1}, st)
	}
	_, _, err := Rewrite([]byte("\x00asm\x01\x00\x00\x00\x0a\x05"))
	assert.Error(t, err)
	_, _, err = Rewrite([]byte("not wasm"))
	assert.Error(t, err)
}

// TestRewriteRunsGoPrograms runs a Go program (testdata/prog: loops,
// goroutine switches mid-loop, panics, calls through func values) as
// built and as rewritten both ways under Node: the outputs must agree.
func TestRewriteRunsGoPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program for WebAssembly")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the rewritten program cannot run")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	execJS := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	dir := t.TempDir()
	built := filepath.Join(dir, "prog.wasm")
	cmd := exec.Command("go", "build", "-o", built, "./testdata/prog")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, string(b))
	in, err := os.ReadFile(built)
	require.NoError(t, err)
	run := func(wasm string) string {
		b, err := exec.Command(node, "--stack-size=8192", execJS, wasm).CombinedOutput()
		require.NoError(t, err, string(b))
		return string(b)
	}
	want := run(built)
	require.Contains(t, want, "357252 1030 17406143771146572168")

	out, st, err := Rewrite(in)
	require.NoError(t, err)
	assert.Greater(t, st.Rewritten, st.Funcs/2)
	assert.Greater(t, st.Forward, 1000)
	rewritten := filepath.Join(dir, "rewritten.wasm")
	require.NoError(t, os.WriteFile(rewritten, out, 0o644))
	assert.Equal(t, want, run(rewritten))

	out, st, err = RewriteLoops(in)
	require.NoError(t, err)
	assert.Greater(t, st.Loops, 100)
	require.NoError(t, os.WriteFile(rewritten, out, 0o644))
	assert.Equal(t, want, run(rewritten))
}
