package web

import (
	"io/fs"
	"net/http"
	"strings"
)

// panel serves the web panel: / is static/index.html, /static/... its files
// (embedded: Static, embed.go); anything else is not found. guard gave the
// response its CSP.
func (s *Server) panel(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	sub, err := fs.Sub(Static, "static")
	if err != nil {
		writeError(w, err)
		return
	}
	switch {
	case r.URL.Path == "/":
		b, err := fs.ReadFile(sub, "index.html")
		if err != nil {
			http.Error(w, "404 the panel is not built into this binary", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(b)
	case strings.HasPrefix(r.URL.Path, "/static/"):
		http.StripPrefix("/static/", http.FileServerFS(sub)).ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}
