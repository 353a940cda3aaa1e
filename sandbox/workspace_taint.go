package sandbox

// TaintReads records that a command whose reads had to be confined (allowed
// only by a repository's rule) was allowed to run in w: it may have left
// behind, or keep making in the background, a link or a gitfile that leads
// outside, so from now on, for the rest of the process, every command in w
// that the person did not allow themselves runs with its reads confined too
// (ReadsTainted). It is sticky and safe for concurrent use.
func (w *Workspace) TaintReads() { w.tainted.Store(true) }

// ReadsTainted reports whether TaintReads was called on w.
func (w *Workspace) ReadsTainted() bool { return w.tainted.Load() }
