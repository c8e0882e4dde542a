package starlarkfn

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/gcpace"
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
	// MaxMemory bounds how much a run may grow the memory the process
	// holds (the Go runtime's, not returned to the OS: the heap, its
	// garbage and free pages, stacks), which bounds its resident memory:
	// past MaxMemory-memoryReserve the script stops at its next operation;
	// one operation (a string doubling, a list repeat, a join) that asks
	// for memory past MaxMemory makes krm stop at once, before the memory
	// is used: it cannot interrupt an operation, so it reports the error
	// and exits (no output is being written while a script runs).
	MaxMemory = 1 << 30
	// MaxCallDepth bounds recursion (Starlark calls in progress).
	MaxCallDepth = 1000
	// MaxNesting bounds how deep json.decode input and the values a script
	// returns may nest.
	MaxNesting = 1000
	// Timeout bounds a run's wall-clock time, for work the step count
	// cannot see (a built-in scanning a large list).
	Timeout = 5 * time.Minute

	// checkEvery is how often (in steps) a run checks its limits at
	// most; a run that allocates checks every checkBytes it allocates.
	checkEvery = 4096
	checkBytes = 16 << 20
	// collectAfter is how much garbage a run may pile up before it
	// collects it: the collector's own pacing is off during a run, since
	// a collection that starts during a long operation (a 1 GiB copy,
	// which cannot be preempted) stops every goroutine, the watchdog too.
	collectAfter = 64 << 20
	// watchEvery is how often the watchdog checks memory and time.
	watchEvery = time.Millisecond
	// memoryReserve is how far below its memory limit a run stops at a
	// check, so that what it allocates until the next one (checkBytes at
	// the rate seen) stays below the limit the watchdog enforces.
	memoryReserve = 2 * checkBytes
)

// budgetKey is the thread-local key of the steps a thread's run had
// already taken when the thread started (loaded modules run in threads
// of their own).
const budgetKey = "krm.steps"

// budget enforces the limits of one run across the threads of its
// modules: steps and memory are checked on the running thread every
// checkEvery steps or checkBytes allocated, memory and time also by a
// watchdog goroutine, which cancels the running thread or, when one
// operation has asked for memory past maxMemory, stops krm.
type budget struct {
	maxSteps uint64
	// maxMemory is how much the run may grow the memory the process holds
	// (MaxMemory; lower in tests).
	maxMemory uint64
	cpu       func() time.Duration // CPU time of the run's OS thread so far
	cpuBase   time.Duration
	allocBase uint64
	heapBase  uint64
	heldBase  uint64
	deadline  time.Time
	current   atomic.Pointer[starlark.Thread]
	samples   []metrics.Sample
	stop      chan struct{}
	done      chan struct{}

	// Kept by the running thread's checks.
	lastAllocs uint64 // allocated bytes at the last check
	lastSteps  uint64 // steps of the run at the last check
	live       uint64 // heap after the last collection
	// pos is where the run was at its last check, for the watchdog's
	// message.
	pos atomic.Pointer[string]
	// abort reports a limit the watchdog cannot wait for (a single
	// operation past maxMemory) and ends krm.
	abort func(pos, reason string)
}

func newBudget(maxSteps, maxMemory uint64) *budget {
	b := &budget{
		maxSteps: maxSteps, maxMemory: maxMemory,
		deadline: time.Now().Add(Timeout),
		samples:  memorySamples(),
	}
	b.allocBase, b.heapBase, b.heldBase = b.read()
	b.lastAllocs, b.live = b.allocBase, b.heapBase
	return b
}

func memorySamples() []metrics.Sample {
	return []metrics.Sample{
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
}

// read returns the bytes allocated so far, the heap in use and the memory
// the runtime holds: mapped and not returned to the OS, which the
// process's resident memory cannot exceed (binary aside) and which counts
// an allocation as it is made, before the operation that asked for it
// writes to it.
func (b *budget) read() (allocs, heap, held uint64) {
	metrics.Read(b.samples)
	return b.samples[0].Value.Uint64(), b.samples[1].Value.Uint64(), b.samples[2].Value.Uint64() - b.samples[3].Value.Uint64()
}

// stopAt is the memory held past which the run stops at a check.
func (b *budget) stopAt() uint64 {
	return b.heldBase + b.maxMemory - min(memoryReserve, b.maxMemory/4)
}

// start arms thread (the run's main thread, or a loaded module's whose
// run had taken base steps) and makes it the one the watchdog cancels.
// The first check comes at the first step, so that the watchdog knows a
// position from the start.
func (b *budget) start(t *starlark.Thread, base uint64) {
	t.SetLocal(budgetKey, base)
	t.OnMaxSteps = b.check
	t.SetMaxExecutionSteps(t.Steps + 1)
	b.current.Store(t)
}

// arm sets the thread's next check: after interval steps, and no later
// than its step limit.
func (b *budget) arm(t *starlark.Thread, base, interval uint64) {
	next := t.Steps + interval
	if left := b.maxSteps - min(base, b.maxSteps); next > left {
		next = left
	}
	if next <= t.Steps {
		next = t.Steps + 1
	}
	t.SetMaxExecutionSteps(next)
}

// check runs on the thread at each of its checks (its OnMaxSteps).
func (b *budget) check(t *starlark.Thread) {
	base, _ := t.Local(budgetKey).(uint64)
	allocs, heap, held := b.read()
	steps := base + t.Steps + (allocs-b.allocBase)/BytesPerStep
	pos := t.CallFrame(0).Pos.String()
	b.pos.Store(&pos)
	// Collect after garbage of half the live heap (at most maxMemory/2,
	// since garbage counts towards the limit), before the memory held nears
	// the limit, and before deciding that it is over. Past half the limit,
	// what is free goes back to the OS too (the limit is on what the
	// process holds), so that memory the heap no longer uses leaves room
	// for the next operation. Here no operation is running, so the
	// collection is quick to start.
	garbage := max(collectAfter, min(b.live/2, b.maxMemory/2))
	nearLimit := held >= b.heldBase+b.maxMemory/2
	if heap >= b.live+garbage || (held >= b.heldBase+b.maxMemory*3/4 && heap >= b.live+collectAfter) ||
		(nearLimit && held >= heap+collectAfter) || held >= b.stopAt() {
		if nearLimit {
			debug.FreeOSMemory()
		} else {
			runtime.GC()
		}
		_, heap, held = b.read()
		b.live = heap
	}
	switch {
	case steps >= b.maxSteps:
		t.Cancel(fmt.Sprintf("the script exceeded its limit of %d steps (operations, and one per %d bytes allocated); raise maxSteps (at most %d) in the %s config if it really needs more",
			b.maxSteps, BytesPerStep, uint64(MaxStepsCeiling), Kind))
	case t.CallStackDepth() > MaxCallDepth:
		t.Cancel(fmt.Sprintf("recursion deeper than %d calls", MaxCallDepth))
	case held >= b.stopAt():
		t.Cancel(b.memoryError())
	default:
		if reason := b.overTime(); reason != "" {
			t.Cancel(reason)
			return
		}
		// Check again after checkBytes more allocation at the rate since
		// the last check, and no more than twice as many steps later.
		run := base + t.Steps - min(b.lastSteps, base+t.Steps)
		interval := min(checkEvery, 2*max(1, run))
		if allocs > b.lastAllocs {
			interval = min(interval, max(1, run*checkBytes/(allocs-b.lastAllocs)))
		}
		b.lastAllocs, b.lastSteps = allocs, base+t.Steps
		b.arm(t, base, interval)
	}
}

func (b *budget) memoryError() string {
	return fmt.Sprintf("the script used more than %d MiB of memory", b.maxMemory>>20)
}

// overTime says which of wall-clock and CPU time a run exceeds, if any.
func (b *budget) overTime() string {
	if time.Now().After(b.deadline) {
		return fmt.Sprintf("the script ran longer than %s", Timeout)
	}
	if b.cpu != nil {
		if limit := max(MinCPU, time.Duration(b.maxSteps)*CPUPerStep); b.cpu()-b.cpuBase > limit {
			return fmt.Sprintf("the script used more than %s of CPU (%s per step of its limit of %d steps; raise maxSteps in the %s config if it really needs more)",
				limit, CPUPerStep, b.maxSteps, Kind)
		}
	}
	return ""
}

// watch starts the watchdog, turns the collector's pacing off (the run's
// checks collect instead) and keeps the run on its OS thread (whose CPU
// time the watchdog counts); the returned function undoes all three.
func (b *budget) watch() (stop func()) {
	runtime.LockOSThread()
	b.cpu = threadCPU()
	b.cpuBase = b.cpu()
	resume := pauseCollector()
	b.stop, b.done = make(chan struct{}), make(chan struct{})
	w := &budget{maxSteps: b.maxSteps, cpu: b.cpu, cpuBase: b.cpuBase, deadline: b.deadline, samples: memorySamples()}
	go func() {
		defer close(b.done)
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-tick.C:
				reason := w.overTime()
				if _, _, held := w.read(); held >= b.heldBase+b.maxMemory {
					pos := ""
					if p := b.pos.Load(); p != nil {
						pos = *p
					}
					b.abort(pos, fmt.Sprintf("%s (one operation took it %d MiB past the limit; krm stopped at once, before the operation wrote to that memory)",
						b.memoryError(), (held-b.heldBase-b.maxMemory)>>20))
					return
				}
				if reason != "" {
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
		resume()
		runtime.UnlockOSThread()
	}
}

// collector holds the collector's settings while runs (which may overlap
// in tests) have its pacing off.
var collector struct {
	sync.Mutex
	runs     int
	resume   func() // gcpace's pacing
	memLimit int64
}

// pauseCollector turns the collector's pacing off until the last run that
// paused it resumes it.
func pauseCollector() (resume func()) {
	collector.Lock()
	defer collector.Unlock()
	if collector.runs++; collector.runs == 1 {
		collector.resume = gcpace.Pause()
		collector.memLimit = debug.SetMemoryLimit(math.MaxInt64)
	}
	return func() {
		collector.Lock()
		defer collector.Unlock()
		if collector.runs--; collector.runs == 0 {
			collector.resume()
			debug.SetMemoryLimit(collector.memLimit)
		}
	}
}
