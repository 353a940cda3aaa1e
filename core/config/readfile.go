package config

// ReadFile reads and decodes one configuration file that is not one of a
// workspace's Sources — a plugin's plugin.json, hooks/hooks.json, .mcp.json or
// .lsp.json — with the rules every source is read by (regular files only, not
// blocking on a FIFO, at most MaxFileSize bytes, JSON keys given twice refused,
// positions for FILE:LINE messages). name is the short name for messages. When
// root is not "", a file that is, or sits under, a symbolic link leading out of
// root is refused (Document.Err), as a project file leading out of its
// workspace is. It never fails: a problem is the Document's Err; a file that
// is not there has Exists false.
func ReadFile(path, name string, format Format, root string) *Document {
	src := Source{Path: path, Name: name, Format: format, Project: root != ""}
	d := readDocument(src, root)
	d.Project = false // bounded by root, but not a workspace's file: no project trust rules apply
	return d
}

// ErrorAt is a fatal *FileError about the value at key path of d ("commands",
// "mcpServers.db.command"), at its line and column: for the readers of the
// files ReadFile reads, whose shape core/config does not know.
func (d *Document) ErrorAt(key, format string, args ...any) *FileError {
	return d.errorAt(key, false, format, args...)
}
