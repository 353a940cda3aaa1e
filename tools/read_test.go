package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	env, root := newTestEnv(t)
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&long, "row %d\n", i)
	}
	writeTestFile(t, root, "small.txt", "alpha\nbeta\ngamma\n")
	writeTestFile(t, root, "nonl.txt", "one\ntwo")
	writeTestFile(t, root, "long.txt", long.String())
	writeTestFile(t, root, "wide.txt", strings.Repeat("é", 2500)+"\nshort\n")
	writeTestFile(t, root, "crlf.txt", "a\r\nb\r\n")
	writeTestFile(t, root, "bom.txt", "\uFEFFfirst\nsecond\n")
	writeTestFile(t, root, "empty.txt", "")
	writeTestFile(t, root, "nul.bin", "abc\x00def")
	writeTestFile(t, root, "latin1.txt", "caf\xe9\n")
	// A 3-byte rune straddling the 8 KiB sniff window is still text.
	writeTestFile(t, root, "straddle.txt", strings.Repeat("a\n", (binarySniffBytes-1)/2)+"a€\n")
	writeTestFile(t, root, "late-nul.txt", strings.Repeat("a\n", binarySniffBytes)+"\x00")
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeTestFile(t, outside, "secret", "s3cret\n")
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		in      ReadInput
		want    string // exact output, when set
		has     []string
		hasNot  []string
		wantErr string
	}{
		{name: "numbered lines", in: ReadInput{FilePath: "small.txt"}, want: "     1\talpha\n     2\tbeta\n     3\tgamma\n"},
		{name: "absolute path", in: ReadInput{FilePath: filepath.Join(root, "small.txt")}, want: "     1\talpha\n     2\tbeta\n     3\tgamma\n"},
		{name: "last line without newline", in: ReadInput{FilePath: "nonl.txt"}, want: "     1\tone\n     2\ttwo\n"},
		{name: "offset and limit", in: ReadInput{FilePath: "small.txt", Offset: 2, Limit: 1},
			has: []string{"     2\tbeta\n", "1 more lines; use offset/limit"}, hasNot: []string{"alpha", "gamma"}},
		{name: "offset zero is one", in: ReadInput{FilePath: "small.txt", Offset: 0, Limit: 1}, has: []string{"     1\talpha\n"}},
		{name: "default limit 2000", in: ReadInput{FilePath: "long.txt"},
			has: []string{"  2000\trow 2000\n", "500 more lines; use offset/limit", "the file has 2500 lines"}, hasNot: []string{"row 2001\n"}},
		{name: "window to the end has no note", in: ReadInput{FilePath: "long.txt", Offset: 2400},
			has: []string{"  2500\trow 2500\n"}, hasNot: []string{"more lines"}},
		{name: "long line cut", in: ReadInput{FilePath: "wide.txt"},
			want: "     1\t" + strings.Repeat("é", ReadMaxLineChars) + lineTruncatedMarker + "\n     2\tshort\n"},
		{name: "crlf shown without CR", in: ReadInput{FilePath: "crlf.txt"}, want: "     1\ta\n     2\tb\n"},
		{name: "bom hidden", in: ReadInput{FilePath: "bom.txt"}, want: "     1\tfirst\n     2\tsecond\n"},
		{name: "empty file", in: ReadInput{FilePath: "empty.txt"}, want: "<system-reminder>File exists but is empty.</system-reminder>"},
		{name: "offset past end", in: ReadInput{FilePath: "small.txt", Offset: 10}, has: []string{"Offset 10", "has 3 lines"}},
		{name: "straddling rune is text", in: ReadInput{FilePath: "straddle.txt", Offset: binarySniffBytes / 2}, has: []string{"\ta€\n"}},
		{name: "NUL after the sniff window is not checked", in: ReadInput{FilePath: "late-nul.txt", Limit: 1}, has: []string{"     1\ta\n"}},
		{name: "NUL byte is binary", in: ReadInput{FilePath: "nul.bin"}, wantErr: "Cannot read binary file: nul.bin"},
		{name: "invalid UTF-8 is binary", in: ReadInput{FilePath: "latin1.txt"}, wantErr: "Cannot read binary file"},
		{name: "directory refused", in: ReadInput{FilePath: "dir"}, wantErr: "is a directory, not a file: use Glob"},
		{name: "missing file", in: ReadInput{FilePath: "nope.txt"}, wantErr: "File does not exist: nope.txt"},
		{name: "outside workspace", in: ReadInput{FilePath: filepath.Join(outside, "secret")}, wantErr: "is outside the workspace"},
		{name: "symlink escape", in: ReadInput{FilePath: "escape"}, wantErr: "outside the workspace"},
		{name: "missing file_path", in: ReadInput{}, wantErr: "file_path is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := runTool(t, Read{}, env, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError {
				t.Fatal("IsError set on a successful read")
			}
			if tt.want != "" && res.Output != tt.want {
				t.Fatalf("output =\n%q\nwant\n%q", res.Output, tt.want)
			}
			for _, s := range tt.has {
				if !strings.Contains(res.Output, s) {
					t.Errorf("output lacks %q:\n%s", s, tail(res.Output, 300))
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(res.Output, s) {
					t.Errorf("output has %q", s)
				}
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func TestReadRecordsFileState(t *testing.T) {
	env, root := newTestEnv(t)
	p := writeTestFile(t, root, "f.txt", "content\n")
	writeTestFile(t, root, "bin", "\x00")
	if _, ok := env.Files.Lookup(p); ok {
		t.Fatal("recorded before any read")
	}
	readFirst(t, env, "f.txt")
	rec, ok := env.Files.Lookup(p)
	if !ok {
		t.Fatal("Read did not record the file")
	}
	if rec.Hash != HashContent([]byte("content\n")) {
		t.Errorf("recorded hash %s is not the content's", rec.Hash)
	}
	fi, _ := os.Stat(p)
	if !rec.ModTime.Equal(fi.ModTime()) {
		t.Errorf("recorded mtime %v, file has %v", rec.ModTime, fi.ModTime())
	}
	if _, err := runTool(t, Read{}, env, ReadInput{FilePath: "bin"}); err == nil {
		t.Fatal("binary read succeeded")
	}
	if _, ok := env.Files.Lookup(filepath.Join(root, "bin")); ok {
		t.Error("a refused read was recorded")
	}
}

func TestLooksBinary(t *testing.T) {
	tests := []struct {
		name string
		data string
		want bool
	}{
		{"empty", "", false},
		{"ascii", "hello\n", false},
		{"utf8", "héllo wörld ✓\n", false},
		{"nul", "a\x00b", true},
		{"bad utf8", "\xff\xfe", true},
		{"truncated rune at end of short file", "ok\xe2\x82", true},
		{"truncated rune at window edge", strings.Repeat("a", binarySniffBytes-2) + "€€", false},
	}
	for _, tt := range tests {
		if got := looksBinary([]byte(tt.data)); got != tt.want {
			t.Errorf("%s: looksBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}
