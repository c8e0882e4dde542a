// Command plot draws the figures of dev/scripts/bench-scale.sh as an SVG: wall seconds of each
// step (the kustomize loops, the clean, no-op, edit and cached builds) against the number of
// kustomization directories, one line a step, on logarithmic axes (a line that grows as the
// repository does has slope one; cost that follows the change stays flat).
//
// Usage:
//
//	plot TSV > scale.svg
//
// TSV holds the lines dev/scripts/bench-gazelle.sh appends (its BENCH_COLUMNS); several lines of
// one size (several runs) are drawn at their median. The output depends only on the input.
package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// A series is one step of the benchmark: its column in the TSV and how it is drawn.
type series struct {
	name   string
	column int
	color  string
	dashed bool
}

// The columns of BENCH_COLUMNS (dev/scripts/bench-gazelle.sh) that are wall seconds, then those of
// PRDIFF_COLUMNS (dev/scripts/bench-prdiff.sh) that dev/scripts/bench-scale.sh appends to each line:
// drawn when every size has them.
var steps = []series{
	{"kustomize loop, one after another", 3, "#888888", true},
	{"kustomize loop, xargs -P", 4, "#444444", true},
	{"bazel build //..., empty cache", 5, "#1f77b4", false},
	{"second output base, from the disk cache", 8, "#2ca02c", false},
	{"one leaf base edited", 7, "#ff7f0e", false},
	{"no-op", 6, "#d62728", false},
	{"pull request: kustomize both sides + diff", 24, "#8c564b", true},
	{"pull request: prdiff, cold CI job", 20, "#9467bd", false},
	{"pull request: prdiff, base renders given", 23, "#e377c2", false},
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: plot TSV > scale.svg")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
	defer f.Close()
	rows, err := read(f)
	if err == nil {
		err = draw(os.Stdout, rows)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

// read returns, per size (the first column), the median of each column over its lines.
func read(r io.Reader) (map[float64][]float64, error) {
	bySize := map[float64][][]float64{}
	s := bufio.NewScanner(r)
	for n := 1; s.Scan(); n++ {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var row []float64
		for i, field := range strings.Split(line, "\t") {
			v, err := strconv.ParseFloat(field, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d, column %d: %q is not a number", n, i+1, field)
			}
			row = append(row, v)
		}
		if len(row) < 9 {
			return nil, fmt.Errorf("line %d: %d columns, want at least 9 (BENCH_COLUMNS)", n, len(row))
		}
		bySize[row[0]] = append(bySize[row[0]], row)
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	if len(bySize) == 0 {
		return nil, fmt.Errorf("no figures")
	}
	medians := map[float64][]float64{}
	for size, rows := range bySize {
		m := make([]float64, len(rows[0]))
		for c := range m {
			var col []float64
			for _, r := range rows {
				if c < len(r) {
					col = append(col, r[c])
				}
			}
			sort.Float64s(col)
			m[c] = col[len(col)/2]
		}
		medians[size] = m
	}
	return medians, nil
}

const (
	width, height     = 840, 460
	left, right       = 70, 330
	top, bottom       = 30, 60
	plotW, plotH      = width - left - right, height - top - bottom
	minSeconds        = 0.1
	legendX, legendDY = width - right + 20, 22
)

func draw(w io.Writer, rows map[float64][]float64) error {
	var sizes []float64
	for s := range rows {
		sizes = append(sizes, s)
	}
	sort.Float64s(sizes)
	var drawn []series
	for _, st := range steps {
		all := true
		for _, r := range rows {
			all = all && st.column < len(r)
		}
		if all {
			drawn = append(drawn, st)
		}
	}
	maxS := minSeconds
	for _, r := range rows {
		for _, st := range drawn {
			maxS = math.Max(maxS, r[st.column])
		}
	}
	x0, x1 := math.Log10(sizes[0]*0.8), math.Log10(sizes[len(sizes)-1]*1.25)
	y0, y1 := math.Log10(minSeconds), math.Ceil(math.Log10(maxS))
	x := func(size float64) float64 { return left + (math.Log10(size)-x0)/(x1-x0)*plotW }
	y := func(sec float64) float64 {
		return top + plotH - (math.Log10(math.Max(sec, minSeconds))-y0)/(y1-y0)*plotH
	}

	b := &strings.Builder{}
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", width, height)
	fmt.Fprintf(b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height)
	// Axes, with a grid line at each power of ten seconds and at each size.
	for e := y0; e <= y1+1e-9; e++ {
		sec := math.Pow(10, math.Round(e))
		fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", left, y(sec), left+plotW, y(sec))
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s s</text>\n", left-6, y(sec)+4, strconv.FormatFloat(sec, 'f', -1, 64))
	}
	for _, s := range sizes {
		fmt.Fprintf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>\n", x(s), top, x(s), top+plotH)
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x(s), top+plotH+16, int(s))
	}
	fmt.Fprintf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", left, top, plotW, plotH)
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">kustomization directories (log)</text>\n", left+plotW/2, height-18)
	fmt.Fprintf(b, "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">wall seconds (log)</text>\n", top+plotH/2, top+plotH/2)
	for i, st := range drawn {
		var pts []string
		for _, s := range sizes {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(s), y(rows[s][st.column])))
		}
		dash := ""
		if st.dashed {
			dash = " stroke-dasharray=\"6 4\""
		}
		fmt.Fprintf(b, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", strings.Join(pts, " "), st.color, dash)
		for _, p := range pts {
			xy := strings.Split(p, ",")
			fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"/>\n", xy[0], xy[1], st.color)
		}
		ly := top + 10 + i*legendDY
		fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", legendX, ly, legendX+24, ly, st.color, dash)
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\">%s</text>\n", legendX+30, ly+4, st.name)
	}
	fmt.Fprintln(b, "</svg>")
	_, err := io.WriteString(w, b.String())
	return err
}
