package agent

import (
	"os"
	"strings"
	"testing"
)

func TestParseAndDescribeOwner(t *testing.T) {
	for _, tc := range []struct {
		owner string
		want  OwnerInfo
		desc  string
	}{
		{"pid:4242/ab12 host=box cmd=pincer run", OwnerInfo{4242, "box", "pincer run"}, "pid 4242 (pincer run on box)"},
		{"pid:7/ab12 host=box cmd=pincer", OwnerInfo{7, "box", "pincer"}, "pid 7 (pincer on box)"},
		{"pid:4242/ab12", OwnerInfo{PID: 4242}, "pid 4242"},
		{"pid:9/browser-123", OwnerInfo{PID: 9}, "pid 9"},
		{"someone", OwnerInfo{}, "someone"},
		{"pid:x/ab", OwnerInfo{}, "pid:x/ab"},
	} {
		if got := ParseOwner(tc.owner); got != tc.want {
			t.Errorf("ParseOwner(%q) = %+v, want %+v", tc.owner, got, tc.want)
		}
		if got := DescribeOwner(tc.owner); got != tc.desc {
			t.Errorf("DescribeOwner(%q) = %q, want %q", tc.owner, got, tc.desc)
		}
	}
}

func TestNewOwnerNamesThisProcess(t *testing.T) {
	o := newOwner("pincer run")
	info := ParseOwner(o)
	host, _ := os.Hostname()
	if info.PID != os.Getpid() || info.Command != "pincer run" || (host != "" && info.Host != host) {
		t.Fatalf("newOwner = %q parsed %+v", o, info)
	}
	if ownerDead(o) || OwnerGone(o) {
		t.Fatal("this process's owner reads as gone")
	}
	if !strings.HasPrefix(o, "pid:") {
		t.Fatal(o)
	}
}
