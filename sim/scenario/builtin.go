package scenario

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"fabriclab/sim/msg"
)

// builtinFiles holds the built-in scenarios, one YAML file each, whose first
// line is a "# one-line description" comment.
//
//go:embed builtin/*.yaml
var builtinFiles embed.FS

// BuiltinInfo names a built-in scenario and says what it shows.
type BuiltinInfo struct {
	Name    string // e.g. "incast"
	Summary string // the file's first-line comment
}

// Builtin returns the YAML of the built-in scenario name.
func Builtin(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil, false
	}
	data, err := builtinFiles.ReadFile("builtin/" + name + ".yaml")
	return data, err == nil
}

// Builtins lists the built-in scenarios sorted by name.
func Builtins() []BuiltinInfo {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		panic(fmt.Sprintf("scenario: reading embedded built-ins: %v", err))
	}
	var infos []BuiltinInfo
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".yaml")
		if !ok {
			continue
		}
		data, _ := Builtin(name)
		first, _, _ := bytes.Cut(data, []byte("\n"))
		infos = append(infos, BuiltinInfo{Name: name, Summary: strings.TrimSpace(strings.TrimPrefix(string(first), "#"))})
	}
	slices.SortFunc(infos, func(a, b BuiltinInfo) int { return strings.Compare(a.Name, b.Name) })
	return infos
}

// builtinNames lists the built-in names for messages.
func builtinNames() string {
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}

// Load reads a scenario by built-in name (see Builtins) or, failing that, from
// the file at nameOrPath through readFile (os.ReadFile, or nil where there are
// no files), then applies sets as ParseWith does. A name that looks like a
// path ("./incast", "x.yaml") is always read as a file.
func Load(nameOrPath string, readFile func(string) ([]byte, error), sets []string) (Scenario, error) {
	return LoadChecked(nameOrPath, readFile, sets, nil)
}

// LoadChecked is Load with more checks (ParseChecked).
func LoadChecked(nameOrPath string, readFile func(string) ([]byte, error), sets []string, more func(s *Scenario, k *Check)) (Scenario, error) {
	looksLikePath := strings.ContainsAny(nameOrPath, `/\`) || path.Ext(nameOrPath) != ""
	if data, ok := Builtin(nameOrPath); ok && !looksLikePath {
		return ParseChecked(data, "builtin/"+nameOrPath+".yaml", sets, more)
	}
	if readFile == nil {
		return Scenario{}, msg.Errorf("scenario %q is not a built-in; built-ins are %s", nameOrPath, builtinNames())
	}
	data, err := readFile(nameOrPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !looksLikePath:
		return Scenario{}, msg.Errorf("scenario %q is neither a file nor a built-in; built-ins are %s: %w", nameOrPath, builtinNames(), err)
	case err != nil:
		return Scenario{}, msg.Errorf("reading scenario: %w", err)
	}
	return parseChecked(data, nameOrPath, sets, more, relativeReader(nameOrPath, readFile))
}
