// Command gen writes lazylex's embedded lexer definitions from the chroma
// version in go.mod: `go generate ./ui/tui/markdown/lazylex` (run it after
// upgrading chroma; TestEmbeddedUpToDate fails until then). It replaces
// every .xml file under the directory given as its one argument and prints
// the lexers it leaves out.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"pincer/ui/tui/markdown/lazylex/internal/lexgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	chromaDir, err := lexgen.ChromaDir()
	if err != nil {
		return err
	}
	defs, omitted, err := lexgen.Generate(chromaDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.xml*"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	for _, d := range defs {
		if err := os.WriteFile(filepath.Join(dir, d.File), d.XML, 0o644); err != nil {
			return err
		}
		if d.Substituted {
			fmt.Printf("%s: rules holding Go code kept as plain tokens\n", d.Name)
		}
	}
	var names []string
	for _, o := range omitted {
		names = append(names, o.Name+" ("+o.Reason+")")
	}
	fmt.Printf("%d lexers written, %d left out: %s\n", len(defs), len(omitted), strings.Join(names, "; "))
	return nil
}
