package execfn

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupts kills the process groups of running functions when krm gets
// SIGINT or SIGTERM: they run in groups of their own, which a Ctrl-C at
// the terminal does not reach and which would outlive krm. krm catches
// the signals only while functions run, and the function that was running
// fails, so the build fails and writes nothing. At other times the
// signals end krm as usual (no function is left to kill).
var interrupts = &interrupter{groups: map[int]func(string){}}

type interrupter struct {
	mu      sync.Mutex
	holders int                  // functions starting or running
	groups  map[int]func(string) // kill functions of running groups, by pid
	ch      chan os.Signal
	done    chan struct{} // closed when forward has handled every signal
	got     os.Signal     // the signal krm got while functions ran
}

// hold catches the signals until the returned release is called; call it
// before starting a function, so that no signal is missed. release returns
// the signal krm got, if any, once it no longer catches them.
func (in *interrupter) hold() (release func() os.Signal) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.holders == 0 {
		in.ch, in.done, in.got = make(chan os.Signal, 1), make(chan struct{}), nil
		for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM} {
			if !signal.Ignored(s) { // nohup and background jobs ignore SIGINT
				signal.Notify(in.ch, s)
			}
		}
		go in.forward(in.ch, in.done)
	}
	in.holders++
	return in.release
}

func (in *interrupter) release() os.Signal {
	in.mu.Lock()
	if in.holders--; in.holders > 0 {
		in.mu.Unlock()
		return nil
	}
	signal.Stop(in.ch)
	close(in.ch)
	done := in.done
	in.mu.Unlock()
	<-done
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.got
}

func (in *interrupter) forward(ch chan os.Signal, done chan struct{}) {
	defer close(done)
	for s := range ch {
		in.mu.Lock()
		in.got = s
		for _, kill := range in.groups {
			kill(interruptedBy(s))
		}
		in.mu.Unlock()
	}
}

func interruptedBy(s os.Signal) string {
	name := s.String()
	switch s {
	case syscall.SIGINT:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	}
	return "krm got " + name + " and killed the function's processes"
}

// add registers the group of a started function; kill runs at once if krm
// got a signal while the function started.
func (in *interrupter) add(pid int, kill func(string)) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.groups[pid] = kill
	if in.got != nil {
		kill(interruptedBy(in.got))
	}
}

func (in *interrupter) remove(pid int) {
	in.mu.Lock()
	defer in.mu.Unlock()
	delete(in.groups, pid)
}
