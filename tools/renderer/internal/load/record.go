package load

import (
	"path/filepath"

	"sigs.k8s.io/kustomize/api/ifc"
)

// Read is one file a Recorder saw: its absolute path and, when it was
// loaded (not only resolved), its content.
type Read struct {
	Path    string
	Content []byte
	Loaded  bool
}

// Recorder is a Loader that remembers every file loaded or resolved
// through it, in order. Provenance gives each generator and transformer its
// own Recorder to learn exactly which files it read.
type Recorder struct {
	*Loader
	reads []Read
}

var _ ifc.Loader = (*Recorder)(nil)

// FileRecorder is what a Recorder offers to a step that reads a file past
// the loader (a declared executable, a helm chart): RecordFile.
type FileRecorder interface {
	RecordFile(abs string, content []byte)
}

var _ FileRecorder = (*Recorder)(nil)

// NewRecorder wraps l.
func NewRecorder(l *Loader) *Recorder { return &Recorder{Loader: l} }

// Load reads path like Loader.Load and records it.
func (r *Recorder) Load(path string) ([]byte, error) {
	b, err := r.Loader.Load(path)
	if err == nil {
		r.reads = append(r.reads, Read{Path: r.abs(path), Content: b, Loaded: true})
	}
	return b, err
}

// Resolve resolves path like Loader.Resolve and records it (exec functions
// resolve their executable without loading it).
func (r *Recorder) Resolve(path string) (string, error) {
	abs, err := r.Loader.Resolve(path)
	if err == nil {
		r.reads = append(r.reads, Read{Path: filepath.Clean(abs)})
	}
	return abs, err
}

// RecordFile records content as read from abs, a file the loader did not
// serve: a declared exec function's executable.
func (r *Recorder) RecordFile(abs string, content []byte) {
	r.reads = append(r.reads, Read{Path: filepath.Clean(abs), Content: content, Loaded: true})
}

// Reads returns what was recorded so far.
func (r *Recorder) Reads() []Read { return r.reads }

// Reset forgets what was recorded.
func (r *Recorder) Reset() { r.reads = nil }

func (r *Recorder) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Clean(r.Loader.root.Join(path))
}
