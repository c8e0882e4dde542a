package difftest

import (
	"fmt"
	"strings"
	"testing"
)

const (
	diffContext  = 3   // unchanged lines shown around each change
	diffMaxCells = 4e6 // above this many LCS cells, fall back to a coarse diff
	diffMaxLines = 400 // cap on the printed diff
)

// unifiedDiff returns a line diff of want and got in a unified-like format:
// hunks headed by "@@ -line +line @@", "-" lines only in want, "+" lines only
// in got, and a few lines of context. Lines are printed with visible line
// ends so that differences in trailing whitespace and newlines show up.
func unifiedDiff(want, got string) string {
	a, b := splitLines(want), splitLines(got)
	ops := diffLines(a, b)

	var sb strings.Builder
	printed := 0
	emit := func(format string, args ...any) bool {
		if printed >= diffMaxLines {
			return false
		}
		fmt.Fprintf(&sb, format, args...)
		printed++
		if printed == diffMaxLines {
			sb.WriteString("... (diff truncated)\n")
		}
		return true
	}

	// Group the edit script into hunks with context.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			// Count the run of equal lines; stop the hunk if it is long.
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		if !emit("@@ -%d +%d @@\n", ops[start].aLine+1, ops[start].bLine+1) {
			break
		}
		for _, op := range ops[start:end] {
			if !emit("%c%s\n", op.kind, visible(op.text)) {
				break
			}
		}
		i = end
	}
	if sb.Len() == 0 {
		return "(no line differences)\n"
	}
	return sb.String()
}

type diffOp struct {
	kind  byte // ' ', '-', '+'
	text  string
	aLine int // index in a of this line, or of the next line of a
	bLine int
}

// splitLines splits s after each "\n", keeping the line ends.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func visible(line string) string {
	switch {
	case strings.HasSuffix(line, "\r\n"):
		return strings.TrimSuffix(line, "\r\n") + `\r`
	case strings.HasSuffix(line, "\n"):
		return strings.TrimSuffix(line, "\n")
	default:
		return line + `  \ no newline at end`
	}
}

// diffLines computes an edit script turning a into b (LCS by dynamic
// programming after trimming the common prefix and suffix).
func diffLines(a, b []string) []diffOp {
	var ops []diffOp
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		ops = append(ops, diffOp{' ', a[pre], pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if float64(n+1)*float64(m+1) > diffMaxCells {
		for i, l := range ma {
			ops = append(ops, diffOp{'-', l, pre + i, pre})
		}
		for j, l := range mb {
			ops = append(ops, diffOp{'+', l, pre + n, pre + j})
		}
	} else {
		// lcs[i][j] = LCS length of ma[i:] and mb[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, diffOp{' ', ma[i], pre + i, pre + j})
				i++
				j++
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffOp{'-', ma[i], pre + i, pre + j})
				i++
			default:
				ops = append(ops, diffOp{'+', mb[j], pre + i, pre + j})
				j++
			}
		}
	}
	for k := len(a) - suf; k < len(a); k++ {
		ops = append(ops, diffOp{' ', a[k], k, len(b) - len(a) + k})
	}
	return ops
}

func TestUnifiedDiff(t *testing.T) {
	want := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	got := "a\nb\nc\nd\nE\nf\ng\nh\ni\nj"
	d := unifiedDiff(want, got)
	for _, s := range []string{"@@ -2 +2 @@\n", "-e\n+E\n", "-j\n+j  \\ no newline at end\n", " d\n"} {
		if !strings.Contains(d, s) {
			t.Errorf("diff lacks %q:\n%s", s, d)
		}
	}
	if strings.Contains(d, " a\n") {
		t.Errorf("diff shows too much context:\n%s", d)
	}
	if got := unifiedDiff("x\n", "x\n"); got != "(no line differences)\n" {
		t.Errorf("equal inputs: %q", got)
	}
}
