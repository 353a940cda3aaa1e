package tools

// ShellPeek is what a person sees of a background shell (the workbench's
// /bashes ID): its state and the output its buffer still holds.
type ShellPeek struct {
	Info ShellInfo
	// Output is the output the shell's buffer still keeps (the most recent
	// sandbox tail-buffer limit's worth), stdout and stderr as written, made
	// safe as Bash's and BashOutput's (SafeOutput: ANSI sequences removed,
	// control bytes and invisible format characters shown, valid UTF-8), so
	// the person reads what the model reads.
	Output string
	// Note is SafeOutput's note ("" when nothing but ANSI sequences and CRLF
	// changed).
	Note string
	// Dropped is how many earlier bytes are no longer kept.
	Dropped int64
}

// Peek returns shell id's state and kept output without consuming it: the
// model's next BashOutput still gets everything written since its previous
// read (Peek does not move Read's offset). It fails with ErrNoShell.
func (s *Shells) Peek(id string) (ShellPeek, error) {
	sh, err := s.get(id)
	if err != nil {
		return ShellPeek{}, err
	}
	data, _, dropped := sh.proc.Output().ReadSince(0)
	s.mu.Lock()
	info := sh.info
	s.mu.Unlock()
	if res, done := sh.proc.Exited(); done && info.Running {
		info.Running, info.ExitCode, info.Reason = false, res.ExitCode, ShellExited
	}
	out, note := SafeOutput(string(data))
	return ShellPeek{Info: info, Output: out, Note: note, Dropped: dropped}, nil
}
