package validate

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	streamA    = filepath.Join("testdata", "stream", "a.yaml")
	streamB    = filepath.Join("testdata", "stream", "b.yaml")
	streamCRDs = filepath.Join("testdata", "stream", "crds.yaml")
)

// readAll is what krm validate did before ValidateFiles: read every object, learn the CRDs of
// crdPaths and then of the objects, validate.
func readAll(t *testing.T, paths, crdPaths []string) []Result {
	t.Helper()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Read(paths)
	if err != nil {
		t.Fatal(err)
	}
	extra, err := Read(crdPaths)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.AddCRDs(append(extra, objs...)); err != nil {
		t.Fatal(err)
	}
	return v.Validate(objs)
}

func errorLines(results []Result) string {
	var b strings.Builder
	for _, r := range results {
		for _, e := range r.Errors {
			b.WriteString(e.Error() + "\n")
		}
	}
	return b.String()
}

// TestValidateFilesAsReadAll: reading a document at a time gives the results of reading every
// object first, custom resources before their CRDs and CRDs replaced later included.
func TestValidateFilesAsReadAll(t *testing.T) {
	for _, c := range []struct {
		name            string
		paths, crdPaths []string
		want            []string // among the errors, in this order
		not             []string
	}{
		{"CRDs later", []string{streamA, streamB}, nil, []string{
			`a.yaml:5: Widget/early: spec.colour: unknown field "spec.colour"`,
			`a.yaml:17: Gadget/listed: spec.speed: Unsupported value: "fast": supported values: "slow"`,
			`a.yaml:24: Deployment/web: spec.replica: unknown field`,
			`a.yaml:28: Sprocket/s: no schema for example.com/v1 Sprocket`,
			`b.yaml:35: Widget/late: spec.size: Invalid value: must be of type integer, not string "2"`,
		}, []string{"Widget/early: no schema", "spec.speed: Invalid value"}},
		{"--crd too", []string{streamA, streamB}, []string{streamCRDs}, []string{
			`a.yaml:5: Widget/early: spec.colour: unknown field "spec.colour"`,
			`a.yaml:31: Sprocket/s: spec.teeth: Invalid value: must be of type integer, not string "many"`,
		}, []string{"Sprocket/s: no schema"}},
		{"CRDs first", []string{streamB, streamA}, []string{streamCRDs}, []string{
			`a.yaml:5: Widget/early: spec.colour: unknown field "spec.colour"`,
		}, nil},
		// a.yaml, b.yaml, crds.yaml: crds.yaml's Widget CRD, the last, wins.
		{"directory", []string{filepath.Join("testdata", "stream")}, nil, []string{
			`a.yaml:24: Deployment/web`,
			`a.yaml:31: Sprocket/s: spec.teeth: Invalid value`,
		}, []string{"Widget/early", "Widget/late"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := New(Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := v.ValidateFiles(c.paths, c.crdPaths)
			if err != nil {
				t.Fatal(err)
			}
			want := readAll(t, c.paths, c.crdPaths)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ValidateFiles:\n%s\nreading every object first:\n%s", errorLines(got), errorLines(want))
			}
			all := errorLines(got)
			at := 0
			for _, w := range c.want {
				i := strings.Index(all[at:], w)
				if i < 0 {
					t.Errorf("no error %q after offset %d in:\n%s", w, at, all)
					continue
				}
				at += i
			}
			for _, n := range c.not {
				if strings.Contains(all, n) {
					t.Errorf("error %q in:\n%s", n, all)
				}
			}
		})
	}
}

// TestValidateFilesStreams: each object is validated before the next document is decoded, so
// that one document's tree is held at a time.
func TestValidateFilesStreams(t *testing.T) {
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		file, object   string
		doc, validated int
	}
	var got []seen
	v.trace = func(o Object, validated int) {
		got = append(got, seen{filepath.Base(o.File), objectName(o.Node), o.doc, validated})
	}
	if _, err := v.ValidateFiles([]string{streamA, streamB}, nil); err != nil {
		t.Fatal(err)
	}
	want := []seen{
		{"a.yaml", "Widget/early", 1, 0},
		{"a.yaml", "ConfigMap/listed", 2, 1},
		{"a.yaml", "Gadget/listed", 2, 2},
		{"a.yaml", "Deployment/web", 4, 3},
		{"a.yaml", "Sprocket/s", 5, 4},
		{"b.yaml", "CustomResourceDefinition/widgets.example.com", 1, 5},
		{"b.yaml", "CustomResourceDefinition/gadgets.example.com", 2, 6},
		{"b.yaml", "Widget/late", 3, 7},
		{"b.yaml", "CustomResourceDefinition/gadgets.example.com", 4, 8},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("objects read (file, object, document, validated before):\n got %v\nwant %v", got, want)
	}
}

// TestValidateFilesPipe: a custom resource before its CRD in a pipe, which cannot be read
// twice, is validated against the CRD too.
func TestValidateFilesPipe(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "pipe.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	data, err := os.ReadFile(streamA)
	if err != nil {
		t.Fatal(err)
	}
	more, err := os.ReadFile(streamB)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		// One writer: a second opening of the pipe would wait for ever.
		if f, err := os.OpenFile(pipe, os.O_WRONLY, 0); err == nil {
			f.Write(append(append(data, "---\n"...), more...))
			f.Close()
		}
	}()
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		res []Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := v.ValidateFiles([]string{pipe}, nil)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		if all := errorLines(o.res); !strings.Contains(all, `pipe.yaml:5: Widget/early: spec.colour: unknown field`) {
			t.Errorf("Widget/early not validated against its CRD:\n%s", all)
		}
	case <-time.After(time.Minute):
		t.Fatal("ValidateFiles still reading the pipe after a minute: did it open it twice?")
	}
}

// TestValidateFilesTooBig: a file over MaxFileBytes is refused before it is read.
func TestValidateFilesTooBig(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.ValidateFiles([]string{big}, nil)
	if want := "big.yaml: invalid input: larger than 256 MiB"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestValidateFilesChanged: a file read twice (a custom resource came before its CRD) that
// no longer has the objects of the first reading is an error, not a result of either.
func TestValidateFilesChanged(t *testing.T) {
	dir := t.TempDir()
	copyTo := func(src string) string {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(src))
		if err := os.WriteFile(dst, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	a, b := copyTo(streamA), copyTo(streamB)
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	v.trace = func(o Object, _ int) {
		if o.File == b && o.doc == 1 { // a.yaml is read: drop its first document
			data, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			_, rest, _ := strings.Cut(string(data), "\n---\n")
			if err := os.WriteFile(a, []byte(rest), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, err = v.ValidateFiles([]string{a, b}, nil)
	if want := "a.yaml: changed while krm validate read it"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestValidateFilesRefusesFIFOInDirectory: a named pipe (or any file that is not regular) in
// a directory is an error naming it, before anything is opened; opening it would wait for a
// writer for ever. A pipe named as an argument is still read (TestValidateFilesPipe).
func TestValidateFilesRefusesFIFOInDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(dir, "sub", "pipe.yaml")
	if err := os.Mkdir(filepath.Dir(pipe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe.yaml", filepath.Join(dir, "sub", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	v, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := v.ValidateFiles([]string{dir}, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if want := filepath.Join(dir, "sub", "link.yaml") + ": not a regular file"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error containing %q", err, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ValidateFiles still waiting on the pipe of the directory after 10s")
	}
}
