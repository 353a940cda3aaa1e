package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"pincer/core/message"
	"pincer/sandbox"
	"pincer/tools"
)

// maxPreviewBytes caps the file a would-be diff reads.
const maxPreviewBytes = 8 << 20

// messageLister finds a tool call's input in the stored transcript: the
// assistant message holding the call is saved before the call is decided.
type messageLister interface {
	ListMessages(ctx context.Context, sessionID string) ([]message.Message, error)
}

// toolCallInput returns the JSON input of a tool call of the session.
func toolCallInput(ctx context.Context, store messageLister, sessionID, toolCallID string) (string, error) {
	msgs, err := store.ListMessages(ctx, sessionID)
	if err != nil {
		return "", err
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, p := range msgs[i].Parts {
			if p.Type == message.PartToolCall && p.ToolCallID == toolCallID {
				return p.Input, nil
			}
		}
	}
	return "", fmt.Errorf("tool call %s is not in the transcript", toolCallID)
}

// wouldBeDiff returns the unified diff a pending Edit or Write would make to
// the workspace rooted at root, computed in memory from the file as it is now:
// Edit replaces old_string by new_string (every occurrence with replace_all,
// else exactly one), Write replaces the whole content. The file is read as the
// tools read it, through sandbox.Workspace (its os.Root): a path outside the
// workspace, or through a symlink leading out of it, is not read and gets an
// error saying the call would fail. It returns "" and no error for other
// tools, and an error saying why the call would fail when it would (no match,
// several matches, missing file).
func wouldBeDiff(root, tool, input string) (string, error) {
	switch tool {
	case "Edit", "Write":
	default:
		return "", nil
	}
	ws, err := sandbox.NewWorkspace(root)
	if err != nil {
		return "", err
	}
	switch tool {
	case "Edit":
		var in tools.EditInput
		if err := json.Unmarshal([]byte(input), &in); err != nil {
			return "", fmt.Errorf("bad Edit input: %v", err)
		}
		abs, shown, err := resolvePath(ws, in.FilePath)
		if err != nil {
			return "", err
		}
		old, exists, err := readForPreview(ws, abs)
		if err != nil {
			return "", err
		}
		if !exists {
			if in.OldString != "" {
				return "", fmt.Errorf("%s does not exist: the edit would fail", shown)
			}
			return tools.UnifiedDiff("/dev/null", "b/"+shown, "", in.NewString), nil
		}
		updated, err := previewEdit(old, in)
		if err != nil {
			return "", err
		}
		return tools.UnifiedDiff("a/"+shown, "b/"+shown, old, updated), nil
	default: // Write
		var in tools.WriteInput
		if err := json.Unmarshal([]byte(input), &in); err != nil {
			return "", fmt.Errorf("bad Write input: %v", err)
		}
		abs, shown, err := resolvePath(ws, in.FilePath)
		if err != nil {
			return "", err
		}
		old, exists, err := readForPreview(ws, abs)
		if err != nil {
			return "", err
		}
		label := "a/" + shown
		if !exists {
			label = "/dev/null"
		}
		return tools.UnifiedDiff(label, "b/"+shown, old, in.Content), nil
	}
}

// previewEdit applies an Edit to content in memory. A file with CRLF line
// ends is matched with the edit's strings converted to CRLF, as the tool does.
func previewEdit(content string, in tools.EditInput) (string, error) {
	oldS, newS := in.OldString, in.NewString
	if oldS == "" {
		return "", errors.New("old_string is empty but the file exists: the edit would fail")
	}
	if strings.Contains(content, "\r\n") && !strings.Contains(oldS, "\r") {
		oldS = strings.ReplaceAll(oldS, "\n", "\r\n")
		newS = strings.ReplaceAll(newS, "\n", "\r\n")
	}
	n := strings.Count(content, oldS)
	switch {
	case n == 0:
		return "", errors.New("old_string is not in the file: the edit would fail")
	case n > 1 && !in.ReplaceAll:
		return "", fmt.Errorf("old_string occurs %d times and replace_all is not set: the edit would fail", n)
	case in.ReplaceAll:
		return strings.ReplaceAll(content, oldS, newS), nil
	}
	return strings.Replace(content, oldS, newS, 1), nil
}

// resolvePath resolves a tool's file_path in ws as the tools do
// (sandbox.Workspace.Resolve) and returns it with the label diffs show
// (relative to the root when inside it). A path outside the workspace is an
// error: the call itself would fail.
func resolvePath(ws *sandbox.Workspace, p string) (abs, shown string, err error) {
	abs, err = ws.Resolve(p)
	if err != nil {
		return "", "", fmt.Errorf("%v: the call would fail", err)
	}
	return abs, ws.Rel(abs), nil
}

// readForPreview reads a file for a would-be diff through ws (its os.Root, as
// the tools read); exists is false when it does not exist.
func readForPreview(ws *sandbox.Workspace, abs string) (content string, exists bool, err error) {
	f, err := ws.Open(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", true, err
	}
	if st.IsDir() {
		return "", true, fmt.Errorf("%s is a directory", abs)
	}
	if !st.Mode().IsRegular() {
		return "", true, fmt.Errorf("%s is not a regular file", abs)
	}
	if st.Size() > maxPreviewBytes {
		return "", true, fmt.Errorf("%s is %d MB: too large to preview", abs, st.Size()>>20)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPreviewBytes+1))
	if err != nil {
		return "", true, err
	}
	if len(b) > maxPreviewBytes {
		return "", true, fmt.Errorf("%s grew past %d MB: too large to preview", abs, maxPreviewBytes>>20)
	}
	return string(b), true, nil
}
