package trace

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/provmanifest"
)

// RecordFunc reads the generation record a live object's generations were recorded in
// (clustersupport.RecordReader.Record): the record, where it was read, or why there is none.
type RecordFunc func(live map[string]any) (*genrecord.Record, string, error)

// Outputs is what a live object's status reflects: each output, the generation it reports,
// the inputs recorded for that generation and whether it is current (genrecord.Correlate).
type Outputs struct {
	genrecord.Report
	// Record names the record object read; NoRecord says why none was (empty: not asked).
	Record, NoRecord string
	// Sources are, per output, the input files of its generation when the provenance
	// manifest at hand is of that generation's inputs (same digest); nil otherwise.
	Sources [][]string
	asked   bool // a record was read, or looked for
}

// correlate fills r.Outputs from the live object.
func (r *Result) correlate(m *provmanifest.Manifest, o Options) error {
	j, err := yaml.NewRNode(r.Query.Object).MarshalJSON()
	if err != nil {
		return fmt.Errorf("the live %s: %w", r.Object.ID, err)
	}
	var live map[string]any
	if err := json.Unmarshal(j, &live); err != nil {
		return fmt.Errorf("the live %s: %w", r.Object.ID, err)
	}
	out := &Outputs{asked: o.Record != nil}
	var rec *genrecord.Record
	if o.Record != nil {
		rec, out.Record, err = o.Record(live)
		if err != nil {
			out.NoRecord = err.Error()
		}
	}
	out.Report = genrecord.Correlate(live, rec, o.OutputPaths)
	out.Sources = make([][]string, len(out.Outputs))
	for i, t := range out.Outputs {
		if t.Recorded && t.Entry.InputDigest != "" && t.Entry.InputDigest == r.Object.InputsDigest {
			out.Sources[i] = inputFiles(r.Object, m)
		}
	}
	r.Outputs = out
	return nil
}

// inputFiles are an object's source document and the files of the steps that made it.
func inputFiles(obj *provmanifest.Object, m *provmanifest.Manifest) []string {
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" {
			seen[p] = true
		}
	}
	step := func(i int) {
		if s := m.Step(i); s != nil {
			add(s.ConfiguredIn)
			for _, f := range s.Files {
				add(f)
			}
		}
	}
	if obj.Origin != nil {
		add(obj.Origin.Path)
		if obj.Origin.Generator != nil {
			step(*obj.Origin.Generator)
		}
	}
	for _, i := range obj.Transformers {
		step(i)
	}
	files := make([]string, 0, len(seen))
	for f := range seen {
		files = append(files, f)
	}
	sort.Strings(files)
	return files
}

// printOutputs writes what the status reflects, for people.
func printOutputs(w io.Writer, r *Result) {
	out := r.Outputs
	live := fmt.Sprintf("generation %d", out.Generation)
	read := out.Record != "" && out.NoRecord == ""
	if out.LiveKnown {
		live += " (" + inputs(out.Live) + ")"
	} else if read {
		live += " (not recorded: applied by someone else, or collected)"
	}
	fmt.Fprintf(w, "  status:        live %s\n", live)
	if len(out.Outputs) == 0 {
		fmt.Fprintln(w, "    no output reports a generation (no condition with observedGeneration, no status.observedGeneration)")
	}
	for i, t := range out.Outputs {
		what := t.Path
		switch {
		case t.Kind == genrecord.KindCondition:
			what += " " + t.Status
			if t.Reason != "" {
				what += " (" + t.Reason + ")"
			}
		case t.Weak:
			what = ".status.observedGeneration (a weaker signal: the controller saw the generation, not every output made from it)"
		}
		state := "current"
		if !t.Current {
			state = fmt.Sprintf("NOT CURRENT (the live generation is %d)", out.Generation)
		}
		from := "not recorded: applied by someone else, or collected"
		switch {
		case t.Recorded:
			from = inputs(t.Entry)
		case !read:
			from = "no record read"
		}
		fmt.Fprintf(w, "    %s\n      reflects generation %d: %s; %s\n", what, t.ObservedGeneration, from, state)
		if out.Sources[i] != nil {
			fmt.Fprintf(w, "      from %s\n", strings.Join(out.Sources[i], ", "))
		} else if t.Recorded && t.Entry.InputDigest != "" && t.Entry.InputDigest != r.Object.InputsDigest {
			fmt.Fprintf(w, "      its provenance manifest is not at hand (-m is of inputs %s)\n", r.Object.InputsDigest)
		}
	}
	switch {
	case read:
		fmt.Fprintf(w, "  record:        %s\n", out.Record)
	case out.NoRecord != "":
		fmt.Fprintf(w, "  record:        none: %s\n", out.NoRecord)
	}
}

// inputs describes a recorded generation: its commit and inputs digest.
func inputs(e genrecord.Entry) string {
	var parts []string
	if e.Commit != "" {
		parts = append(parts, "commit "+e.Commit)
	} else {
		parts = append(parts, "no commit recorded")
	}
	if e.InputDigest != "" {
		parts = append(parts, "inputs "+e.InputDigest)
	}
	return strings.Join(parts, ", ")
}

// JSONOutput is one output in krm trace -o json (docs/provenance.md, "trace -o json").
type JSONOutput struct {
	genrecord.Output
	Recorded     bool     `json:"recorded"`
	SourceCommit string   `json:"sourceCommit"`
	InputDigest  string   `json:"inputDigest"`
	Applied      string   `json:"applied,omitempty"`
	Sources      []string `json:"sources,omitempty"`
	Current      bool     `json:"current"`
}

// JSONResult is krm trace -o json of one object.
type JSONResult struct {
	Object provmanifest.ObjectID `json:"object"`
	// InputsDigest is the manifest's; Live the verdict on the live object's (match,
	// mismatch, no-digest, or none without a live object).
	InputsDigest string   `json:"inputsDigest"`
	Live         string   `json:"live"`
	Drifted      []string `json:"drifted"`
	// Generation is the live object's metadata.generation, SourceCommit and InputDigest the
	// record of it.
	Generation   int64        `json:"generation"`
	SourceCommit string       `json:"sourceCommit"`
	InputDigest  string       `json:"inputDigest"`
	Record       string       `json:"record,omitempty"`
	RecordError  string       `json:"recordError,omitempty"`
	Outputs      []JSONOutput `json:"outputs"`
}

// WriteJSON writes r as one line of JSON (JSONResult).
func WriteJSON(w io.Writer, r *Result) error {
	j := JSONResult{Object: r.Object.ID, InputsDigest: r.Object.InputsDigest, Drifted: []string{}, Outputs: []JSONOutput{}}
	j.Live = map[Status]string{NoLiveObject: "none", Match: "match", Mismatch: "mismatch", NoDigest: "no-digest"}[r.Status]
	for _, d := range r.Drift {
		j.Drifted = append(j.Drifted, d.Path)
	}
	if out := r.Outputs; out != nil {
		j.Generation, j.Record, j.RecordError = out.Generation, out.Record, out.NoRecord
		if out.LiveKnown {
			j.SourceCommit, j.InputDigest = out.Live.Commit, out.Live.InputDigest
		}
		for i, t := range out.Outputs {
			j.Outputs = append(j.Outputs, JSONOutput{Output: t.Output, Recorded: t.Recorded, SourceCommit: t.Entry.Commit,
				InputDigest: t.Entry.InputDigest, Applied: t.Entry.Applied, Sources: out.Sources[i], Current: t.Current})
		}
	}
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
