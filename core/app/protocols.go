package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"pincer/core/config"
	"pincer/core/smallfile"
)

// textProtocolFile is the state file, under DATA, of the models pincer
// switched to the text protocol because their provider refused tools
// (agent.Protocols.UseText): {"models": ["ollama/gemma2:2b", ...]}.
const textProtocolFile = "text-protocol-models.json"

// protocols is the agent.Protocols of a run: a [models."NAME"] protocol
// setting decides; a model without one uses the text protocol when the state
// file (or this process) remembers a switch. Safe for concurrent use.
type protocols struct {
	settings map[string]config.ModelSettings
	path     string // the state file; "": remember in memory only

	mu         sync.Mutex
	remembered map[string]bool
}

// protocolsFrom reads the [models] tables (their warnings go to report) and
// the state file under dataDir. A state file that cannot be read is a
// warning: the models it named fall back to function calling until a
// provider refuses tools again.
func protocolsFrom(src *config.Sources, dataDir string, report *configReport) *protocols {
	settings, errs := src.Models()
	report.add(errs)
	p := &protocols{settings: settings, remembered: map[string]bool{}}
	if dataDir != "" {
		p.path = filepath.Join(dataDir, textProtocolFile)
		names, err := readProtocolFile(p.path)
		if err != nil {
			report.warnings = append(report.warnings, fmt.Sprintf("%s: %v (the models switched to the text protocol use function calling again)", p.path, err))
		}
		for _, n := range names {
			p.remembered[n] = true
		}
	}
	return p
}

// readProtocolFile returns the models of the state file at path (none when it
// does not exist).
func readProtocolFile(path string) ([]string, error) {
	data, err := smallfile.Read(path, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st struct {
		Models []string `json:"models"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("not the JSON of a model list: %w", err)
	}
	return st.Models, nil
}

// Text implements agent.Protocols.
func (p *protocols) Text(name string) bool {
	switch config.ModelSetting(p.settings, name).Protocol {
	case config.ProtocolText:
		return true
	case config.ProtocolTools:
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.remembered[name]
}

// UseText implements agent.Protocols: the switch holds in this process at
// once, and is added to the state file (re-read first, so that another
// process's switches are kept; written atomically, mode 0600). A model whose
// config pins protocol = "tools" is not switched.
func (p *protocols) UseText(name string) error {
	if config.ModelSetting(p.settings, name).Protocol == config.ProtocolTools {
		return fmt.Errorf("[models.%q] protocol = %q in config.toml pins function calling", name, config.ProtocolTools)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.remembered[name] = true
	if p.path == "" {
		return nil
	}
	names, err := readProtocolFile(p.path)
	if err != nil {
		names = nil // a broken file is replaced
	}
	if !slices.Contains(names, name) {
		names = append(names, name)
	}
	slices.Sort(names)
	data, _ := json.MarshalIndent(map[string][]string{"models": names}, "", "  ")
	if err := os.MkdirAll(filepath.Dir(p.path), 0o700); err != nil {
		return err
	}
	return config.WriteAtomic(p.path, append(data, '\n'), 0o600)
}
