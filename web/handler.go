// Package web is the site around the canvas: the lesson and embed pages, their
// styles and scripts, the build that writes a static site, and the HTTP
// handler that serves it.
package web

import (
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
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

// Handler serves a built site. A request for /x.wasm is answered from
// /x.wasm.br or /x.wasm.gz when the client accepts that encoding and the file
// exists, with the original file's content type.
func Handler(site fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" || strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") {
			http.NotFound(w, r) // compressed twins are served only by negotiation
			return
		}
		if st, err := fs.Stat(site, name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", ContentType(name))
		h.Add("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if path.Ext(name) == ".html" {
			h.Set("Cache-Control", "no-cache")
		}
		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			if data, err := fs.ReadFile(site, name+enc.ext); err == nil {
				h.Set("Content-Encoding", enc.token)
				serveBytes(w, r, data)
				return
			}
		}
		data, err := fs.ReadFile(site, name)
		if err != nil {
			http.Error(w, "cannot read "+name, http.StatusInternalServerError)
			return
		}
		serveBytes(w, r, data)
	})
}

func serveBytes(w http.ResponseWriter, r *http.Request, data []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(data)
	}
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
