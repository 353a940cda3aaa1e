package config

// userOnlyTables are the tables only the user's own config.toml may set: how
// the person's keys answer approvals and where the workbench puts its panes.
// A repository's .pincer/config.toml comes with the code, written by whoever
// wrote the code (or a model): were its [keys] obeyed, a cloned project
// could bind "approve.always" to y, n, Esc or the first letter of a
// sentence, and a keypress meant as "once", "deny" or typing would save a
// permanent allow rule (red team, issue 12). A project file may tighten
// pincer, never change what a keypress means.
var userOnlyTables = []string{"keys", "workbench", "lsp", "checkpoints", "skills", "memory"}

// projectUserOnly returns a warning at its line for each user-only table
// (userOnlyTables) a project config file holds: the table is not applied.
func (s *Sources) projectUserOnly(table string) []error {
	var errs []error
	why := "a repository cannot change what the workbench's keys do"
	if table == "lsp" {
		why = "a repository cannot name a program pincer runs after every edit"
	}
	if table == "skills" {
		why = "a repository cannot spend your model calls on skill proposals nor choose where your skills are written"
	}
	if table == "memory" {
		why = "a repository cannot turn your memory on or off nor change how much it proposes"
	}
	if table == "checkpoints" {
		why = "a repository cannot turn off or shrink the record rewind relies on"
	}
	for _, d := range s.docs(ProjectConfig) {
		if _, ok := d.Tree[table]; ok {
			errs = append(errs, d.errorAt(table, true,
				"[%s] in a project file is not applied: %s; set it in your own config.toml", table, why))
		}
	}
	return errs
}
