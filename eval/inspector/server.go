package inspector

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Handler serves the site: GET and HEAD only, read-only, no script.
//
//	/                         runs and their summary tables
//	/r/RUN/                   questions of run RUN (filters and sorting in the query)
//	/r/RUN/q/QUESTION         one question, every mode side by side
//	/r/RUN/paper/PAPER        a paper's passages with all its gold evidence marked
//	/static/style.css
func (s *Site) Handler() http.Handler {
	t := template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))
	mux := http.NewServeMux()
	page := func(name string, build func(*http.Request) (any, bool)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			data, ok := build(r)
			if !ok {
				http.NotFound(w, r)
				return
			}
			// Render to a buffer first so a template error is a clean 500,
			// not half a page.
			var buf bytes.Buffer
			if err := t.ExecuteTemplate(&buf, name, data); err != nil {
				http.Error(w, "inspector: "+err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(buf.Bytes())
		}
	}
	mux.Handle("GET /{$}", page("index.html", s.indexPage))
	mux.Handle("GET /r/{run}/{$}", page("list.html", s.listPage))
	mux.Handle("GET /r/{run}/q/{qid}", page("question.html", s.questionPage))
	mux.Handle("GET /r/{run}/paper/{pid}", page("paper.html", s.paperPage))
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	return guard(mux)
}

// guard answers 404 to any path with a dot-dot segment (raw or
// percent-encoded) before the mux can clean and redirect it, refuses hosts
// other than the loopback names when bound to loopback (DNS rebinding), and
// sets headers that forbid scripts and outside resources outright, so even
// a template bug could not run a paper's <script>.
func guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if traversal(r.URL.Path) || traversal(r.URL.RawPath) || traversal(r.RequestURI) {
			http.NotFound(w, r)
			return
		}
		if !hostAllowed(r) {
			http.Error(w, "inspector: unexpected Host header; open the address paperlens serve printed", http.StatusMisdirectedRequest)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

func traversal(p string) bool {
	if p == "" {
		return false
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	for range 3 { // %252e%252e and the like
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." || seg == "." {
			return true
		}
	}
	return strings.ContainsRune(p, 0)
}

// hostAllowed accepts any Host when the server was reached on a non-loopback
// address (the user chose --addr 0.0.0.0), and only loopback names otherwise.
func hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	la, _, err := net.SplitHostPort(local.String())
	if err != nil {
		return true
	}
	if ip := net.ParseIP(la); ip == nil || !ip.IsLoopback() {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
