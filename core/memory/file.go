package memory

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"pincer/core/frontmatter"
)

// File is one memory file: its frontmatter and body.
type File struct {
	Type        string    `yaml:"type"`
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Created     time.Time `yaml:"created"`
	Source      Source    `yaml:"source"`
	Body        string    `yaml:"-"`
}

// Source is where a memory was proposed: a session and its turn (from 1).
type Source struct {
	Session string `yaml:"session,omitempty"`
	Turn    int    `yaml:"turn,omitempty"`
}

// Render is f as a memory file: the frontmatter as YAML (yaml.v3 quotes a
// value that would read as more than itself) between --- lines, then the
// body ending in one newline.
func Render(f File) (string, error) {
	head, err := yaml.Marshal(f)
	if err != nil {
		return "", err
	}
	body := strings.TrimRight(f.Body, "\n") + "\n"
	return "---\n" + string(head) + "---\n\n" + body, nil
}

// ParseFile reads a memory file (path names it in errors): its frontmatter
// must hold a known type and a valid name; the body is what follows.
func ParseFile(path string, data []byte) (File, error) {
	doc, err := frontmatter.Parse(path, data)
	if err != nil {
		return File{}, err
	}
	if !doc.HasFrontmatter() {
		return File{}, fmt.Errorf("%s: a memory file opens with --- frontmatter (type, name, description)", path)
	}
	var f File
	if err := doc.Decode(&f); err != nil {
		return File{}, err
	}
	if err := checkType(f.Type); err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	if err := CheckName(f.Name); err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	if f.Description != OneLine(f.Description, MaxDescriptionLen) {
		return File{}, fmt.Errorf("%s: description must be one line of at most %d bytes", path, MaxDescriptionLen)
	}
	f.Body = strings.TrimLeft(doc.Body, "\n")
	return f, nil
}
