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
	"time"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// IdleTimeout closes keep-alive connections a browser left open, so a
// long-lived inspector does not collect them.
const IdleTimeout = 60 * time.Second

// Server is the http.Server for the site, with every timeout set: headers
// within 10 s, a page written within a minute, idle connections closed
// after idle (IdleTimeout when 0).
func (s *Site) Server(idle time.Duration) *http.Server {
	if idle <= 0 {
		idle = IdleTimeout
	}
	return &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: time.Minute, IdleTimeout: idle}
}

// Handler serves the site: GET and HEAD only, read-only, no script.
//
//	/                         runs and their summary tables
//	/r/RUN/                   questions of run RUN (filters and sorting in the query)
//	/r/RUN/q/QUESTION         one question, every mode (or those of ?mode=a,b) in a grid
//	/r/RUN/paper/PAPER        a paper's passages with all its gold evidence marked
//	/static/style.css
//
// The router is our own, over the escaped path split at "/": each id is
// one percent-decoded segment looked up in the run's maps, so no request
// names a file, a path with ".." matches no route (404, never a cleaning
// redirect), and ids holding "/", "." or ".." still work.
func (s *Site) Handler() http.Handler {
	t := template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))
	static, _ := fs.Sub(staticFS, "static")
	files := http.FileServerFS(static)
	render := func(w http.ResponseWriter, r *http.Request, name string, data any, ok bool) {
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
	return guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "inspector: read-only", http.StatusMethodNotAllowed)
			return
		}
		seg := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
		for i, x := range seg {
			u, err := url.PathUnescape(x)
			if err != nil {
				http.NotFound(w, r)
				return
			}
			seg[i] = u
		}
		switch {
		case len(seg) == 1 && seg[0] == "":
			d, ok := s.indexPage(r)
			render(w, r, "index.html", d, ok)
		case len(seg) == 2 && seg[0] == "static" && seg[1] == "style.css":
			r2 := r.Clone(r.Context())
			r2.URL.Path, r2.URL.RawPath = "/style.css", ""
			files.ServeHTTP(w, r2)
		case len(seg) == 3 && seg[0] == "r" && seg[2] == "":
			d, ok := s.listPage(r, seg[1])
			render(w, r, "list.html", d, ok)
		case len(seg) == 4 && seg[0] == "r" && seg[2] == "q":
			d, ok := s.questionPage(r, seg[1], seg[3])
			render(w, r, "question.html", d, ok)
		case len(seg) == 4 && seg[0] == "r" && seg[2] == "paper":
			d, ok := s.paperPage(r, seg[1], seg[3])
			render(w, r, "paper.html", d, ok)
		default:
			http.NotFound(w, r)
		}
	}))
}

// guard refuses hosts other than the loopback names when bound to loopback
// (DNS rebinding), and sets headers that forbid scripts and outside
// resources outright, so even a template bug could not run a paper's
// <script>.
func guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
