package builtin

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkExpand measures each built-in's expansion (all its git commands)
// on a repository with 50 commits and 20 changed files.
func BenchmarkExpand(b *testing.B) {
	for _, name := range []string{"commit", "review", "pr"} {
		b.Run(name, func(b *testing.B) {
			r := newRepo(b)
			for i := range 50 {
				r.write(fmt.Sprintf("f%02d.go", i%20), fmt.Sprintf("package f\n\n// version %d\n%s", i, strings.Repeat("// line\n", 40)))
				r.commit(fmt.Sprintf("change %d", i))
			}
			r.git("checkout", "-q", "-b", "topic")
			for i := range 20 {
				r.write(fmt.Sprintf("f%02d.go", i), fmt.Sprintf("package f\n\n// changed %d\n", i))
				if i%2 == 0 {
					r.git("add", fmt.Sprintf("f%02d.go", i))
				}
			}
			r.commit("topic work")
			r.write("f00.go", "package f\n// uncommitted\n")
			s, _ := Lookup(name)
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Expand(context.Background(), Env{Dir: r.dir, LookPath: func(string) (string, error) { return "/bin/gh", nil }}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
