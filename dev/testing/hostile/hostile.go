// Package hostile is an HTTP(S) server that misbehaves on purpose, for tests of what a client
// sends to a server and prints of its answers: it records every request it receives (method,
// host, path, headers with Authorization, body, whether a client certificate was presented)
// and answers each with the first route that matches, through behaviours such as Redirect (a
// 307 to another Server, which records what reaches it) and Echo (a body that quotes the
// request's Authorization header).
//
// Behaviours are plain http.Handlers: a test adds its own, or a new one here when others will
// want it.
package hostile

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// MaxBody is how much of a request's body a Server records.
const MaxBody = 1 << 20

// Request is what a Server received.
type Request struct {
	Method, Host, Path, RawQuery string
	Header                       http.Header
	Body                         []byte
	// ClientCert says that the client presented a TLS certificate (a TLS Server asks every
	// client for one and accepts any).
	ClientCert bool
}

// Server is a started httptest server that records requests and answers by routes.
type Server struct {
	// URL is the server's base URL: http://127.0.0.1:PORT, or https:// for NewTLS.
	URL string
	// CAPEM is the PEM certificate a client must trust to reach a TLS server (nil for plain
	// HTTP). Every TLS Server has the same one, httptest's, so a client that trusts one
	// server's CA completes a handshake with any other: a test sees what it would send there.
	CAPEM []byte

	srv    *httptest.Server
	mu     sync.Mutex
	log    []Request
	routes []route
}

type route struct {
	method, path string
	h            http.Handler
}

// New starts a plain HTTP server, closed when the test ends.
func New(t testing.TB) *Server {
	s := &Server{}
	s.srv = httptest.NewServer(s)
	return s.started(t)
}

// NewTLS starts an HTTPS server that asks each client for a certificate (any is accepted and
// recorded), closed when the test ends.
func NewTLS(t testing.TB) *Server {
	s := &Server{}
	s.srv = httptest.NewUnstartedServer(s)
	s.srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert}
	s.srv.StartTLS()
	s.CAPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
	return s.started(t)
}

func (s *Server) started(t testing.TB) *Server {
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Close stops the server now (a later request cannot connect).
func (s *Server) Close() { s.srv.Close() }

// Handle answers requests with method ("" any) and path with h: path is exact, or ends in *
// to match every path it begins ("" or "*" matches all). Routes are tried in the order added;
// a request no route matches gets a 404.
func (s *Server) Handle(method, path string, h http.Handler) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = append(s.routes, route{method: method, path: path, h: h})
	return s
}

// Requests returns what the server received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// Seen lists the requests as "METHOD PATH" lines, for failure messages.
func (s *Server) Seen() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&b, "  %s %s (Authorization %q, client certificate %v, %d bytes of body)\n",
			r.Method, r.Path, r.Header.Get("Authorization"), r.ClientCert, len(r.Body))
	}
	if b.Len() == 0 {
		return "  none\n"
	}
	return b.String()
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, MaxBody))
	r.Body = io.NopCloser(bytes.NewReader(body))
	rec := Request{Method: r.Method, Host: r.Host, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: body, ClientCert: r.TLS != nil && len(r.TLS.PeerCertificates) > 0}
	s.mu.Lock()
	s.log = append(s.log, rec)
	routes := s.routes
	s.mu.Unlock()
	for _, rt := range routes {
		if rt.matches(r) {
			rt.h.ServeHTTP(w, r)
			return
		}
	}
	http.Error(w, "hostile: no route for "+r.Method+" "+r.URL.Path, http.StatusNotFound)
}

func (rt route) matches(r *http.Request) bool {
	if rt.method != "" && rt.method != r.Method {
		return false
	}
	if prefix, ok := strings.CutSuffix(rt.path, "*"); ok {
		return strings.HasPrefix(r.URL.Path, prefix)
	}
	return rt.path == "" || rt.path == r.URL.Path
}

// Redirect answers 307 Temporary Redirect to the same path and query on to: a client that
// follows it repeats the method and body there.
func Redirect(to *Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	})
}

// Respond answers status with the body as contentType.
func Respond(status int, contentType, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
}

// JSON answers status with v encoded as JSON.
func JSON(status int, v any) http.Handler {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("hostile.JSON: %v", err))
	}
	return Respond(status, "application/json", string(data))
}

// Echo answers status with a body of contentType made from the request by body: a server that
// quotes what it was sent (a proxy's error page, a webhook's message).
func Echo(status int, contentType string, body func(r *http.Request) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Respond(status, contentType, body(r)).ServeHTTP(w, r)
	})
}

// EchoAuthorization answers status with a plain-text body quoting the request's Authorization
// header.
func EchoAuthorization(status int) http.Handler {
	return Echo(status, "text/plain", func(r *http.Request) string {
		return "refused Authorization: " + r.Header.Get("Authorization")
	})
}

// WithHeader adds a response header (a Warning, a Location) before h answers.
func WithHeader(key, value string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add(key, value)
		h.ServeHTTP(w, r)
	})
}

// Raw writes response as the whole HTTP response, bytes as given, and closes the connection:
// a status line or headers no well-behaved server would send.
func Raw(response string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			http.Error(w, "hostile.Raw: "+err.Error(), http.StatusInternalServerError)
			return
		}
		defer conn.Close()
		buf.WriteString(response)
		buf.Flush()
	})
}

// Challenge answers 401 with a Basic challenge until a request carries an Authorization
// header, then h: what makes git and curl send a URL's user and password.
func Challenge(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Basic realm="hostile"`)
			http.Error(w, "credentials, please", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
