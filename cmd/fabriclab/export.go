package main

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"fabriclab/cmd/internal/cmdline"
	"fabriclab/cmd/viz/player"
	"fabriclab/render"
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
	fs := cmdline.Flags("export", exportUsage, stderr)
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
	sc, err := scenario.Load(o.name, scenario.ReadFile, o.sets)
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = sc.Name + "." + o.format
	}
	if o.out == "-" {
		note, err := export(stdout, sc, o)
		if note != "" {
			fmt.Fprintln(stderr, "fabriclab export: "+note)
		}
		return err
	}
	// Fail before the run when the file cannot be written; write a
	// temporary file beside it and rename, so a failure leaves no half file
	// (and an existing file untouched).
	if st, err := os.Stat(o.out); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("--out %s: is not a regular file; name a file to write, e.g. --out %s.%s", o.out, sc.Name, o.format)
	}
	f, err := os.CreateTemp(filepath.Dir(o.out), ".fabriclab-export-*")
	if err != nil {
		return fmt.Errorf("--out %s: cannot write there (%v); name a file in a directory you can write", o.out, unwrapPath(err))
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(o.out); err == nil {
		mode = st.Mode().Perm() // replacing a file keeps its permissions
	}
	bw := bufio.NewWriter(f)
	note, err := export(bw, sc, o)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), o.out)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	if note != "" {
		fmt.Fprintln(stderr, "fabriclab export: "+note)
	}
	fmt.Fprintf(stdout, "wrote %s (%s, %dx%d)\n", o.out, o.format, o.w, o.h)
	return nil
}

// export runs the scenario to its end and writes the canvas: the picture at
// o.t (SVG or PNG) or the whole run (GIF). note says what was changed from
// what was asked (a --t past the end).
func export(w io.Writer, sc scenario.Scenario, o exportOptions) (note string, err error) {
	p, err := player.New(sc)
	if err != nil {
		return "", err
	}
	for !p.Compute(time.Second) {
	}
	if err := p.Err(); err != nil {
		return "", err
	}
	fr := exporter{p: p, layout: render.NewLayout(p.Topology(), float64(o.w), float64(o.h),
		render.Options{Dark: o.dark, Title: sc.Name, Lang: o.lang, Training: sc.Training.Model != ""})}
	if o.format == "gif" {
		return "", fr.gif(w, o)
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
	p       *player.Player
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
func (e *exporter) gif(w io.Writer, o exportOptions) error {
	end := e.p.End()
	pics := make([]*image.RGBA, o.frames)
	for i := range pics {
		t := unit.Time(float64(end) * float64(i) / float64(o.frames-1))
		pics[i] = render.PNG(e.at(t), o.w, o.h, 1)
	}
	pal := palette(pics[0], pics[len(pics)/2], pics[len(pics)-1])
	// The last index is transparent: a frame leaves the pixels that did not
	// change since the one before as they are, which compresses far better.
	pal = append(pal, color.RGBA{})
	clear := uint8(len(pal) - 1)
	anim := &gif.GIF{Config: image.Config{ColorModel: pal, Width: o.w, Height: o.h}}
	var prev *image.Paletted
	for i, pic := range pics {
		cur := paletted(pic, pal)
		pics[i] = nil
		frame := cur
		if prev != nil {
			frame = image.NewPaletted(cur.Bounds(), pal)
			for k, c := range cur.Pix {
				if c == prev.Pix[k] {
					c = clear
				}
				frame.Pix[k] = c
			}
		}
		prev = cur
		anim.Image = append(anim.Image, frame)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		delay := 10
		if i == len(pics)-1 {
			delay = 300
		}
		anim.Delay = append(anim.Delay, delay)
	}
	return gif.EncodeAll(w, anim)
}

// palette is the 255 colours that cover most of the sample pictures: the
// canvas draws flat fills and text in a few dozen colours, the rest are
// anti-aliased edges, which map to the nearest.
func palette(samples ...*image.RGBA) color.Palette {
	count := map[uint32]int{}
	for _, img := range samples {
		px := img.Pix
		for i := 0; i+3 < len(px); i += 4 {
			count[uint32(px[i])<<16|uint32(px[i+1])<<8|uint32(px[i+2])]++
		}
	}
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

// paletted maps a picture onto pal but its last (transparent) colour, each
// colour looked up once.
func paletted(img *image.RGBA, pal color.Palette) *image.Paletted {
	out := image.NewPaletted(img.Bounds(), pal)
	opaque := pal[:len(pal)-1]
	index := map[uint32]uint8{}
	px := img.Pix
	for i, j := 0, 0; i+3 < len(px); i, j = i+4, j+1 {
		c := uint32(px[i])<<16 | uint32(px[i+1])<<8 | uint32(px[i+2])
		k, ok := index[c]
		if !ok {
			k = uint8(opaque.Index(color.RGBA{px[i], px[i+1], px[i+2], 0xff}))
			index[c] = k
		}
		out.Pix[j] = k
	}
	return out
}
