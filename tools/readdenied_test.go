package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

// Env.ReadDenied hides the files a Read deny rule denies from Grep (every output
// mode, both backends, with or without path and glob) and from Glob.
func TestReadDeniedHidesFiles(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, ".env", "API_TOKEN=TOPSECRET_DOTENV\n")
	writeTestFile(t, root, "sub/.env", "TOPSECRET_SUB\n")
	writeTestFile(t, root, "ok.txt", "TOPSECRET_PUBLIC\n")
	denied := map[string]bool{filepath.Join(root, ".env"): true, filepath.Join(root, "sub", ".env"): true}
	env.ReadDenied = func(abs string) bool { return denied[abs] }

	for name, g := range grepBackends(t) {
		for _, in := range []map[string]any{
			{"pattern": "TOPSECRET", "output_mode": "content"},
			{"pattern": "TOPSECRET", "output_mode": "count"},
			{"pattern": "TOPSECRET"},
			{"pattern": "TOPSECRET", "glob": ".env", "output_mode": "content"},
			{"pattern": "TOPSECRET", "path": "sub", "output_mode": "content"},
			{"pattern": "TOPSECRET", "output_mode": "content", "-C": 3},
		} {
			res, err := runTool(t, g, env, in)
			if err != nil {
				t.Fatalf("%s %v: %v", name, in, err)
			}
			if strings.Contains(res.Output, "DOTENV") || strings.Contains(res.Output, "SUB") || strings.Contains(res.Output, ".env") {
				t.Errorf("%s %v: denied file shown:\n%s", name, in, res.Output)
			}
			if in["glob"] == nil && in["path"] == nil && !strings.Contains(res.Output, "ok.txt") {
				t.Errorf("%s %v: allowed file missing:\n%s", name, in, res.Output)
			}
		}
	}

	for _, in := range []map[string]any{{"pattern": "**/.env"}, {"pattern": "*"}, {"pattern": ".env"}, {"pattern": "**/*"}} {
		res, err := runTool(t, Glob{}, env, in)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Output, ".env") {
			t.Errorf("Glob %v: denied file listed:\n%s", in, res.Output)
		}
	}
	res, _ := runTool(t, Glob{}, env, map[string]any{"pattern": "**/*"})
	if !strings.Contains(res.Output, "ok.txt") {
		t.Errorf("Glob: allowed file missing:\n%s", res.Output)
	}

	env.ReadDenied = nil // control: nothing denied
	res, _ = runTool(t, Grep{Backend: GrepFallback}, env, map[string]any{"pattern": "TOPSECRET", "output_mode": "content"})
	if !strings.Contains(res.Output, "DOTENV") {
		t.Errorf("without ReadDenied .env should be searched:\n%s", res.Output)
	}
}
