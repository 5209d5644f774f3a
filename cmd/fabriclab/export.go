package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"fabriclab/playback"
	"fabriclab/render"
	"fabriclab/sim/plan"
	"fabriclab/sim/scenario"
	"fabriclab/sim/unit"
)

const exportUsage = "fabriclab export NAME|FILE [--set key.path=value]... [--t 500us] [--format svg|png|gif] [--out FILE] [--size 1280x720] [--theme dark|light] [--lang en|zh] [--frames 60]"

// Bounds on what export makes: a picture of at most maxExportSide px a
// side, a GIF of at most maxGIFFrames frames.
const (
	maxExportSide = 8192
	minExportSide = 200
	maxGIFFrames  = 120
	// historyFrames is what the canvas's charts draw from (cmd/viz).
	historyFrames = 240
)

// exportOptions is a parsed export command line.
type exportOptions struct {
	name   string
	sets   []string
	t      unit.Time // -1: the end of the run
	tText  string
	format string // svg, png or gif
	out    string
	w, h   int
	dark   bool
	lang   render.Lang
	frames int // gif
}

// parseExport reads export's flags; errors name the flag and what works.
func parseExport(args []string, stderr io.Writer) (exportOptions, error) {
	fs := newFlags("export", exportUsage, stderr)
	var sets setFlags
	fs.Var(&sets, "set", "override a scenario key, e.g. --set traffic.senders=4 (repeatable)")
	at := fs.String("t", "", "simulated time of the picture, e.g. 500us (default: the end of the run); not with gif")
	format := fs.String("format", "", "svg, png or gif (default: from --out's extension, else svg)")
	out := fs.String("out", "", "file to write (default: NAME.FORMAT in the current directory)")
	size := fs.String("size", "", "picture size in px, WxH (default 1280x720; gif 960x540)")
	theme := fs.String("theme", "dark", "dark or light")
	lang := fs.String("lang", "en", "language of the canvas's text: en or zh")
	frames := fs.Int("frames", 60, "gif: frames over the whole run (2–120)")
	name, err := parseWithName(fs, args)
	if err != nil {
		return exportOptions{}, err
	}
	o := exportOptions{name: name, sets: sets, t: -1, tText: *at, out: *out, frames: *frames}
	o.format = strings.ToLower(*format)
	if o.format == "" {
		o.format = strings.TrimPrefix(strings.ToLower(filepath.Ext(o.out)), ".")
		if !slices.Contains([]string{"svg", "png", "gif"}, o.format) {
			o.format = "svg"
		}
	}
	if !slices.Contains([]string{"svg", "png", "gif"}, o.format) {
		return o, fmt.Errorf("--format %q: use svg, png (a picture at --t) or gif (the whole run)", *format)
	}
	if *at != "" {
		if o.format == "gif" {
			return o, fmt.Errorf("--t %s: a gif shows the whole run; drop --t, or use --format png for one moment", *at)
		}
		t, err := unit.ParseTime(*at)
		if err != nil || t < 0 {
			return o, fmt.Errorf("--t %q: give a simulated time from 0, e.g. --t 500us or --t 2.5ms", *at)
		}
		o.t = t
	}
	o.w, o.h = 1280, 720
	if o.format == "gif" {
		o.w, o.h = 960, 540
	}
	if *size != "" {
		if o.w, o.h, err = parseSize(*size); err != nil {
			return o, err
		}
	}
	switch *theme {
	case "dark", "light":
		o.dark = *theme == "dark"
	default:
		return o, fmt.Errorf("--theme %q: use dark or light", *theme)
	}
	switch *lang {
	case "en", "zh":
		o.lang = render.Lang(*lang)
	default:
		return o, fmt.Errorf("--lang %q: use en (English) or zh (Simplified Chinese)", *lang)
	}
	if o.frames < 2 || o.frames > maxGIFFrames {
		return o, fmt.Errorf("--frames %d: give 2 to %d", o.frames, maxGIFFrames)
	}
	return o, nil
}

// parseSize reads "1280x720".
func parseSize(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < minExportSide || h < minExportSide || w > maxExportSide || h > maxExportSide {
		return 0, 0, fmt.Errorf("--size %q: give WIDTHxHEIGHT in px, each %d to %d, e.g. --size 1280x720", s, minExportSide, maxExportSide)
	}
	return w, h, nil
}

func cmdExport(args []string, stdout, stderr io.Writer) error {
	o, err := parseExport(args, stderr)
	if err != nil {
		return err
	}
	// Ctrl-C (or a TERM) stops the run or the drawing at the next frame,
	// and the temporary file is removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return exportTo(ctx, o, stdout, stderr)
}

// exportTo loads the scenario and writes the export to o.out: stdout for
// "-", else a temporary file beside o.out renamed into place, so a failure or
// an interruption leaves no half file and an existing file untouched. A
// symbolic link at o.out is refused rather than replaced or written through.
func exportTo(ctx context.Context, o exportOptions, stdout, stderr io.Writer) error {
	sc, err := plan.Load(o.name, scenario.ReadFile, o.sets)
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = fileName(sc.Name) + "." + o.format
	}
	if o.out == "-" {
		note, err := export(ctx, stdout, sc, o)
		if ctx.Err() != nil {
			return errors.New("interrupted: what is on stdout is incomplete")
		}
		if note != "" {
			fmt.Fprintln(stderr, "fabriclab export: "+note)
		}
		return err
	}
	// Fail before the run when the file cannot be written.
	mode := os.FileMode(0o644)
	if st, err := os.Lstat(o.out); err == nil {
		if st.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(o.out)
			return fmt.Errorf("--out %s: is a symbolic link (to %s); export replaces files, not links: name the file itself, or remove the link", o.out, target)
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("--out %s: is not a regular file; name a file to write, e.g. --out %s.%s", o.out, fileName(sc.Name), o.format)
		}
		mode = st.Mode().Perm() // replacing a file keeps its permissions
	}
	f, err := os.CreateTemp(filepath.Dir(o.out), ".fabriclab-export-*")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write there (%v); name a file in a directory you can write", o.out, unwrapPath(err))
	}
	bw := bufio.NewWriter(f)
	note, err := export(ctx, bw, sc, o)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), o.out)
	}
	if err != nil {
		os.Remove(f.Name())
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: wrote nothing, %s is as it was", o.out)
		}
		return err
	}
	if note != "" {
		fmt.Fprintln(stderr, "fabriclab export: "+note)
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %dx%d)\n", o.out, o.format, o.w, o.h)
	return nil
}

// maxFileName bounds a default file name, before its extension, in bytes.
const maxFileName = 100

// fileName reduces a scenario's name to a file name in the current
// directory: letters and digits of any script, '-', '_' and '.' are kept,
// each run of anything else ('/', a space) becomes one '-'; leading and
// trailing dots and dashes are dropped (no "..", no hidden file, no name
// read as a flag); at most maxFileName bytes; "scenario" if nothing is left.
func fileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case unicode.IsLetter(r), unicode.IsMark(r), unicode.IsDigit(r), r == '-', r == '_', r == '.':
			b.WriteRune(r)
		case !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), ".-")
	for len(s) > maxFileName {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	if s = strings.TrimRight(s, ".-"); s == "" {
		return "scenario"
	}
	return s
}

// export runs the scenario to its end and writes the canvas: the picture at
// o.t (SVG or PNG) or the whole run (GIF). note says what was changed from
// what was asked (a --t past the end). It stops with ctx's error when ctx
// is done.
func export(ctx context.Context, w io.Writer, sc scenario.Scenario, o exportOptions) (note string, err error) {
	p, err := runToEnd(ctx, sc)
	if err != nil {
		return "", err
	}
	fr := exporter{p: p, layout: render.NewLayout(p.Topology(), float64(o.w), float64(o.h),
		render.Options{Dark: o.dark, Title: sc.Name, Lang: o.lang, Training: sc.Training.Model != "",
			SelectiveRepeat: sc.Sim.Fidelity == scenario.Packet && sc.Network.Recovery == scenario.RecoverySR})}
	if o.format == "gif" {
		return "", fr.gif(ctx, w, o)
	}
	t := o.t
	if t < 0 || t > p.End() {
		if t > p.End() {
			note = fmt.Sprintf("--t %s is past the run's end (%s): exported the end", o.tText, p.End())
		}
		t = p.End()
	}
	dl := fr.at(t)
	if o.format == "png" {
		return note, png.Encode(w, render.PNG(dl, o.w, o.h, 1))
	}
	return note, dl.SVG(w)
}

// runToEnd builds and runs the scenario in slices, stopping when ctx is done.
func runToEnd(ctx context.Context, sc scenario.Scenario) (*playback.Player, error) {
	b, err := playback.Begin(sc)
	if err != nil {
		return nil, err
	}
	for !b.Build(100 * time.Millisecond) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	p, err := b.Player()
	if err != nil {
		return nil, err
	}
	for !p.Compute(100 * time.Millisecond) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return p, p.Err()
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exporter draws a computed run's frames as the canvas does.
type exporter struct {
	p       *playback.Player
	layout  *render.Layout
	builder render.Builder
}

// at is the display list of the frame at t: what the canvas shows when
// playback is there (rates over the last twentieth of a second of playback,
// the charts up to t).
func (e *exporter) at(t unit.Time) *render.DisplayList {
	p := e.p
	p.Seek(t)
	f := render.Frame{Layout: e.layout, Cur: p.At(p.Pos()), Prev: p.At(p.Pos() - p.Speed()/20), History: p.History(historyFrames)}
	return e.builder.Scene(&f)
}

// gif writes the run as an animated GIF: frames evenly spaced from 0 to the
// end, 10 a second (the canvas plays a run in about 10 s), the last held.
// It holds one frame at a time (and the one before, for the transparency):
// the palette is counted from frames 0, the middle and the last, drawn
// first; then each frame is drawn, mapped onto it and written.
func (e *exporter) gif(ctx context.Context, w io.Writer, o exportOptions) error {
	end := e.p.End()
	at := func(i int) unit.Time { return unit.Time(float64(end) * float64(i) / float64(o.frames-1)) }
	// A second exporter goes through every frame so that each sample is
	// drawn as the animation shows it (the charts' axes grow with playback).
	count := map[uint32]int{}
	sampler := exporter{p: e.p, layout: e.layout}
	for i := range o.frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		dl := sampler.at(at(i))
		n := 0 // times frame i is a sample (of two frames, the middle is the last)
		for _, k := range []int{0, o.frames / 2, o.frames - 1} {
			if i == k {
				n++
			}
		}
		if n > 0 {
			countColours(count, render.PNG(dl, o.w, o.h, 1), n)
		}
	}
	// The last index is transparent: a frame leaves the pixels that did not
	// change since the one before as they are, which compresses far better.
	pal := append(palette(count), color.RGBA{})
	clear := uint8(len(pal) - 1)
	out := gifWriter{w: w, config: image.Config{ColorModel: pal, Width: o.w, Height: o.h}}
	bounds := image.Rect(0, 0, o.w, o.h)
	cur, prev, diff := image.NewPaletted(bounds, pal), image.NewPaletted(bounds, pal), image.NewPaletted(bounds, pal)
	for i := range o.frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		mapOnto(cur, render.PNG(e.at(at(i)), o.w, o.h, 1))
		frame := cur
		if i > 0 {
			for k, c := range cur.Pix {
				if c == prev.Pix[k] {
					c = clear
				}
				diff.Pix[k] = c
			}
			frame = diff
		}
		delay := 10
		if i == o.frames-1 {
			delay = 300
		}
		if err := out.frame(frame, delay); err != nil {
			return err
		}
		cur, prev = prev, cur
	}
	return out.close()
}

// gifWriter writes an animated GIF a frame at a time, holding one frame's
// encoding: image/gif encodes only whole animations, so each frame is
// encoded as a one-frame GIF with the same palette and its blocks (between
// the header with the colour table and the trailer) are copied. The bytes
// are gif.EncodeAll's for the same frames (DisposalNone, looping forever).
type gifWriter struct {
	w      io.Writer
	config image.Config // ColorModel is the palette every frame uses
	one    bytes.Buffer
	frames int
}

// gifLoop is the NETSCAPE2.0 extension: loop forever.
const gifLoop = "\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"

// frame writes pm, shown for delay hundredths of a second.
func (g *gifWriter) frame(pm *image.Paletted, delay int) error {
	g.one.Reset()
	one := gif.GIF{Image: []*image.Paletted{pm}, Delay: []int{delay}, Disposal: []byte{gif.DisposalNone}, Config: g.config}
	if err := gif.EncodeAll(&g.one, &one); err != nil {
		return err
	}
	b := g.one.Bytes()
	// The logical screen descriptor's packed byte gives the global colour
	// table's size: 3 << (n+1) bytes.
	head := 13 + 3<<(b[10]&7+1)
	if g.frames == 0 {
		if _, err := g.w.Write(b[:head]); err != nil {
			return err
		}
		if _, err := io.WriteString(g.w, gifLoop); err != nil {
			return err
		}
	}
	g.frames++
	_, err := g.w.Write(b[head : len(b)-1])
	return err
}

// close ends the GIF with its trailer.
func (g *gifWriter) close() error {
	_, err := g.w.Write([]byte{0x3b})
	return err
}

// countColours adds img's pixels, times n, to count, by colour.
func countColours(count map[uint32]int, img *image.RGBA, n int) {
	px := img.Pix
	for i := 0; i+3 < len(px); i += 4 {
		count[uint32(px[i])<<16|uint32(px[i+1])<<8|uint32(px[i+2])] += n
	}
}

// palette is the 255 colours most counted: the canvas draws flat fills and
// text in a few dozen colours, the rest are anti-aliased edges, which map
// to the nearest.
func palette(count map[uint32]int) color.Palette {
	cols := make([]uint32, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	slices.SortFunc(cols, func(a, b uint32) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return int(a) - int(b)
	})
	pal := color.Palette{}
	for _, c := range cols[:min(255, len(cols))] {
		pal = append(pal, color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff})
	}
	return pal
}

// mapOnto maps a picture onto dst's palette but its last (transparent)
// colour, each colour looked up once.
func mapOnto(dst *image.Paletted, img *image.RGBA) {
	opaque := dst.Palette[:len(dst.Palette)-1]
	index := map[uint32]uint8{}
	px := img.Pix
	for i, j := 0, 0; i+3 < len(px); i, j = i+4, j+1 {
		c := uint32(px[i])<<16 | uint32(px[i+1])<<8 | uint32(px[i+2])
		k, ok := index[c]
		if !ok {
			k = uint8(opaque.Index(color.RGBA{px[i], px[i+1], px[i+2], 0xff}))
			index[c] = k
		}
		dst.Pix[j] = k
	}
}
