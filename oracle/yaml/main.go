// Reads YAML files as go-yaml v3 reads them (gopkg.in/yaml.v3, the YAML library of
// docker compose's loader and of Go programs that read Kubernetes and Helm files), and prints
// one JSON line per file: whether it is accepted and, if so, every document as a tree of
// scalars (value and resolved tag), sequences and mappings, with aliases followed and merge
// keys merged as go-yaml's decoder merges them (decode.go, `merge`, v3.0.1).
//
// Usage: yaml-oracle FILE... (or a list of files, one a line, on stdin when no argument).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

type answer struct {
	Ok    bool          `json:"ok"`
	Error string        `json:"error,omitempty"`
	Docs  []interface{} `json:"docs"`
}

// A tree too deep or too wide to print is answered as refused: kafkalint bounds the same.
const maxNodes = 1 << 20

type canon struct{ nodes int }

func (c *canon) node(n *yaml.Node, depth int) interface{} {
	c.nodes++
	if c.nodes > maxNodes || depth > 10000 {
		panic(errors.New("tree too large to print"))
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return map[string]interface{}{"t": "!!null", "v": ""}
		}
		return c.node(n.Content[0], depth+1)
	case yaml.AliasNode:
		return c.node(n.Alias, depth+1)
	case yaml.ScalarNode:
		return map[string]interface{}{"t": n.ShortTag(), "v": n.Value}
	case yaml.SequenceNode:
		items := []interface{}{}
		for _, item := range n.Content {
			items = append(items, c.node(item, depth+1))
		}
		return map[string]interface{}{"seq": items}
	case yaml.MappingNode:
		return map[string]interface{}{"map": c.entries(n, depth)}
	}
	panic(fmt.Errorf("unknown node kind %v", n.Kind))
}

func isMerge(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "<<" && (n.Tag == "" || n.Tag == "!" || n.ShortTag() == "!!merge")
}

func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// The entries of a mapping: its own, then those of the mappings it merges that no earlier
// key set (go-yaml v3 decode.go: the mapping's own keys win, then the first merged mapping).
func (c *canon) entries(n *yaml.Node, depth int) [][2]interface{} {
	out := [][2]interface{}{}
	seen := map[string]bool{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		if isMerge(key) {
			merges = append(merges, value)
			continue
		}
		k := c.node(key, depth+1)
		seen[keyOf(k)] = true
		out = append(out, [2]interface{}{k, c.node(value, depth+1)})
	}
	var add func(m *yaml.Node)
	add = func(m *yaml.Node) {
		for _, e := range c.entries(deref(m), depth+1) {
			if key := keyOf(e[0]); !seen[key] {
				seen[key] = true
				out = append(out, e)
			}
		}
	}
	for _, merge := range merges {
		merge = deref(merge)
		switch merge.Kind {
		case yaml.MappingNode:
			add(merge)
		case yaml.SequenceNode:
			for _, item := range merge.Content {
				add(item)
			}
		}
	}
	return out
}

func keyOf(k interface{}) string {
	text, _ := json.Marshal(k)
	return string(text)
}

func read(path string) (result answer) {
	result.Docs = []interface{}{}
	data, err := os.ReadFile(path)
	if err != nil {
		return answer{Error: err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			result = answer{Error: fmt.Sprint(r), Docs: []interface{}{}}
		}
	}()
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	c := &canon{}
	for {
		var document yaml.Node
		err := decoder.Decode(&document)
		if err == io.EOF {
			break
		}
		if err != nil {
			return answer{Error: err.Error(), Docs: []interface{}{}}
		}
		// What a program decoding into Go values is refused: a repeated key, a merge of
		// no mapping, a value its tag does not fit.
		var value interface{}
		if err := document.Decode(&value); err != nil {
			return answer{Error: err.Error(), Docs: []interface{}{}}
		}
		result.Docs = append(result.Docs, c.node(&document, 0))
	}
	result.Ok = true
	return result
}

func main() {
	paths := os.Args[1:]
	if len(paths) == 0 {
		scanner := bufio.NewScanner(os.Stdin)
		scanner.Buffer(make([]byte, 1<<20), 1<<20)
		for scanner.Scan() {
			paths = append(paths, scanner.Text())
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	encoder.SetEscapeHTML(false)
	for _, path := range paths {
		if err := encoder.Encode(read(path)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
