package smallfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	os.WriteFile(reg, []byte("stacked\n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("x", 65)), 0o600)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(reg, link)

	if b, err := Read(reg, 64); err != nil || string(b) != "stacked\n" {
		t.Errorf("regular: %q, %v", b, err)
	}
	if b, err := Read(link, 64); err != nil || string(b) != "stacked\n" {
		t.Errorf("symlink to a regular file: %q, %v", b, err)
	}
	if _, err := Read(filepath.Join(dir, "none"), 64); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Read(big, 64); err == nil || !strings.Contains(err.Error(), "larger than 64") {
		t.Errorf("too big: %v", err)
	}
	// No writer ever opens the FIFO: a blocking open or read would hang here.
	if _, err := Read(fifo, 64); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
	if _, err := Read(dir, 64); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
}
