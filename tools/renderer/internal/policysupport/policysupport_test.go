package policysupport

import (
	"errors"
	"testing"
)

// New gives what is registered, and its error; nothing without.
func TestNew(t *testing.T) {
	if c, err := New(); c != nil || err != nil {
		t.Errorf("New without a checker: %v, %v", c, err)
	}
	handedOff := errors.New("handed to krm_helm")
	Register = func() (Checker, error) { return nil, handedOff }
	defer func() { Register = nil }()
	if _, err := New(); !errors.Is(err, handedOff) {
		t.Errorf("New: %v, want the registered checker's error", err)
	}
}
