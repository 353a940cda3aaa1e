package permission

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCommandPatterns(t *testing.T) {
	cases := []struct {
		spec, cmd string
		want      bool
	}{
		// legacy prefix: word boundary
		{"npm run test:*", "npm run test", true},
		{"npm run test:*", "npm run test -- -v", true},
		{"npm run test:*", "npm run testx", false},
		{"npm run test:*", "npm run tes", false},
		{"npm run test:*", "xnpm run test", false},
		{"git:*", "git", true},
		{"git:*", "gitk", false},
		// wildcards
		{"git * main", "git checkout main", true},
		{"git * main", "git merge --no-ff main", true},
		{"git * main", "git checkout mainline", false},
		{"git * main", "git main", false},
		{"git *", "git", true}, // a lone trailing " *" is optional
		{"git *", "git status", true},
		{"git *", "gitk", false},
		{"ls*", "lsof", true},
		{"* install", "npm install", true},
		{"* install", "npm install x", false},
		{"npm * --save", "npm install left-pad --save", true},
		{"a * b *", "a x b", false}, // two wildcards: the trailing one is not optional
		{"a * b *", "a x b y", true},
		{"echo *", "echo 'multi\nline'", true},
		// exact
		{"npm run build", "npm run build", true},
		{"npm run build", "npm run build --watch", false},
		{"npm run build", "npm run buil", false},
		// escapes
		{`echo \*`, "echo *", true},
		{`echo \*`, "echo x", false},
		{`echo a\\b`, `echo a\b`, true},
		{`ls \*:*`, "ls * -l", true}, // the prefix form, with a literal star in the prefix
		{`ls \*:*`, "ls *:x", false},
		{`ls \*:*`, "ls x -l", false},
	}
	for _, c := range cases {
		if got := compileCommand(c.spec).match(c.cmd); got != c.want {
			t.Errorf("Bash(%s) on %q = %v, want %v", c.spec, c.cmd, got, c.want)
		}
	}
	for _, cmd := range []string{"rm -rf *", `echo a\*b`, "x:*", "grep -r 'a*' ."} {
		if p := compileCommand(escapeCommand(cmd)); p.wildcard() || !p.match(cmd) {
			t.Errorf("escapeCommand(%q) = %q does not match exactly", cmd, escapeCommand(cmd))
		}
	}
}

func TestPathAnchors(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	cwd := filepath.Join(ws, "sub")
	for _, d := range []string{cwd, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := pathEnv{workspace: ws, cwd: cwd, home: home}
	cases := []struct {
		spec, path string
		want       bool
	}{
		// //abs
		{"//etc/**", "/etc/passwd", true},
		{"//etc/passwd", "/etc/passwd", true},
		{"//etc", "/etc/ssl/cert.pem", true}, // a directory covers what lies below
		{"//etc/*", "/etc/ssl/cert.pem", true},
		{"//etc/*.conf", "/etc/ssl/x.conf", false},
		{"//" + ws[1:] + "/a.go", ws + "/a.go", true},
		// ~/
		{"~/.ssh/**", home + "/.ssh/id_rsa", true},
		{"~/.ssh", home + "/.ssh/id_rsa", true},
		{"~/*.pdf", home + "/doc.pdf", true},
		{"~/*.pdf", home + "/a/doc.pdf", false},
		{"~", home + "/anything", true},
		{"~/.ssh/**", ws + "/.ssh/id_rsa", false},
		// / = project root
		{"/src/**/*.ts", ws + "/src/a.ts", true},
		{"/src/**/*.ts", ws + "/src/x/y/a.ts", true},
		{"/src/**/*.ts", ws + "/src/a.js", false},
		{"/src/**/*.ts", cwd + "/src/a.ts", false},
		{"/build", ws + "/build/out/x.o", true},
		{"/", ws + "/anything", true},
		{"/src/**", root + "/other/src/a.ts", false},
		// ./ = cwd, anchored
		{"./secrets/**", cwd + "/secrets/key", true},
		{"./secrets/**", ws + "/secrets/key", false},
		{"./secrets", cwd + "/secrets/a/b", true},
		{"./.env", cwd + "/.env", true},
		{"./.env", cwd + "/a/.env", false},
		{".", cwd + "/a/b", true},
		// bare = cwd, gitignore: no slash matches at any depth below
		{"*.env", cwd + "/.env", true},
		{"*.env", cwd + "/a/b/prod.env", true},
		{"*.env", ws + "/.env", false}, // above the cwd
		{"src/*.ts", cwd + "/src/a.ts", true},
		{"src/*.ts", cwd + "/x/src/a.ts", false}, // a slash anchors it
		{"secrets/", cwd + "/x/secrets/key", true},
		// ".." never escapes
		{"./secrets/**", cwd + "/../sub/secrets/k", true},
		{"*.go", "relative.go", false},
	}
	for _, c := range cases {
		if got := matchPath(c.spec, c.path, env); got != c.want {
			t.Errorf("%s on %s = %v, want %v", c.spec, c.path, got, c.want)
		}
	}
	noHome := pathEnv{workspace: ws, cwd: cwd}
	if matchPath("~/x", "/x", noHome) {
		t.Error("~/ matched with no home directory")
	}
	// escapePath: exact, metacharacters literal
	odd := ws + "/we[ird]/*{x}.go"
	if spec := escapePath(odd); !matchPath(spec, odd, env) || matchPath(spec, ws+"/wei/a{x}.go", env) ||
		matchPath(spec, ws+"/we[ird]/a{x}.go", env) {
		t.Errorf("escapePath(%q) = %q is not exact", odd, spec)
	}
}

func TestSymlinkedPathsResolvedByCaller(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "secrets"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	resolved, err := filepath.EvalSymlinks(filepath.Join(link, "secrets"))
	if err != nil {
		t.Fatal(err)
	}
	env := pathEnv{workspace: real, cwd: real}
	if !matchPath("./secrets/**", filepath.Join(resolved, "key"), env) {
		t.Error("the resolved path of a symlink is not matched")
	}
	if matchPath("./secrets/**", filepath.Join(link, "secrets", "key"), env) {
		t.Error("an unresolved symlink path matched: rules compare paths as given")
	}
}

func TestDomainAndMCP(t *testing.T) {
	domains := []struct {
		spec, url string
		want      bool
	}{
		{"domain:example.com", "https://example.com/a", true},
		{"domain:example.com", "https://EXAMPLE.com:8443/a", true},
		{"domain:example.com", "https://docs.example.com/a", false}, // exact, as Claude Code
		{"domain:example.com", "https://example.com.evil.io/", false},
		{"domain:example.com", "https://evil.io/?u=example.com", false},
		{"domain:*.example.com", "https://docs.example.com/a", true},
		{"domain:*.example.com", "https://example.com/a", false},
		{"domain:example.com", "not a url", false},
	}
	for _, c := range domains {
		if got := matchDomain(c.spec, c.url); got != c.want {
			t.Errorf("%s on %s = %v, want %v", c.spec, c.url, got, c.want)
		}
	}
	mcp := []struct {
		rule, tool string
		want       bool
	}{
		{"mcp__github", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__create_issue", "mcp__github__create_issue", true},
		{"mcp__github__create_issue", "mcp__github__delete_repo", false},
		{"mcp__github", "mcp__githubx__create_issue", false},
		{"mcp__git", "mcp__github__create_issue", false},
		{"mcp__github", "Bash", false},
	}
	for _, c := range mcp {
		r, err := ParseRule(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := matchesAny(r, Input{Tool: c.tool, Kind: "mcp"}); got != c.want {
			t.Errorf("%s on %s = %v, want %v", c.rule, c.tool, got, c.want)
		}
	}
}

func TestRuleFamilies(t *testing.T) {
	ws := "/w"
	grep := Input{Tool: "Grep", Kind: KindRead, Paths: []string{"/w/secrets/k"}, Workspace: ws, Cwd: ws}
	write := Input{Tool: "Write", Kind: KindEdit, Paths: []string{"/w/src/a.ts"}, Workspace: ws, Cwd: ws}
	fetch := Input{Tool: "WebFetch", Kind: KindRead, URL: "https://x.io"}
	must := func(s string) Rule { r, _ := ParseRule(s); return r }
	if !matchesAny(must("Read(./secrets/**)"), grep) {
		t.Error("a Read rule does not cover Grep")
	}
	if !matchesAny(must("Edit(src/**/*.ts)"), write) || !matchesAny(must("Write(/src/**)"), write) {
		t.Error("an Edit or Write rule does not cover Write")
	}
	if matchesAny(must("Read"), fetch) {
		t.Error("a bare Read rule covers WebFetch")
	}
	if matchesAny(must("Edit(./secrets/**)"), grep) {
		t.Error("an Edit rule covers a read")
	}
	if matchesAny(must("Read(./x/**)"), Input{Tool: "Read", Kind: KindRead, Workspace: ws, Cwd: ws}) {
		t.Error("a path rule matched a call with no paths")
	}
}
