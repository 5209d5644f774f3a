package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// MarshalYAML prints a scenario without the keys its settings ignore
// (keyUses), and without topology.from once its file has been read (the
// keys it set are there): what yaml.Marshal writes is read back as the same run, and
// never refused for a key the run does not use.
func (s Scenario) MarshalYAML() (any, error) {
	type plain Scenario // no MarshalYAML: encodes the fields
	var doc yaml.Node
	if err := doc.Encode(plain(s)); err != nil {
		return nil, err
	}
	var prune func(n *yaml.Node, path string)
	prune = func(n *yaml.Node, path string) {
		if n.Kind != yaml.MappingNode {
			return
		}
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := join(path, n.Content[i].Value)
			top := !strings.Contains(key, ".") && isSection(key) // its keys have their own say
			if u := useOf(key); !top && u.used != nil && !u.used(&s) {
				continue
			}
			if key == "topology.from" && s.Topology.Node != nil {
				continue // the keys it set are written out, and the reader may have no files (the browser)
			}
			prune(n.Content[i+1], key)
			kept = append(kept, n.Content[i], n.Content[i+1])
		}
		n.Content = kept
	}
	prune(&doc, "")
	return &doc, nil
}
