package config

import "strings"

// skillsKeys are the keys of the [skills] table.
var skillsKeys = []string{"learn", "learn_min_steps", "learn_per_session", "learn_scope"}

// SkillsSettings are the [skills] table of the user's config.toml (issue
// 16): whether pincer proposes skills learned from turns that worked, and
// how often. 0 and "" are not set: the defaults hold.
type SkillsSettings struct {
	// LearnSet is learn as written (nil: not set: on).
	LearnSet *bool
	// MinSteps is how many tool calls must have worked in a turn, 1 to 100
	// (default core/skill/learn.DefaultMinSteps, 5).
	MinSteps int
	// PerSession caps the skill proposals of one session, 1 to 100
	// (default 1).
	PerSession int
	// Scope is where an accepted skill is written: "project" (the default)
	// or "user".
	Scope string
}

// Learn is whether skill proposals are on: learn, default true.
func (c SkillsSettings) Learn() bool { return c.LearnSet == nil || *c.LearnSet }

// Skills reads the [skills] table of the user's config.toml. A value of the
// wrong type or out of range, or an unknown key, is a warning and is left
// out (its default holds). A project file's [skills] is a warning and is not
// applied (userOnlyTables): a repository must not spend the person's model
// calls on proposals, nor pick where their skills are written.
func (s *Sources) Skills() (SkillsSettings, []error) {
	var out SkillsSettings
	errs := s.projectUserOnly("skills")
	for _, d := range s.docs(UserConfig) {
		raw, ok := d.Tree["skills"]
		if !ok {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			errs = append(errs, d.errorAt("skills", true, "[skills] not applied: skills must be a table, not %s", kindOf(raw)))
			continue
		}
		for _, k := range sortedMapKeys(m) {
			v := m[k]
			count := func() (int, bool) {
				n, ok := v.(int64)
				if !ok || n < 1 || n > 100 {
					errs = append(errs, d.errorAt("skills."+k, true, "[skills] %s: want a number from 1 to 100, not %v", k, v))
					return 0, false
				}
				return int(n), true
			}
			switch k {
			case "learn":
				b, ok := v.(bool)
				if !ok {
					errs = append(errs, d.errorAt("skills."+k, true, "[skills] learn: want true or false, not %v", v))
					continue
				}
				out.LearnSet = &b
			case "learn_min_steps":
				if n, ok := count(); ok {
					out.MinSteps = n
				}
			case "learn_per_session":
				if n, ok := count(); ok {
					out.PerSession = n
				}
			case "learn_scope":
				sc, ok := v.(string)
				if !ok || (sc != "project" && sc != "user") {
					errs = append(errs, d.errorAt("skills."+k, true, "[skills] learn_scope: want \"project\" or \"user\", not %v", v))
					continue
				}
				out.Scope = sc
			default:
				errs = append(errs, d.errorAt("skills."+k, true, "[skills] unknown key %q, ignored (known: %s)", k, strings.Join(skillsKeys, ", ")))
			}
		}
	}
	return out, errs
}
