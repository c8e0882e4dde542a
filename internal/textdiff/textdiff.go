// Package textdiff prints unified line diffs, for golden tests and the
// differential suite.
package textdiff

import (
	"fmt"
	"strings"
)

// maxCells bounds the longest-common-subsequence table; past it, Unified shows one
// hunk from the first to the last differing line instead of a minimal diff.
const maxCells = 4_000_000

// Unified returns a unified diff of a (-) and b (+) with context lines around each
// change, cut after maxLines lines of output.
func Unified(a, b string, context, maxLines int) string {
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out []string
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before this change to context lines after the
		// last change that is at most 2*context equal lines away.
		start := max(i-context, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(end+context+1, len(ops))
		ai, bi, an, bn := ops[start].a, ops[start].b, 0, 0
		for _, op := range ops[start:stop] {
			if op.kind != '+' {
				an++
			}
			if op.kind != '-' {
				bn++
			}
		}
		out = append(out, fmt.Sprintf("@@ -%s +%s @@", hunkRange(ai, an), hunkRange(bi, bn)))
		for _, op := range ops[start:stop] {
			out = append(out, string(op.kind)+op.text)
		}
		i = stop
	}
	if len(out) > maxLines {
		out = append(out[:maxLines], fmt.Sprintf("... (%d more lines of diff)", len(out)-maxLines))
	}
	return strings.Join(out, "\n") + "\n"
}

// hunkRange formats the start,count of a hunk header as diff -u does (an empty range
// starts at the line before it).
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

type diffOp struct {
	kind rune // ' ', '-' or '+'
	text string
	a, b int // line indexes in a and b where this op starts
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if strings.HasSuffix(l, "\n") {
			lines[i] = strings.TrimSuffix(l, "\n")
		} else {
			lines[i] = l + "\n\\ No newline at end of file"
		}
	}
	return lines
}

// diffLines returns an edit script turning x into y.
func diffLines(x, y []string) []diffOp {
	var ops []diffOp
	// Common prefix and suffix need no table.
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		ops = append(ops, diffOp{' ', x[p], p, p})
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	mx, my := x[p:len(x)-s], y[p:len(y)-s]
	n, m := len(mx), len(my)
	if n*m > maxCells {
		for i, l := range mx {
			ops = append(ops, diffOp{'-', l, p + i, p})
		}
		for j, l := range my {
			ops = append(ops, diffOp{'+', l, p + n, p + j})
		}
	} else {
		// lcs[i][j]: length of the longest common subsequence of mx[i:] and my[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if mx[i] == my[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && mx[i] == my[j]:
				ops = append(ops, diffOp{' ', mx[i], p + i, p + j})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffOp{'-', mx[i], p + i, p + j})
				i++
			default:
				ops = append(ops, diffOp{'+', my[j], p + i, p + j})
				j++
			}
		}
	}
	for k := 0; k < s; k++ {
		ops = append(ops, diffOp{' ', x[len(x)-s+k], len(x) - s + k, len(y) - s + k})
	}
	return ops
}
