package convergence

import (
	"fmt"
	"io"
	"sync"
)

// maxLive bounds the live line, so that a long reason does not wrap and break the rewrite.
const maxLive = 160

// Printer writes a wait's progress: a line per object as it becomes current; the others'
// changes on one live line rewritten in place on a terminal, else a line each.
type Printer struct {
	w    io.Writer
	live bool
	mu   sync.Mutex
	open bool // a live line is on screen
}

// NewPrinter writes to w; live says w is a terminal.
func NewPrinter(w io.Writer, live bool) *Printer { return &Printer{w: w, live: live} }

// Event prints one change (a Progress of Options).
func (p *Printer) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := e.Name + " " + string(e.Result.State)
	if e.Result.State == Current && e.Generation > 0 {
		line = fmt.Sprintf("%s current (generation %d)", e.Name, e.Generation)
	} else if e.Result.Reason != "" {
		line += ": " + e.Result.Reason
	}
	count := fmt.Sprintf("[%d/%d current] ", e.Current, e.Total)
	switch {
	case !p.live:
		fmt.Fprintln(p.w, count+line)
	case e.Result.State == Current:
		p.clear()
		fmt.Fprintln(p.w, line)
	default:
		p.clear()
		l := count + line
		if len(l) > maxLive {
			l = l[:maxLive-3] + "..."
		}
		fmt.Fprint(p.w, l)
		p.open = true
	}
}

// Done ends a live line.
func (p *Printer) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

func (p *Printer) clear() {
	if p.open {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.open = false
	}
}
