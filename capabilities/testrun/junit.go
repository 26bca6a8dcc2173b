package testrun

// This file reads a JUnit XML report (pytest's --junitxml, family xunit1,
// which gives each test case its file and line; vitest's junit reporter).

import (
	"encoding/xml"
	"fmt"
	"io"
)

// suites is a JUnit report: a <testsuites> of <testsuite>s, or one
// <testsuite>.
type suites struct {
	XMLName xml.Name
	Suites  []suite `xml:"testsuite"`
	Cases   []Case  `xml:"testcase"` // a lone <testsuite> root's cases
}

type suite struct {
	Cases []Case `xml:"testcase"`
}

// Case is one test case.
type Case struct {
	Classname string    `xml:"classname,attr"`
	Name      string    `xml:"name,attr"`
	File      string    `xml:"file,attr"`
	Line      string    `xml:"line,attr"`
	Failure   *Problem  `xml:"failure"`
	Error     *Problem  `xml:"error"`
	Skipped   *struct{} `xml:"skipped"`
}

// Problem is a failure or an error: its one-line message and its text.
type Problem struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// maxCases bounds the test cases a report may hold.
const maxCases = 1 << 20

// ReadJUnit reads a JUnit XML report into its test cases.
func ReadJUnit(r io.Reader) ([]Case, error) {
	var s suites
	dec := xml.NewDecoder(io.LimitReader(r, 256<<20))
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("reading the JUnit report: %w", err)
	}
	switch s.XMLName.Local {
	case "testsuites", "testsuite":
	default:
		return nil, fmt.Errorf("reading the JUnit report: the root element is <%s>, not <testsuites> or <testsuite>", s.XMLName.Local)
	}
	out := s.Cases
	for _, su := range s.Suites {
		out = append(out, su.Cases...)
		if len(out) > maxCases {
			return nil, fmt.Errorf("reading the JUnit report: more than %d test cases", maxCases)
		}
	}
	return out, nil
}
