package app

import (
	"os"
	"path/filepath"
	"time"
)

// fileStamp is what a file was like when read: whether it existed, its size
// and modification time.
type fileStamp struct {
	exists bool
	size   int64
	mod    time.Time
}

// stampOf returns path's stamp now.
func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{exists: true, size: fi.Size(), mod: fi.ModTime()}
}

// mcpFileNote says how the project's .mcp.json under repo changed since
// start was its stamp at start ("" when it did not): pincer reads it at start
// only (new user r24 #5: /mcp said no .mcp.json existed after one was made).
func mcpFileNote(repo string, start fileStamp) string {
	path := filepath.Join(repo, ".mcp.json")
	now := stampOf(path)
	switch {
	case now == start:
		return ""
	case !start.exists:
		return path + " was created after pincer started: restart pincer to read it"
	case !now.exists:
		return path + " was removed after pincer started: its servers stay until pincer restarts"
	}
	return path + " changed after pincer started: restart pincer to read it"
}
