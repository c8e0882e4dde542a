package crdsupport

import "testing"

// New gives what is registered, told whether the inputs can be read again; nothing without.
func TestNew(t *testing.T) {
	if c, err := New(true); c != nil || err != nil {
		t.Errorf("New without a checker: %v, %v", c, err)
	}
	var got []bool
	Register = func(replayable bool) (Checker, error) {
		got = append(got, replayable)
		return nil, nil
	}
	defer func() { Register = nil }()
	New(true)
	New(false)
	if len(got) != 2 || !got[0] || got[1] {
		t.Errorf("Register called with %v, want [true false]", got)
	}
}
