package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

func TestPlot(t *testing.T) {
	f, err := os.Open("testdata/two-sizes.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := read(f)
	if err != nil {
		t.Fatal(err)
	}
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
	if n := strings.Count(svg, "<polyline"); n != len(steps) {
		t.Errorf("%d lines, want %d", n, len(steps))
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
