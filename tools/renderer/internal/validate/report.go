package validate

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
)

// Invalid counts the results with errors.
func Invalid(results []Result) int {
	n := 0
	for _, r := range results {
		if len(r.Errors) > 0 {
			n++
		}
	}
	return n
}

// WriteText writes one line per error (inputs' control characters escaped), then one per note (Validator.Notes: what was not
// checked), then a summary line.
func WriteText(w io.Writer, results []Result, notes []Error) error {
	var b strings.Builder
	for _, r := range results {
		for _, e := range r.Errors {
			b.WriteString(escape.Line(e.Error()))
			b.WriteByte('\n')
		}
	}
	for _, n := range notes {
		b.WriteString(escape.Line("note: "+n.Error()) + "\n")
	}
	fmt.Fprintf(&b, "%d objects, %d invalid\n", len(results), Invalid(results))
	_, err := io.WriteString(w, b.String())
	return err
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Cases     []junitCase `xml:"testcase"`
	SystemOut string      `xml:"system-out,omitempty"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes JUnit XML (its names and messages escaped as for a terminal: XML has no
// way to write most control characters, and CI pages show them raw): a test suite per file, a test case per object, a failure
// listing its errors; the notes are the first suite's system-out.
func WriteJUnit(w io.Writer, results []Result, notes []Error) error {
	var out junitSuites
	index := map[string]int{}
	for _, r := range results {
		i, ok := index[r.File]
		if !ok {
			i = len(out.Suites)
			index[r.File] = i
			out.Suites = append(out.Suites, junitSuite{Name: escape.Line(r.File)})
		}
		s := &out.Suites[i]
		c := junitCase{Name: escape.Line(r.Object), ClassName: escape.Line(r.File)}
		if len(r.Errors) > 0 {
			var lines []string
			for _, e := range r.Errors {
				lines = append(lines, escape.Line(e.Error()))
			}
			c.Failure = &junitFailure{Type: "invalid",
				Message: escape.Line(fmt.Sprintf("%d errors; first: %s: %s", len(r.Errors), r.Errors[0].Field, r.Errors[0].Msg)),
				Text:    strings.Join(lines, "\n")}
			s.Failures++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	if len(notes) > 0 && len(out.Suites) > 0 {
		lines := make([]string, len(notes))
		for i, n := range notes {
			lines[i] = escape.Line("note: " + n.Error())
		}
		out.Suites[0].SystemOut = strings.Join(lines, "\n")
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
