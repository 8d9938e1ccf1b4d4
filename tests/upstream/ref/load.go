package ref

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/run-ai/karta/pkg/api/runai/v1alpha1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// Definition is one Karta read from a file, decoded the way a Go program that embeds upstream's
// library decodes it: sigs.k8s.io/yaml into the v1alpha1 types, unknown fields ignored and no
// CRD defaults applied.
type Definition struct {
	File  string
	Karta *v1alpha1.Karta
	// DecodeError is set when the document does not decode into a Karta (a field of the wrong
	// type); Karta is then nil.
	DecodeError error
}

// Name is the definition's metadata.name.
func (d *Definition) Name() string {
	if d.Karta == nil {
		return ""
	}
	return d.Karta.Name
}

// LoadDefinitions reads every YAML or JSON document of a file as a Karta.
func LoadDefinitions(path string) ([]*Definition, error) {
	docs, err := readDocuments(path)
	if err != nil {
		return nil, err
	}
	defs := make([]*Definition, 0, len(docs))
	for _, doc := range docs {
		k := &v1alpha1.Karta{}
		if err := sigsyaml.Unmarshal(doc, k); err != nil {
			defs = append(defs, &Definition{File: path, DecodeError: err})
			continue
		}
		defs = append(defs, &Definition{File: path, Karta: k})
	}
	return defs, nil
}

// LoadObjects reads every object of a file (YAML documents, JSON values, NDJSON); JSON arrays and
// `kind: List` documents give their items.
func LoadObjects(path string) ([]map[string]any, error) {
	docs, err := readDocuments(path)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, doc := range docs {
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = appendObjects(out, v)
	}
	return out, nil
}

func appendObjects(out []map[string]any, v any) []map[string]any {
	switch t := v.(type) {
	case []any:
		for _, item := range t {
			out = appendObjects(out, item)
		}
	case map[string]any:
		if kind, _ := t["kind"].(string); kind == "List" {
			if items, ok := t["items"].([]any); ok {
				return appendObjects(out, items)
			}
		}
		out = append(out, t)
	}
	return out
}

// readDocuments splits a file into JSON documents (YAML documents are converted to JSON).
func readDocuments(path string) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var docs [][]byte
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
			continue
		}
		docs = append(docs, raw)
	}
	return docs, nil
}

// DefinitionFor returns the first decoded definition whose root component's kind is obj's
// apiVersion and kind, or nil.
func DefinitionFor(defs []*Definition, obj map[string]any) *Definition {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	for _, d := range defs {
		if d.Karta == nil {
			continue
		}
		k := d.Karta.Spec.StructureDefinition.RootComponent.Kind
		if k == nil || k.Kind != kind {
			continue
		}
		want := k.Version
		if k.Group != "" {
			want = k.Group + "/" + k.Version
		}
		if want == apiVersion {
			return d
		}
	}
	return nil
}
