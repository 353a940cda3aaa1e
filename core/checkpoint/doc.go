// Package checkpoint records what pincer's tool calls change in the workspace
// so a session's changes can be seen per call and per turn and undone (issue
// 15): before every file-changing tool call the Recorder keeps the
// before-version of every file the call may change, after it the
// after-version, and stores one persist.Checkpoint per call that changed
// something, its contents as content-addressed blobs (SHA-256, zstd
// compressed, stored once however many checkpoints name them).
//
// A file tool lists its paths (tools.PathLister): those are read before and
// after. A command (Bash, and the text protocol's commands, which run as Bash
// calls) says nothing of what it touches, so the Recorder scans the workspace
// before and after it — size, mtime, inode and mode of every file, respecting
// .gitignore as git's index does — and reads only the files whose stat
// changed. To have a changed file's before-content, the Recorder's blob store
// holds every tracked file's content as of the last scan (the baseline): the
// first scan of a session reads and stores every file under the size cap
// (dedup makes a second session on the same tree cost only the hashing), and
// each later scan reads only what changed since. Ignored directories, .git,
// protected paths and files over the size cap are noted, not stored.
//
// Diff renders checkpoints as a unified diff `git apply` takes; Plan and
// Restore rewind the workspace to before a turn, through os.Root, refusing
// files changed outside pincer since unless forced.
package checkpoint
