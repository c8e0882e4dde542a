package genrecord

// Traced is one output and the recorded inputs of the generation it reflects.
type Traced struct {
	Output
	// Recorded is set when the record has the generation: Entry holds its inputs. Unset: the
	// generation was made by someone else (another field manager, kubectl) or collected.
	Recorded bool  `json:"recorded"`
	Entry    Entry `json:"-"`
	// Current: the output reflects the live generation.
	Current bool `json:"current"`
}

// Report is what a live object's outputs reflect.
type Report struct {
	Key Key
	// Generation is the live object's metadata.generation; Live the record of it.
	Generation int64
	Live       Entry
	LiveKnown  bool
	Outputs    []Traced
}

// Correlate finds, for each output of the live object obj, the recorded inputs of the
// generation it reflects (rec may be nil: none) and whether it is current.
func Correlate(obj map[string]any, rec *Record, paths []OutputPath) Report {
	k := KeyOf(obj)
	r := Report{Key: k, Generation: Generation(obj)}
	r.Live, r.LiveKnown = rec.Lookup(k, r.Generation)
	for _, o := range Outputs(obj, paths) {
		t := Traced{Output: o, Current: o.ObservedGeneration == r.Generation}
		t.Entry, t.Recorded = rec.Lookup(k, o.ObservedGeneration)
		r.Outputs = append(r.Outputs, t)
	}
	return r
}

// Current tells whether every output reflects the live generation (false with no outputs:
// nothing says so).
func (r Report) Current() bool {
	for _, o := range r.Outputs {
		if !o.Current {
			return false
		}
	}
	return len(r.Outputs) > 0
}

// Strongest is the output that best says what the status reflects: the Ready condition,
// else the output (condition or output path: the RFC's output generations) of the lowest
// generation, else status.observedGeneration; ok is false without outputs.
func (r Report) Strongest() (Traced, bool) {
	best := -1
	for i, o := range r.Outputs {
		switch {
		case o.Kind == KindCondition && o.Path == ".status.conditions[type=Ready]":
			return o, true
		case o.Weak:
		case best < 0 || o.ObservedGeneration < r.Outputs[best].ObservedGeneration:
			best = i
		}
	}
	if best < 0 && len(r.Outputs) > 0 {
		best = len(r.Outputs) - 1
	}
	if best < 0 {
		return Traced{}, false
	}
	return r.Outputs[best], true
}
