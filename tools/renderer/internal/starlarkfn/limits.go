package starlarkfn

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
)

// Limits of one script run (docs/cli.md, "Limits"). A config can lower
// the step limit with maxSteps and raise it up to MaxStepsCeiling; the
// others are fixed.
const (
	// DefaultMaxSteps bounds a run when the config sets no maxSteps: far
	// more than scripts over thousands of resources take, and a fraction
	// of a second of computation.
	DefaultMaxSteps = 10_000_000
	// MaxStepsCeiling is the most maxSteps can ask for.
	MaxStepsCeiling = 200_000_000
	// BytesPerStep charges the work of built-in functions and operators
	// (a string or list repeat, sorted, join, replace, ...) as steps: every
	// BytesPerStep bytes a run allocates count as one step.
	BytesPerStep = 256
	// CPUPerStep bounds work the allocation does not show (a built-in
	// scanning a large list): a run may take CPUPerStep of CPU time per
	// step of its limit (10s by default), and at least MinCPU.
	CPUPerStep = time.Microsecond
	MinCPU     = 10 * time.Second
	// MaxMemory bounds how much a run may grow the heap, garbage not yet
	// collected included (during a run the collector aims below it).
	MaxMemory = 1 << 30
	// MaxCallDepth bounds recursion (Starlark calls in progress).
	MaxCallDepth = 1000
	// MaxNesting bounds how deep json.decode input and the values a script
	// returns may nest.
	MaxNesting = 1000
	// Timeout bounds a run's wall-clock time, for work the step count
	// cannot see (a built-in scanning a large list).
	Timeout = 5 * time.Minute

	// checkEvery is how often (in steps) a run checks its limits.
	checkEvery = 4096
	// watchEvery is how often the watchdog checks memory and time.
	watchEvery = 5 * time.Millisecond
)

// budgetKey is the thread-local key of the steps a thread's run had
// already taken when the thread started (loaded modules run in threads
// of their own).
const budgetKey = "krm.steps"

// budget enforces the limits of one run across the threads of its
// modules: steps are checked every checkEvery steps on the running thread,
// memory and time also by a watchdog goroutine, which cancels the running
// thread (a single operation can double a string).
type budget struct {
	maxSteps  uint64
	cpu       func() time.Duration // CPU time of the run's OS thread so far
	cpuBase   time.Duration
	allocBase uint64
	heapBase  uint64
	deadline  time.Time
	current   atomic.Pointer[starlark.Thread]
	samples   []metrics.Sample
	stop      chan struct{}
	done      chan struct{}
}

func newBudget(maxSteps uint64) *budget {
	b := &budget{
		maxSteps: maxSteps,
		deadline: time.Now().Add(Timeout),
		samples: []metrics.Sample{
			{Name: "/gc/heap/allocs:bytes"},
			{Name: "/memory/classes/heap/objects:bytes"},
		},
	}
	b.allocBase, b.heapBase = b.read()
	return b
}

// read returns the bytes allocated so far and the heap in use.
func (b *budget) read() (allocs, heap uint64) {
	metrics.Read(b.samples)
	return b.samples[0].Value.Uint64(), b.samples[1].Value.Uint64()
}

// start arms thread (the run's main thread, or a loaded module's whose
// run had taken base steps) and makes it the one the watchdog cancels.
func (b *budget) start(t *starlark.Thread, base uint64) {
	t.SetLocal(budgetKey, base)
	t.OnMaxSteps = b.check
	b.arm(t, base)
	b.current.Store(t)
}

func (b *budget) arm(t *starlark.Thread, base uint64) {
	next := t.Steps + checkEvery
	if left := b.maxSteps - min(base, b.maxSteps); next > left {
		next = left
	}
	if next <= t.Steps {
		next = t.Steps + 1
	}
	t.SetMaxExecutionSteps(next)
}

// steps is what the run has spent: the steps of its threads plus its
// allocation, charged at BytesPerStep.
func (b *budget) steps(t *starlark.Thread) (steps, base uint64, heap uint64) {
	base, _ = t.Local(budgetKey).(uint64)
	allocs, heap := b.read()
	return base + t.Steps + (allocs-b.allocBase)/BytesPerStep, base, heap
}

// check runs on the thread every checkEvery steps (its OnMaxSteps).
func (b *budget) check(t *starlark.Thread) {
	steps, base, heap := b.steps(t)
	switch {
	case steps >= b.maxSteps:
		t.Cancel(fmt.Sprintf("the script exceeded its limit of %d steps (operations, and one per %d bytes allocated); raise maxSteps (at most %d) in the %s config if it really needs more",
			b.maxSteps, BytesPerStep, uint64(MaxStepsCeiling), Kind))
	case t.CallStackDepth() > MaxCallDepth:
		t.Cancel(fmt.Sprintf("recursion deeper than %d calls", MaxCallDepth))
	default:
		if reason := b.overLimit(); reason != "" {
			t.Cancel(reason)
			return
		}
		b.arm(t, base)
		if heap > b.heapBase+MaxMemory/2 {
			// One operation can double the largest value: look at every step.
			t.SetMaxExecutionSteps(t.Steps + 1)
		}
	}
}

// overLimit says which of memory and time a run exceeds, if any.
func (b *budget) overLimit() string {
	if time.Now().After(b.deadline) {
		return fmt.Sprintf("the script ran longer than %s", Timeout)
	}
	if b.cpu != nil {
		if limit := max(MinCPU, time.Duration(b.maxSteps)*CPUPerStep); b.cpu()-b.cpuBase > limit {
			return fmt.Sprintf("the script used more than %s of CPU (%s per step of its limit of %d steps; raise maxSteps in the %s config if it really needs more)",
				limit, CPUPerStep, b.maxSteps, Kind)
		}
	}
	if _, heap := b.read(); heap >= b.heapBase+MaxMemory {
		return fmt.Sprintf("the script used more than %d MiB of memory", MaxMemory>>20)
	}
	return ""
}

// watch starts the watchdog, has the collector aim below the memory limit
// and keeps the run on its OS thread (whose CPU
// time the watchdog counts); the returned function undoes both.
func (b *budget) watch() (stop func()) {
	runtime.LockOSThread()
	b.cpu = threadCPU()
	b.cpuBase = b.cpu()
	// The collector then runs as the heap nears the limit, which keeps the
	// heap figures the watchdog reads current.
	old := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(old, int64(b.heapBase+MaxMemory)))
	b.stop, b.done = make(chan struct{}), make(chan struct{})
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	w := &budget{maxSteps: b.maxSteps, cpu: b.cpu, cpuBase: b.cpuBase, heapBase: b.heapBase, deadline: b.deadline, samples: samples}
	go func() {
		defer close(b.done)
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-tick.C:
				if reason := w.overLimit(); reason != "" {
					if t := b.current.Load(); t != nil {
						t.Cancel(reason)
					}
				}
			}
		}
	}()
	return func() {
		close(b.stop)
		<-b.done
		debug.SetMemoryLimit(old)
		runtime.UnlockOSThread()
	}
}
