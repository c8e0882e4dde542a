// Command floor is the parse-and-write floor of a render: it parses every
// YAML file under a directory with kyaml, as kustomize reads resources, and
// writes the documents back out as one stream. No renderer can print a tree
// faster than it can read and write its files; scripts/bench.sh reports
// krm's time as a multiple of this.
//
// Usage:
//
//	floor DIR > out.yaml
package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: floor DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	out := bufio.NewWriter(os.Stdout)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
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
	if err != nil {
		return err
	}
	return out.Flush()
}
