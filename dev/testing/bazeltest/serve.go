package bazeltest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// ReleaseURLPrefix is where rules/private/versions.bzl downloads the prebuilt renderer
// from, without the scheme: github.com/rules-krm/rules_krm/releases/download/vVERSION/FILE.
const ReleaseURLPrefix = "github.com/rules-krm/rules_krm/releases/download/"

// DownloaderConfig is the text of a Bazel --experimental_downloader_config that sends the
// release downloads to the server at url (a directory holding vVERSION/krm-*.tar.gz, as
// dev/scripts/release.sh writes it). Offline, it blocks every other host, so that a download
// that escaped the rewrite fails by name; online, a consumer still fetches its modules
// from the registry. Bazel 7 rewrites to http(s) URLs only (not file://); without a scheme
// the https of the original would stay.
func DownloaderConfig(url string) string {
	text := "rewrite " + ReleaseURLPrefix + "(.*) " + url + "/$1\n"
	if Offline() {
		text += "allow 127.0.0.1\nblock *\n"
	}
	return text
}

// FileServer is a loopback HTTP server of a directory that records what it served.
type FileServer struct {
	URL       string // http://127.0.0.1:PORT
	srv       *http.Server
	mu        sync.Mutex
	served200 []string
	onServe   func(path string)
}

// NewFileServer serves dir on a free 127.0.0.1 port until Close; onServe, if not nil, is
// called with the path of each GET answered 200.
func NewFileServer(dir string, onServe func(path string)) (*FileServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &FileServer{URL: "http://" + l.Addr().String(), onServe: onServe}
	files := http.FileServer(http.Dir(dir))
	s.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		files.ServeHTTP(rec, r)
		if r.Method == http.MethodGet && rec.status == http.StatusOK {
			s.mu.Lock()
			s.served200 = append(s.served200, r.URL.Path)
			s.mu.Unlock()
			if s.onServe != nil {
				s.onServe(r.URL.Path)
			}
		}
	})}
	go s.srv.Serve(l)
	return s, nil
}

// Serve is NewFileServer for a test: the server stops when the test ends.
func Serve(t T, dir string) *FileServer {
	t.Helper()
	s, err := NewFileServer(dir, nil)
	if err != nil {
		t.Fatalf("bazeltest: serving %s: %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Close stops the server.
func (s *FileServer) Close() error {
	if err := s.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Served reports whether a GET of path was answered 200.
func (s *FileServer) Served(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.served200, path)
}

// Log is the paths answered 200, in order, for an error message.
func (s *FileServer) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprint(s.served200)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}
