package tools

// UseApplyPatch switches r to Codex's edit tool: Edit, MultiEdit and Write
// leave and apply_patch takes Edit's place in the order (or comes last when
// r has no Edit). For the models trained on apply_patch (core/app decides,
// from the catalog and the [models."NAME"] edit_tool setting).
func UseApplyPatch(r *Registry) {
	r.mu.Lock()
	at := -1
	for i, name := range r.order {
		if name == "Edit" {
			at = i
			break
		}
	}
	r.mu.Unlock()
	for _, name := range []string{"MultiEdit", "Write"} {
		r.Remove(name)
	}
	patch := Typed(ApplyPatch{})
	if at < 0 {
		r.Add(patch)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byName, "Edit")
	r.order[at] = patch.Spec().Name
	r.byName[patch.Spec().Name] = patch
}
