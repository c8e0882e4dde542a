package accumulate_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"

	"github.com/rules-krm/rules_krm/dev/testing/krmtest"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/accumulate"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/finish"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/load"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

// watcher is an Observer that writes down what it is told.
type watcher struct {
	observe.Nop
	mu     sync.Mutex
	events []string
	fail   string // a step kind whose run the watcher replaces by an error
}

func (w *watcher) log(format string, args ...interface{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, fmt.Sprintf(format, args...))
}

func (w *watcher) Read(dir string, _ ifc.Loader, m resmap.ResMap) {
	w.log("read %d objects for %s", m.Size(), dir)
}

func (w *watcher) Step(s *observe.Step, m resmap.ResMap, run func() error) error {
	config, err := s.Config()
	if err != nil {
		return err
	}
	w.log("step %d %s #%d in %s/%s builtin=%t config=%q", s.Role, s.Kind, s.Ordinal, s.In.Dir, s.In.File, s.Builtin, config)
	if s.Kind == w.fail {
		return errors.New("stopped by the watcher")
	}
	return run()
}

func (w *watcher) Referred(referrer, referral *resource.Resource) {
	w.log("%s refers to %s", referrer.GetName(), referral.GetName())
}

func (w *watcher) Finished(m resmap.ResMap) ([]byte, error) {
	w.log("finished with %d objects", m.Size())
	return []byte("record"), nil
}

func (w *watcher) Annotations(i int, r *resource.Resource) ([]observe.Annotation, error) {
	return []observe.Annotation{{Key: "watched", Value: fmt.Sprintf("%d %s", i, r.GetName())}}, nil
}

var watchedTree = map[string]string{
	"/w/kustomization.yaml": `resources:
- deploy.yaml
configMapGenerator:
- name: settings
  literals: [a=b]
namePrefix: p-
labels:
- pairs:
    tier: web
buildMetadata: [managedByLabel]
`,
	"/w/deploy.yaml": deployment, // memo_test.go
}

// watched renders /w with w watching, as render.Render does.
func watched(t *testing.T, w *watcher) (string, []byte, error) {
	t.Helper()
	fs := krmtest.MemFS(t, watchedTree)
	ldr, err := load.NewLoader(fs, "/w", load.RootOnly, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := render.NewEnv()
	env.Observer = w
	tg, err := accumulate.NewTarget(env, ldr)
	if err != nil {
		t.Fatal(err)
	}
	acc, err := tg.Accumulate()
	if err != nil {
		return "", nil, err
	}
	if err := finish.Run(acc, resmap.NewPluginHelpers(ldr, env.Validator, env.Factory, env.Plugins), w, nil); err != nil {
		t.Fatal(err)
	}
	k := tg.Kustomization()
	if err := emit.Prepare(acc.Resources, emit.Options{BuildMetadata: k.BuildMetadata, Top: tg.Source()}, w); err != nil {
		t.Fatal(err)
	}
	record, err := w.Finished(acc.Resources)
	if err != nil {
		t.Fatal(err)
	}
	out, err := emit.YAML(acc.Resources, w)
	return string(out), record, err
}

// TestObserverSeesEveryStep: the one seam hears of every step (load,
// generate, transform, finish, emit) in order, and what it answers reaches
// the output.
func TestObserverSeesEveryStep(t *testing.T) {
	w := &watcher{}
	out, record, err := watched(t, w)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`read 1 objects for /w`,
		`step 0 ConfigMapGenerator #0 in /w/kustomization.yaml builtin=true config="literals:\n- a=b\nname: settings\n"`,
		`step 1 PrefixTransformer #0 in /w/kustomization.yaml builtin=true config="fieldSpecs:\n- path: metadata/name\nprefix: p-\n"`,
		`step 1 LabelTransformer #1 in /w/kustomization.yaml builtin=true config="FieldSpecs:\n- create: true\n  path: metadata/labels\nLabels:\n  tier: web\n"`,
		`step 1 LabelTransformer #2 in /w/kustomization.yaml builtin=true config="FieldSpecs:\n`, // commonLabels, empty
		`p-web refers to p-settings-`, // envFrom
		`p-web refers to p-settings-`, // volumes
		`step 1 LabelTransformer #-1 in /w/kustomization.yaml builtin=true config="app.kubernetes.io/managed-by: kustomize-v5.8.2\n"`,
		`finished with 2 objects`,
	}
	if len(w.events) != len(want) {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(w.events, "\n"), strings.Join(want, "\n"))
	}
	for i, e := range w.events {
		if !strings.HasPrefix(e, want[i]) {
			t.Errorf("event %d: %s\nwant: %s...", i, e, want[i])
		}
	}
	if string(record) != "record" {
		t.Errorf("record %q", record)
	}
	for _, a := range []string{"watched: 0 p-settings-", "watched: 1 p-web"} {
		if !strings.Contains(out, a) {
			t.Errorf("output lacks the annotation %q:\n%s", a, out)
		}
	}
}

// TestObserverStepErrors: an error of a step's run comes back through the
// seam unchanged.
func TestObserverStepErrors(t *testing.T) {
	_, _, err := watched(t, &watcher{fail: "PrefixTransformer"})
	if err == nil || !strings.Contains(err.Error(), "stopped by the watcher") {
		t.Fatalf("err = %v", err)
	}
}
