package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/convergence"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

const statusUsage = `Usage: krm status MANIFESTS... [flags]
       krm status --applyset NAME [flags]

Shows what is running: for each object of rendered manifests (YAML files, -
for stdin), or without MANIFESTS each live member of the ApplySet --applyset,
its live generation, the generation its status reflects and the commit that
made it (from the generation record krm apply writes beside the ApplySet:
--applyset, else the set each object is part of), whether that is current,
and its state by krm apply --wait's rules (Current, InProgress, Failed,
NotFound) with the condition that says why.

The status reflects the Ready condition's generation, else the lowest an
output reports (a condition's observedGeneration or --output-path), else
status.observedGeneration (a weaker signal, marked "(status)").

-o json prints one JSON object a line per object: "object", "generation",
"observedGeneration", "sourceCommit", "inputDigest", "current", "state",
"reason" (docs/cli.md, "krm status").

Exit status: 0 every object current, 3 some object not current (or not
found), 1 an error, 2 a usage or input error.

Flags:
`

type statusOptions struct {
	cluster     clusterFlags
	output      string
	outputPaths outputPathFlags
	fs          *pflag.FlagSet
}

func statusFlags(stderr io.Writer) *statusOptions {
	o := &statusOptions{fs: commandFlags("status", statusUsage, stderr)}
	o.cluster.register(o.fs, false)
	o.fs.StringVarP(&o.output, "output", "o", "text", "text (a table), or json: one JSON object a line per object")
	o.outputPaths.register(o.fs)
	return o
}

// statusLine is one object of krm status.
type statusLine struct {
	Object             string `json:"object"`
	Generation         int64  `json:"generation"`
	ObservedGeneration int64  `json:"observedGeneration"`
	Output             string `json:"output,omitempty"`
	Weak               bool   `json:"weak,omitempty"`
	Recorded           bool   `json:"recorded"`
	SourceCommit       string `json:"sourceCommit"`
	InputDigest        string `json:"inputDigest"`
	Current            bool   `json:"current"`
	State              string `json:"state"`
	Reason             string `json:"reason,omitempty"`
	RecordError        string `json:"recordError,omitempty"`
}

func runStatus(args []string, s streams) int {
	stdout, stderr := s.stdout, s.stderr
	o := statusFlags(stderr)
	if code, ok := parseFlags(o.fs, args, stderr); !ok {
		return code
	}
	if o.fs.NArg() == 0 && o.cluster.applyset == "" {
		fmt.Fprintln(stderr, "Error: krm status needs MANIFESTS (rendered YAML files, - for stdin) or --applyset NAME (see krm help status)")
		return 2
	}
	if o.output != "text" && o.output != "json" {
		fmt.Fprintf(stderr, "Error: -o %q: want text or json\n", o.output)
		return 2
	}
	paths, err := o.outputPaths.parse()
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return 2
	}
	ctx := o.cluster.deadline.start()
	defer o.cluster.deadline.stop()
	get, records, sess, err := clustersupport.OpenRecords(ctx, o.cluster.request(o.fs.Args(), false, stderr))
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", o.cluster.deadline.explain(err))
		return clusterExit(err)
	}
	// Each ApplySet's record is read once, found from any of its namespaced members (a
	// cluster-scoped member leads only to the context's namespace).
	found := map[string]*genrecord.Record{}
	failed := map[string]error{}
	record := func(live map[string]any) (*genrecord.Record, error) {
		labels, _ := genrecord.Field(live, "metadata", "labels").(map[string]any)
		id, _ := labels["applyset.kubernetes.io/part-of"].(string)
		if o.cluster.applyset != "" {
			id = "--applyset"
		}
		ns, _ := genrecord.Field(live, "metadata", "namespace").(string)
		if rec, ok := found[id]; ok {
			return rec, nil
		}
		if err, ok := failed[id+"/"+ns]; ok {
			return nil, err
		}
		rec, _, err := records.Record(ctx, live)
		if err != nil {
			failed[id+"/"+ns] = err
			return nil, err
		}
		found[id] = rec
		return rec, nil
	}
	refs := records.Objects()
	if o.fs.NArg() == 0 { // the ApplySet's members, as the cluster has them
		if refs, err = records.Members(ctx); err == nil && len(refs) == 0 {
			err = fmt.Errorf("ApplySet %s has no members: its parent does not exist, or lists no kinds", o.cluster.applyset)
		}
		if err != nil {
			fmt.Fprintf(stderr, "Error: %s: %v\n", sess.Where(), err)
			return 1
		}
	}
	lives := make([]map[string]any, len(refs))
	for i, ref := range refs {
		if lives[i], err = readLive(ctx, get, ref); err != nil {
			fmt.Fprintf(stderr, "Error: %s: %v\n", sess.Where(), err)
			return 1
		}
	}
	for _, cluster := range []bool{false, true} { // namespaced members find the record first
		for _, live := range lives {
			if ns, _ := genrecord.Field(live, "metadata", "namespace").(string); live != nil && (ns == "") == cluster {
				record(live)
			}
		}
	}
	lines := make([]statusLine, len(refs))
	for i, ref := range refs {
		lines[i] = objectStatus(ref, lives[i], paths, record)
	}
	code := 0
	for _, l := range lines {
		if !l.Current {
			code = 3
		}
	}
	if o.output == "json" {
		for _, l := range lines {
			b, err := json.Marshal(l)
			if err != nil {
				fmt.Fprintf(stderr, "Error: %v\n", err)
				return 1
			}
			fmt.Fprintf(stdout, "%s\n", b)
		}
		return code
	}
	printStatus(stdout, lines)
	return code
}

// readLive reads one object: nil when the cluster does not have it.
func readLive(ctx context.Context, get clustersupport.Getter, ref clustersupport.Ref) (map[string]any, error) {
	data, err := get.Get(ctx, ref)
	if errors.Is(err, clustersupport.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var live map[string]any
	return live, json.Unmarshal(data, &live)
}

// objectStatus is what one object's status reflects.
func objectStatus(ref clustersupport.Ref, live map[string]any, paths []genrecord.OutputPath,
	record func(map[string]any) (*genrecord.Record, error)) statusLine {
	if live == nil {
		name := genrecord.Key{Group: groupOf(ref.APIVersion), Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}.String()
		return statusLine{Object: name, State: string(convergence.NotFound), Reason: "not in the cluster"}
	}
	l := statusLine{Object: genrecord.KeyOf(live).String()}
	rec, rerr := record(live)
	if rerr != nil {
		l.RecordError = rerr.Error()
	}
	rep := genrecord.Correlate(live, rec, paths)
	l.Generation = rep.Generation
	st := convergence.Status(live, paths)
	l.State, l.Reason = string(st.State), st.Reason
	if t, ok := rep.Strongest(); ok {
		l.ObservedGeneration, l.Output, l.Weak = t.ObservedGeneration, t.Path, t.Weak
		l.Recorded, l.SourceCommit, l.InputDigest = t.Recorded, t.Entry.Commit, t.Entry.InputDigest
		l.Current = t.Current && rep.Current() && st.State == convergence.Current
	} else {
		// Nothing reports a generation: current when the kind's rules say so (a ConfigMap).
		l.Current = st.State == convergence.Current
		if e, ok := rec.Lookup(rep.Key, rep.Generation); ok {
			l.Recorded, l.SourceCommit, l.InputDigest = true, e.Commit, e.InputDigest
		}
	}
	return l
}

func groupOf(apiVersion string) string {
	for i := 0; i < len(apiVersion); i++ {
		if apiVersion[i] == '/' {
			return apiVersion[:i]
		}
	}
	return ""
}

func printStatus(w io.Writer, lines []statusLine) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "OBJECT\tGENERATION\tSTATUS REFLECTS\tCURRENT\tSTATE")
	for _, l := range lines {
		reflects := "-"
		switch {
		case l.ObservedGeneration > 0:
			reflects = fmt.Sprintf("%d", l.ObservedGeneration)
			if l.Weak {
				reflects += " (status)"
			}
			reflects += ": " + commitOf(l)
		case l.Recorded:
			reflects = "(no output) " + commitOf(l)
		}
		current := "no"
		if l.Current {
			current = "yes"
		}
		state := l.State
		if l.Reason != "" {
			state += ": " + l.Reason
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", l.Object, l.Generation, reflects, current, state)
	}
	tw.Flush()
}

func commitOf(l statusLine) string {
	switch {
	case !l.Recorded && l.RecordError != "":
		return "no record"
	case !l.Recorded:
		return "not recorded"
	case l.SourceCommit == "":
		return "recorded, no commit"
	}
	return "commit " + l.SourceCommit
}
