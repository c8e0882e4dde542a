package convergence

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

// Target is one object to wait for.
type Target struct {
	// Name is how messages name it (Deployment.apps shop/web).
	Name string
	// Get reads it live; nil and no error when it does not exist.
	Get func(context.Context) (map[string]any, error)
}

// Event is a change of an object's state while waiting.
type Event struct {
	Name   string
	Result Result
	// Generation is the live generation the result is of.
	Generation int64
	// Current is how many of Total objects are current.
	Current, Total int
}

// Options are how long and how often to look.
type Options struct {
	// Timeout bounds the whole wait (0: a minute).
	Timeout time.Duration
	// Interval is the pause between two rounds of reads (0: a second).
	Interval time.Duration
	// Paths are the per-kind output paths (--output-path).
	Paths []genrecord.OutputPath
	// Progress receives each change of an object's state; nil drops them.
	Progress func(Event)
}

// NotConvergedError names each object that did not become current, and why.
type NotConvergedError struct {
	// Timeout is set when the wait timed out (else every pending object failed).
	Timeout time.Duration
	Total   int
	Pending []Pending
}

// Pending is an object that did not converge and the condition or field that says why.
type Pending struct {
	Name   string
	Result Result
}

func (e *NotConvergedError) Error() string {
	var b strings.Builder
	if e.Timeout > 0 {
		fmt.Fprintf(&b, "%d of %d objects not current after %s:", len(e.Pending), e.Total, e.Timeout)
	} else {
		fmt.Fprintf(&b, "%d of %d objects failed:", len(e.Pending), e.Total)
	}
	for _, p := range e.Pending {
		fmt.Fprintf(&b, "\n  %s: %s", p.Name, p.Result.State)
		if p.Result.Reason != "" {
			b.WriteString(": " + p.Result.Reason)
		}
	}
	return b.String()
}

// Wait reads the targets until every one is current, every one that is not has failed, the
// timeout passes or ctx ends. A read error is the object's reason until a read succeeds.
func Wait(ctx context.Context, targets []Target, o Options) error {
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	last := make([]Result, len(targets))
	current := 0
	for {
		failed := 0
		for i, t := range targets {
			if last[i].State == Current {
				continue
			}
			obj, err := t.Get(ctx)
			var r Result
			switch {
			case ctx.Err() != nil:
				r = last[i]
			case err != nil:
				r = Result{State: InProgress, Reason: "not read: " + err.Error()}
			case obj == nil:
				r = Result{State: NotFound, Reason: "not found"}
			default:
				r = Status(obj, o.Paths)
			}
			if r.State == Current {
				current++
			}
			if r.State == Failed {
				failed++
			}
			if r != last[i] && r.State != "" {
				last[i] = r
				if o.Progress != nil {
					o.Progress(Event{Name: t.Name, Result: r, Generation: genrecord.Generation(obj), Current: current, Total: len(targets)})
				}
			}
		}
		if current == len(targets) {
			return nil
		}
		if failed == len(targets)-current {
			return notConverged(targets, last, 0)
		}
		select {
		case <-ctx.Done():
			return notConverged(targets, last, o.Timeout)
		case <-time.After(o.Interval):
		}
	}
}

func notConverged(targets []Target, last []Result, timeout time.Duration) error {
	e := &NotConvergedError{Timeout: timeout, Total: len(targets)}
	for i, t := range targets {
		if last[i].State != Current {
			r := last[i]
			if r.State == "" {
				r = Result{State: InProgress, Reason: "not read before the timeout"}
			}
			e.Pending = append(e.Pending, Pending{Name: t.Name, Result: r})
		}
	}
	return e
}
