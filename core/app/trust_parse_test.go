package app

import (
	"strings"
	"testing"
)

// TestParseTrustErrorInWords: a trust record that does not decode is reported
// at FILE:LINE:COL in words, not in encoding/json's Go types.
func TestParseTrustErrorInWords(t *testing.T) {
	_, err := parseTrust("/h/data/trusted-projects.json", []byte("{\n  \"version\": \"x\"\n}\n"))
	if err == nil {
		t.Fatal("a bad record parsed")
	}
	msg := err.Error()
	if msg != "/h/data/trusted-projects.json:2:14: version must be a number, not a string" || strings.Contains(msg, "Go ") {
		t.Errorf("error %q", msg)
	}
}
