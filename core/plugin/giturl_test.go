package plugin

import "testing"

func TestCheckGitURL(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://github.com/o/r.git", true},
		{"http://example.com/r", true},
		{"ssh://git@example.com/o/r", true},
		{"git://example.com/r", true},
		{"file:///tmp/repo", true},
		{"git@github.com:o/r.git", true},
		{"--upload-pack=touch /tmp/PROOF", false},
		{"-uhttps://x", false},
		{"ext::sh -c touch% /tmp/PROOF", false},
		{"ext::sh", false},
		{"fd::3", false},
		{"file::/tmp/x", false},
		{"https://x/ y", false},
		{"https://x/\ny", false},
		{"ftp://example.com/r", false},
		{"javascript:alert(1)", false},
		{"ssh://-oProxyCommand=touch%20PROOF/x", false},
		{"ssh://-oProxyCommand@host/x", false},
		{"", false},
	} {
		if err := CheckGitURL(tc.url); (err == nil) != tc.ok {
			t.Errorf("CheckGitURL(%q) = %v, want ok=%v", tc.url, err, tc.ok)
		}
	}
}

func TestLooksLikeGit(t *testing.T) {
	for src, want := range map[string]bool{
		"https://x/r": true, "git@h:o/r": true, "ext::sh": true, "file:///tmp/r": true,
		"./plugin": false, "/abs/plugin": false, "plugin": false, "C:stuff": false,
	} {
		if got := LooksLikeGit(src); got != want {
			t.Errorf("LooksLikeGit(%q) = %v, want %v", src, got, want)
		}
	}
}
