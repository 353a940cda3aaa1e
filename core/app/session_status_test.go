package app

import "testing"

func TestSessionStatus(t *testing.T) {
	for _, tc := range []struct {
		record string
		held   bool
		want   string
	}{
		{"idle", false, "idle"},
		{"", false, "idle"},
		{"running", true, "running"},
		{"running", false, "interrupted"},
		{"idle", true, "running"},
		{"failed", false, "failed"},
		{"cancelled", false, "cancelled"},
	} {
		if got := SessionStatus(tc.record, tc.held); got != tc.want {
			t.Errorf("SessionStatus(%q, %v) = %q, want %q", tc.record, tc.held, got, tc.want)
		}
	}
}
