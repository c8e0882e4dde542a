package rdiff

import (
	"fmt"
	"strings"
)

const (
	// contextLines around each change, as diff -u prints.
	contextLines = 3
	// maxLCSCells bounds the quadratic table of the line diff; past it the
	// changed middle is shown as all removed, then all added.
	maxLCSCells = 4 << 20
)

// op is one line of a line diff: ' ' kept, '-' removed, '+' added.
type op struct {
	kind byte
	text string
}

// lineDiff returns a unified diff of two multi-line strings: hunk headers
// ("@@ -1,3 +1,4 @@") and lines starting with ' ', '-' or '+'.
func lineDiff(a, b string) []string {
	if strings.HasSuffix(a, "\n") && strings.HasSuffix(b, "\n") {
		// Not an empty last line on both sides.
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	return hunks(lineOps(strings.Split(a, "\n"), strings.Split(b, "\n")))
}

func lineOps(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops
}

// middle diffs the lines between the common prefix and suffix by a longest
// common subsequence.
func middle(a, b []string) []op {
	var ops []op
	if (len(a)+1)*(len(b)+1) > maxLCSCells {
		for _, l := range a {
			ops = append(ops, op{'-', l})
		}
		for _, l := range b {
			ops = append(ops, op{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			ops = append(ops, op{'-', a[i]}) // removals first, as diff prints them
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	return ops
}

// hunks groups the changed lines with contextLines around them.
func hunks(ops []op) []string {
	var out []string
	for start := 0; start < len(ops); {
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		// Extend the hunk while the next change is within two contexts.
		end := first
		for k := first; k < len(ops); k++ {
			if ops[k].kind != ' ' {
				end = k + 1
			} else if k-end >= 2*contextLines {
				break
			}
		}
		lo, hi := max(first-contextLines, start), min(end+contextLines, len(ops))
		aLine, bLine := 1, 1
		for _, o := range ops[:lo] {
			aLine, bLine = aLine+count(o, '-'), bLine+count(o, '+')
		}
		aN, bN := 0, 0
		for _, o := range ops[lo:hi] {
			aN, bN = aN+count(o, '-'), bN+count(o, '+')
		}
		out = append(out, fmt.Sprintf("@@ -%s +%s @@", span(aLine, aN), span(bLine, bN)))
		for _, o := range ops[lo:hi] {
			out = append(out, string(o.kind)+o.text)
		}
		start = hi
	}
	return out
}

// count is 1 if the line is on side ('-' old, '+' new).
func count(o op, side byte) int {
	if o.kind == ' ' || o.kind == side {
		return 1
	}
	return 0
}

// span is diff -u's START,COUNT (an empty side starts at the line before).
func span(start, n int) string {
	if n == 0 {
		start--
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
