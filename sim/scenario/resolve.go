package scenario

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// Resolve is the YAML of data with sets applied, for a learner to edit: the
// document's comments and layout are kept and each set is written where its
// key is (or added under its parent). It checks only that data is one YAML
// mapping and that the sets apply; ParseWith validates. Without sets it is
// data itself.
func Resolve(data []byte, source string, sets []string) ([]byte, error) {
	if len(data) > MaxSourceBytes {
		_, err := ParseWith(data, source, nil)
		return nil, err
	}
	root, err := parseDocument(data, source)
	if err != nil {
		return nil, err
	}
	if len(sets) == 0 {
		return data, nil
	}
	origin := make(map[*yaml.Node]string)
	for _, set := range sets {
		if err := applySet(root, set, origin); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
