package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// readFixture reads testdata/NAME as plot reads its TSV.
func readFixture(t *testing.T, name string) map[float64][]float64 {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := read(f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestPlot(t *testing.T) {
	rows := readFixture(t, "two-sizes.tsv")
	// Two lines of 1124: the median of two is the larger (index len/2).
	if got := rows[1124][5]; got != 44 {
		t.Errorf("clean build of 1124 = %v, want the median 44", got)
	}
	var a, b bytes.Buffer
	if err := draw(&a, rows); err != nil {
		t.Fatal(err)
	}
	if err := draw(&b, rows); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("two drawings of the same figures differ")
	}
	svg := a.String()
	for _, want := range []string{"<svg ", ">324<", ">1124<", "no-op", "kustomize loop, xargs -P", "</svg>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if n := strings.Count(svg, "<polyline"); n != 6 || strings.Contains(svg, "pull request") {
		t.Errorf("%d lines, want the 6 of bench-gazelle's columns and none of the pull-request flow's", n)
	}
}

// With bench-prdiff's columns appended (dev/scripts/bench-scale.sh), the pull-request lines are
// drawn too.
func TestPlotPullRequests(t *testing.T) {
	rows := readFixture(t, "with-prdiff.tsv")
	var b bytes.Buffer
	if err := draw(&b, rows); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	if n := strings.Count(svg, "<polyline"); n != len(steps) {
		t.Errorf("%d lines, want %d", n, len(steps))
	}
	for _, want := range []string{"pull request: prdiff, cold CI job", "pull request: prdiff, base renders given", ">3000<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

func TestPlotErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no figures"},
		{"324\tx\n", `line 1, column 2: "x" is not a number`},
		{"324\t1\t2\n", "line 1: 3 columns"},
	} {
		_, err := read(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("read(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
}
