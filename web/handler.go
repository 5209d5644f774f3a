// Package web is the site around the canvas: the lesson and embed pages, their
// styles and scripts, the build that writes a static site, and the HTTP
// handler that serves it.
//
// The build (BuildSite, Site, Write): viz.wasm is cmd/viz compiled with
// vizBuildFlags (-trimpath -tags=webfonts, no symbols or DWARF). With the
// webfonts tag the fonts are not linked in: they are files of the site
// (static/fonts), which embed.js fetches while the WebAssembly compiles and
// hands to the program as globalThis.fabriclabFonts (assets/fontdata_web.go);
// everything else (the desktop window, fabriclab export, the tests) links
// them in. Every text, font and WebAssembly file gets .gz and .br twins
// (Compress): brotli 9 for serve's quick build, quality 11 with a 16 MiB
// window for a release build (fabriclab build), about a minute more for
// viz.wasm.
//
// The pages' words (Site, build.go) come from the catalogue, package i18n:
// a lesson or index page is rendered in its language ({{t "key"}} in the
// templates); embed.html is English and carries the embed.* and editor.*
// words of both languages as JSON, from which embed.js puts in the Chinese
// ones for lang=zh (elements marked data-t, data-t-title, data-t-label) and
// both scripts take their messages (t("key", ...)).
//
// Writing a site (Write, output.go): a directory is written only if it is
// missing, empty or carries the Marker of an earlier build; the marker lists
// what was written and says "complete" only once everything is. Each file is
// created exclusively as a dot file beside its name and renamed into place,
// so a link at the name is replaced, never written through, and a server
// running over the site hands out the old file or the new.
//
// Serving (OpenDir, Handler, Server, Listener): the site is opened through
// os.Root, so nothing outside it is reachable; files are streamed with
// http.ServeContent (byteRanges mends its RFC 9110 corners), the compressed
// twin the client accepts chosen per request, one ETag per encoding; assets
// asked for with the build's ?v= hash are immutable. DefaultLimits holds the
// per-client and per-connection caps the README lists.
package web

import (
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// contentTypes covers what the site serves; the platform's MIME table is not
// relied on (it varies, and may lack application/wasm).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".yaml": "text/yaml; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".ico":  "image/x-icon",
	".ttf":  "font/ttf",
	".otf":  "font/otf",
}

// ContentType is the MIME type served for a file name.
func ContentType(name string) string {
	ext := path.Ext(name)
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Content security policies. No page has an inline script, style or event
// handler, and nothing is loaded from another origin.
const (
	// pageCSP is for the index and the lesson pages: they may only be framed
	// by the site itself, and frame only the site's canvas. A lesson compiles
	// the canvas's WebAssembly for its frame ('wasm-unsafe-eval', as
	// embedCSP; static/modules.js) and starts its first run's worker, from a
	// blob: URL (static/worker-client.js): both start before the frame's page does.
	pageCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"worker-src blob:; frame-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'self'"
	// embedCSP is for embed.html: it compiles the WebAssembly
	// ('wasm-unsafe-eval' allows WebAssembly and nothing else of eval), and any
	// page may frame it, so it has no frame-ancestors: "frame-ancestors *"
	// would still shut out documents opened from file: and sandboxed frames.
	// Its Web Workers are made from blob: URLs (worker-client.js: a sandboxed
	// frame's opaque origin may not start one from the site's URL); they
	// inherit this policy.
	embedCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"worker-src blob:; form-action 'none'; base-uri 'none'; object-src 'none'"
	// explainCSP is for the explain pages: like the index, and the
	// simulation's Web Worker, made from a blob: URL as the canvas's are
	// (worker-client.js), whose WebAssembly the page compiles.
	explainCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"worker-src blob:; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'self'"
	// assetCSP is for every other file, should one be opened as a document
	// (an SVG could otherwise run script as the site).
	assetCSP = "default-src 'none'"
)

// Cache-Control values. HTML names no version, so it is revalidated on every
// visit (a 304 when unchanged); an asset requested with the site's current
// ?v=version is that version's content for good.
const (
	revalidate = "no-cache"
	immutable  = "public, max-age=31536000, immutable"
)

// Handler serves a built site. Files are streamed from site, never read
// whole (give it OpenDir's FS to keep every path inside the site's
// directory), and answer range and conditional requests (ETag from size and
// modification time, Last-Modified; ranges as RFC 9110 has them, see
// byteRanges). The site takes no request body: a request that announces one
// is answered at once and its connection closed. A request for /x.wasm is answered from
// /x.wasm.br or /x.wasm.gz when the client accepts that encoding and the file
// exists, with the original file's content type. Only an asset asked for
// with the site's current ?v= is cached as immutable. Every response carries
// a content security policy, nosniff and no-referrer; the pages but
// embed.html, which any page may frame, refuse other origins' frames.
func Handler(site fs.FS) http.Handler {
	version := &versionCache{site: site}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if r.ContentLength != 0 {
			// The site takes no request body: closing after the answer
			// spares the server waiting (up to the read timeout) to drain one.
			h.Set("Connection", "close")
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" || strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") || hidden(name) {
			http.NotFound(w, r) // compressed twins are served only by negotiation; the build's marker not at all
			return
		}
		f, st, ok := openFile(site, name)
		if !ok {
			http.NotFound(w, r)
			return
		}

		h.Set("Content-Type", ContentType(name))
		h.Add("Vary", "Accept-Encoding")
		switch {
		case name == "embed.html":
			h.Set("Content-Security-Policy", embedCSP)
		case strings.HasPrefix(name, "explain.") && path.Ext(name) == ".html":
			h.Set("Content-Security-Policy", explainCSP)
			h.Set("X-Frame-Options", "SAMEORIGIN")
		case path.Ext(name) == ".html":
			h.Set("Content-Security-Policy", pageCSP)
			h.Set("X-Frame-Options", "SAMEORIGIN")
		default:
			h.Set("Content-Security-Policy", assetCSP)
			// The files are public and carry no credentials; an embed.html in
			// a sandboxed frame has an opaque origin and fetches viz.wasm,
			// worker.wasm and the worker's scripts across origins.
			h.Set("Access-Control-Allow-Origin", "*")
		}
		if v := r.URL.Query().Get("v"); v != "" && path.Ext(name) != ".html" && v == version.current() {
			h.Set("Cache-Control", immutable)
		} else {
			h.Set("Cache-Control", revalidate)
		}

		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			if zf, zst, ok := openFile(site, name+enc.ext); ok {
				f.Close() // a connection holds one file at a time
				defer zf.Close()
				serveFile(w, r, zf, zst, enc.token)
				return
			}
		}
		defer f.Close()
		serveFile(w, r, f, st, "")
	})
}

// hidden reports whether a path has a dot file or directory in it, such as
// the build's .fabriclab-site marker.
func hidden(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// openFile opens a regular file of the site; ok is false when there is none
// (missing, a directory, or refused by the site's confinement).
func openFile(site fs.FS, name string) (fs.File, fs.FileInfo, bool) {
	f, err := site.Open(name)
	if err != nil {
		return nil, nil, false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, st, true
}

// serveFile streams f with http.ServeContent, which answers Range, If-Range,
// If-None-Match and If-Modified-Since. The ETag names the file's size and
// modification time (and the encoding, so a twin never matches its
// original); a file system without times (embed.FS) gets no validators.
func serveFile(w http.ResponseWriter, r *http.Request, f fs.File, st fs.FileInfo, encoding string) {
	if rng := r.Header.Get("Range"); rng != "" {
		r = r.Clone(r.Context())
		if b := byteRanges(rng, st.Size()); b != "" {
			r.Header.Set("Range", b)
		} else {
			r.Header.Del("Range")
		}
	}
	w = &fileWriter{ResponseWriter: w, encoding: encoding, size: st.Size()}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		ra, isReaderAt := f.(io.ReaderAt)
		if !isReaderAt {
			http.Error(w, "the site's file system cannot seek in "+st.Name(), http.StatusInternalServerError)
			return
		}
		content = io.NewSectionReader(ra, 0, st.Size())
	}
	mod := st.ModTime()
	if !mod.IsZero() {
		w.Header().Set("ETag", etag(st.Size(), mod, encoding))
	}
	http.ServeContent(w, r, st.Name(), mod, content)
}

// byteRanges mends what http.ServeContent gets wrong of RFC 9110's Range
// (section 14): a unit other than bytes is ignored ("" here; ServeContent
// answers 416), the unit's name is case-insensitive, and a suffix of 0 bytes
// (bytes=-0) cannot be satisfied: it becomes a range that starts at the end,
// which ServeContent drops (ServeContent answered 206 with nothing).
func byteRanges(header string, size int64) string {
	unit, set, ok := strings.Cut(header, "=")
	if !ok || !strings.EqualFold(strings.TrimSpace(unit), "bytes") {
		return ""
	}
	specs := strings.Split(set, ",")
	for i, spec := range specs {
		if n, ok := strings.CutPrefix(strings.TrimSpace(spec), "-"); ok && n != "" && strings.Trim(n, "0") == "" {
			specs[i] = strconv.FormatInt(size, 10) + "-"
		}
	}
	return "bytes=" + strings.Join(specs, ",")
}

// fileWriter mends a file's response as it starts. A 416 names the file's
// length (Content-Range: bytes */size, as RFC 9110 asks; ServeContent
// gives it only for ranges past the end). A twin's Content-Encoding is set
// then, not before: http.ServeContent leaves Content-Length out when
// Content-Encoding is already set (it cannot tell a precompressed file from a
// wrapper that compresses), and without it a twin would go out chunked, with
// no length for the browser's progress and no sendfile. The file here is the
// encoded bytes, so the lengths ServeContent gives (whole, range, HEAD) are
// right.
type fileWriter struct {
	http.ResponseWriter
	encoding string // "" for the file itself
	size     int64
	started  bool
}

func (e *fileWriter) WriteHeader(code int) {
	if !e.started {
		switch {
		case e.encoding != "" && (code == http.StatusOK || code == http.StatusPartialContent):
			e.Header().Set("Content-Encoding", e.encoding)
		case code == http.StatusRequestedRangeNotSatisfiable && e.Header().Get("Content-Range") == "":
			e.Header().Set("Content-Range", "bytes */"+strconv.FormatInt(e.size, 10))
		}
	}
	e.started = true
	e.ResponseWriter.WriteHeader(code)
}

func (e *fileWriter) Write(p []byte) (int, error) {
	if !e.started {
		e.WriteHeader(http.StatusOK)
	}
	return e.ResponseWriter.Write(p)
}

// ReadFrom keeps the server's sendfile path for the body.
func (e *fileWriter) ReadFrom(r io.Reader) (int64, error) {
	if !e.started {
		e.WriteHeader(http.StatusOK)
	}
	return io.Copy(e.ResponseWriter, r)
}

// Unwrap lets http.ResponseController reach the connection.
func (e *fileWriter) Unwrap() http.ResponseWriter { return e.ResponseWriter }

func etag(size int64, mod time.Time, encoding string) string {
	tag := `"` + strconv.FormatInt(size, 36) + "-" + strconv.FormatInt(mod.UnixNano(), 36)
	if encoding != "" {
		tag += "-" + encoding
	}
	return tag + `"`
}

// acceptsEncoding reports whether an Accept-Encoding header allows token (q > 0).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), token) {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		return params != "q=0" && params != "q=0.0" && params != "q=0.00" && params != "q=0.000"
	}
	return false
}
