package skill

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkDiscover: a start-up's discovery over 100 skills and 100 commands
// (each parsed once, frontmatter and all).
func BenchmarkDiscover(b *testing.B) {
	root := b.TempDir()
	for i := range 100 {
		writeB(b, filepath.Join(root, ".claude/skills", fmt.Sprintf("s%d", i), "SKILL.md"),
			fmt.Sprintf("---\nname: s%d\ndescription: skill number %d, for benchmarks\nallowed-tools: Read, Bash(git log:*)\n---\n# S\nBody of the skill.\n", i, i))
		writeB(b, filepath.Join(root, ".claude/commands", fmt.Sprintf("c%d.md", i)),
			"---\ndescription: a command\nargument-hint: [x]\n---\nDo $ARGUMENTS.\n")
	}
	b.ResetTimer()
	for b.Loop() {
		c := Discover(DirsFor(root, "", ""))
		if len(c.Skills()) != 200 {
			b.Fatal(len(c.Skills()), c.Problems)
		}
	}
}

// BenchmarkExpand: one /NAME's expansion (substitutions, two !`cmd` spans,
// an @file) with a runner that returns at once: what pincer adds to a turn's
// start before the tool calls themselves.
func BenchmarkExpand(b *testing.B) {
	s := Skill{Name: "y", Body: "Fix $ARGUMENTS in $0.\nStatus: !`git status --short $0`\nLog: !`git log -n 3 -- \"$1\"`\nSee @src/a.go and @notes.md.\n"}
	r := &fakeRunner{}
	for b.Loop() {
		r.shell, r.files = r.shell[:0], r.files[:0]
		if _, err := Expand(context.Background(), s, `main.go "the parser"`, GatherEnv{}, r); err != nil {
			b.Fatal(err)
		}
	}
}

func writeB(b *testing.B, path, text string) {
	b.Helper()
	if err := writeFileErr(path, text); err != nil {
		b.Fatal(err)
	}
}
