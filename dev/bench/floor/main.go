// Command floor is the parse-and-write floor of a render: it parses every
// YAML file under a directory with kyaml, as kustomize reads resources, and
// writes the documents back out as one stream. No renderer can print a tree
// faster than it can read and write its files; dev/scripts/bench.sh reports
// krm's time as a multiple of this.
//
// A tree whose bases are included many times prints far more than it reads
// (dev/bench/gen's: 16 times the bytes), so reading and writing the inputs alone
// is no floor for printing its output. Given the rendered stream as OUTPUT,
// floor also decodes it into YAML nodes and encodes them again (go-yaml v3,
// which kyaml wraps): the cost of holding and printing every output object,
// which any renderer pays however it builds them.
//
// Usage:
//
//	floor DIR [OUTPUT] > out.yaml
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func main() {
	if len(os.Args) != 2 && len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor DIR [OUTPUT]")
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	err := run(out, os.Args[1])
	if err == nil && len(os.Args) == 3 {
		err = rewrite(out, os.Args[2])
	}
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// run parses every YAML file under dir and writes its documents to out.
func run(out *bufio.Writer, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		nodes, err := kio.FromBytes(data)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, n := range nodes {
			s, err := n.String()
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			out.WriteString("---\n")
			out.WriteString(s)
		}
		return nil
	})
}

// rewrite decodes the YAML stream in file into nodes and encodes them to out.
func rewrite(out *bufio.Writer, file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		out.WriteString("---\n")
		enc := yaml.NewEncoder(out)
		if err := enc.Encode(&doc); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if err := enc.Close(); err != nil {
			return err
		}
	}
}
