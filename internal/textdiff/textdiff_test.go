package textdiff

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n"
	got := Unified(a, b, 1, 100)
	want := "@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n@@ -10,1 +10,2 @@\n j\n+k\n"
	if got != want {
		t.Errorf("unifiedDiff:\n%s\nwant:\n%s", got, want)
	}
	if got := Unified("x\n", "x", 3, 100); !strings.Contains(got, "+x\n\\ No newline at end of file") {
		t.Errorf("missing newline not shown:\n%s", got)
	}
	if got := Unified("", "a\n", 3, 100); got != "@@ -0,0 +1,1 @@\n+a\n" {
		t.Errorf("diff from empty:\n%s", got)
	}
	long := strings.Repeat("x\n", 50)
	if got := Unified("", long, 3, 10); !strings.HasSuffix(got, "... (41 more lines of diff)\n") {
		t.Errorf("diff not cut:\n%s", got)
	}
}
