package render

import (
	"bufio"
	"fmt"
	"html"
	"image/color"
	"io"
	"strconv"

	"fabriclab/assets"
)

// SVG writes the display list as a standalone SVG document, text as <text>.
func (dl *DisplayList) SVG(w io.Writer) error {
	bw := bufio.NewWriter(w)
	f := func(v float32) string { return strconv.FormatFloat(float64(v), 'f', 1, 32) }
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="%s">`+"\n",
		f(dl.W), f(dl.H), f(dl.W), f(dl.H), html.EscapeString(assets.FontFamily))
	for i := range dl.Prims {
		p := &dl.Prims[i]
		switch p.Kind {
		case KindRect:
			fmt.Fprintf(bw, `<rect x="%s" y="%s" width="%s" height="%s"`, f(p.X), f(p.Y), f(p.W), f(p.H))
			if p.R > 0 {
				fmt.Fprintf(bw, ` rx="%s"`, f(p.R))
			}
			paint(bw, p, f)
		case KindCircle:
			fmt.Fprintf(bw, `<circle cx="%s" cy="%s" r="%s"`, f(p.X), f(p.Y), f(p.R))
			paint(bw, p, f)
		case KindLine:
			fmt.Fprintf(bw, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s stroke-width="%s"/>`+"\n",
				f(p.X), f(p.Y), f(p.W), f(p.H), hex(p.Stroke), opacity("stroke", p.Stroke), f(p.Width))
		case KindPolyline:
			bw.WriteString(`<polyline points="`)
			pts := dl.Pts(p)
			for k := 0; k+1 < len(pts); k += 2 {
				if k > 0 {
					bw.WriteByte(' ')
				}
				bw.WriteString(f(pts[k]) + "," + f(pts[k+1]))
			}
			fmt.Fprintf(bw, `" fill="none" stroke="%s"%s stroke-width="%s" stroke-linejoin="round"/>`+"\n",
				hex(p.Stroke), opacity("stroke", p.Stroke), f(p.Width))
		case KindText:
			anchor := [...]string{"start", "middle", "end"}[p.Anchor]
			weight := [...]string{"400", "500", "700"}[p.Weight]
			base := p.Y + float32(CapHeight(float64(p.Size)))/2
			fmt.Fprintf(bw, `<text x="%s" y="%s" font-size="%s" font-weight="%s" text-anchor="%s" fill="%s"%s>%s</text>`+"\n",
				f(p.X), f(base), f(p.Size), weight, anchor, hex(p.Fill), opacity("fill", p.Fill), html.EscapeString(p.Str))
		}
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

func paint(w *bufio.Writer, p *Prim, f func(float32) string) {
	if p.Fill.A > 0 {
		fmt.Fprintf(w, ` fill="%s"%s`, hex(p.Fill), opacity("fill", p.Fill))
	} else {
		w.WriteString(` fill="none"`)
	}
	if p.Stroke.A > 0 && p.Width > 0 {
		fmt.Fprintf(w, ` stroke="%s"%s stroke-width="%s"`, hex(p.Stroke), opacity("stroke", p.Stroke), f(p.Width))
	}
	w.WriteString("/>\n")
}

// hex writes a colour's straight (not premultiplied) RGB.
func hex(c color.RGBA) string {
	if c.A > 0 && c.A < 255 {
		un := func(v uint8) uint8 { return uint8(min(255, int(v)*255/int(c.A))) }
		c = color.RGBA{un(c.R), un(c.G), un(c.B), c.A}
	}
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

func opacity(attr string, c color.RGBA) string {
	if c.A == 255 {
		return ""
	}
	return fmt.Sprintf(` %s-opacity="%.3f"`, attr, float64(c.A)/255)
}
