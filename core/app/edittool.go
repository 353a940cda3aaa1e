package app

import (
	"pincer/core/config"
	"pincer/core/provider/catalog"
	"pincer/tools"
)

// editToolOf decides a model's file-editing tools: its [models."NAME"]
// edit_tool setting ("apply_patch" or "edit"), else the catalog's
// (catalog.EditToolFor: GPT-5 and codex models get apply_patch), else Claude
// Code's Edit, MultiEdit and Write. It returns config.EditToolApplyPatch or
// config.EditToolEdit.
func editToolOf(tables map[string]config.ModelSettings, mc ModelChoice) string {
	if v := config.ModelSetting(tables, mc.ID()).EditTool; v != "" {
		return v
	}
	if catalog.EditToolFor(mc.Provider, mc.Model) == catalog.EditToolApplyPatch {
		return config.EditToolApplyPatch
	}
	return config.EditToolEdit
}

// chooseEditTools gives the setup's model its edit tools (editToolOf) in
// s.Tools, before the system prompt and the agent are built from them.
func (s *Setup) chooseEditTools() {
	var tables map[string]config.ModelSettings
	if p, ok := s.Protocols.(*protocols); ok && p != nil {
		tables = p.settings
	}
	if editToolOf(tables, s.Model) == config.EditToolApplyPatch {
		tools.UseApplyPatch(s.Tools)
	}
}
