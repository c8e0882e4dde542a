package convergence

import (
	"fmt"
	"io"
	"sync"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
)

// maxLive bounds the live line, so that a long reason does not wrap and break the rewrite.
const maxLive = 160

// Printer writes a wait's progress: a line per object as it becomes current; the others'
// changes on one live line rewritten in place on a terminal, else a line each. It writes to
// the terminal itself (its own control sequences must reach it), so it escapes what it
// prints of the objects (names and reasons, from manifests and the cluster) itself.
type Printer struct {
	w    io.Writer
	live bool
	mu   sync.Mutex
	open bool // a live line is on screen
}

// NewPrinter writes to w; live says w is a terminal, and then w must be the terminal itself
// (an escaping writer would show the redraws as text).
func NewPrinter(w io.Writer, live bool) *Printer { return &Printer{w: w, live: live} }

// Event prints one change (a Progress of Options).
func (p *Printer) Event(e Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	name := escape.Line(e.Name)
	line := name + " " + string(e.Result.State)
	if e.Result.State == Current && e.Generation > 0 {
		line = fmt.Sprintf("%s current (generation %d)", name, e.Generation)
	} else if e.Result.Reason != "" {
		line += ": " + escape.Line(e.Result.Reason)
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
		fmt.Fprint(p.w, escape.Cut(count+line, maxLive-len("…")))
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
