package upstream

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
)

// Mutations derive objects a controller or a user could produce and the catalog test data does
// not hold: a field removed, counts set to zero or written as strings, statuses shuffled, pods
// missing a label. Every choice comes from one seeded generator, so the mutants are the same on
// every run.

var countKey = regexp.MustCompile(`(?i)^(replicas|minreplicas|maxreplicas|parallelism|completions|size|nodecount|numofhosts|workers|active|ready|succeeded|failed|readyreplicas|availablereplicas|updatedreplicas)$`)

func deepCopy(v map[string]any) map[string]any {
	data, _ := json.Marshal(v)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

// fieldPaths lists the paths of object keys under spec and status, to depth 5.
func fieldPaths(obj map[string]any) [][]any {
	var out [][]any
	var walk func(v any, path []any, depth int)
	walk = func(v any, path []any, depth int) {
		if depth > 5 {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := append(append([]any{}, path...), k)
				out = append(out, p)
				walk(t[k], p, depth+1)
			}
		case []any:
			if len(t) > 0 {
				walk(t[0], append(append([]any{}, path...), 0), depth+1)
			}
		}
	}
	for _, top := range []string{"spec", "status"} {
		if v, ok := obj[top]; ok {
			walk(v, []any{top}, 1)
		}
	}
	return out
}

func pathString(p []any) string {
	var b strings.Builder
	for _, e := range p {
		switch t := e.(type) {
		case string:
			b.WriteString("." + t)
		case int:
			fmt.Fprintf(&b, "[%d]", t)
		}
	}
	return b.String()
}

func deletePath(obj map[string]any, p []any) {
	var cur any = obj
	for i, e := range p {
		last := i == len(p)-1
		switch t := cur.(type) {
		case map[string]any:
			k := e.(string)
			if last {
				delete(t, k)
				return
			}
			cur = t[k]
		case []any:
			idx := e.(int)
			if idx >= len(t) {
				return
			}
			cur = t[idx]
		default:
			return
		}
	}
}

// rewrite applies f to every (key, value) of maps under v and stores what it returns.
func rewrite(v any, f func(key string, val any) any) {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			t[k] = f(k, val)
			rewrite(t[k], f)
		}
	case []any:
		for _, e := range t {
			rewrite(e, f)
		}
	}
}

func mutateCounts(obj map[string]any, top string, to func(float64) any) bool {
	changed := false
	rewrite(obj[top], func(k string, v any) any {
		if n, ok := v.(float64); ok && countKey.MatchString(k) {
			changed = true
			return to(n)
		}
		return v
	})
	return changed
}

var conditionFlip = map[string]string{"True": "False", "False": "True", "Unknown": "True"}

// shuffleStatus reverses the conditions, flips their status and moves phase-like strings to
// another value seen on objects of the same kind.
func shuffleStatus(obj map[string]any, rng *rand.Rand, phases []string) bool {
	st, ok := obj["status"].(map[string]any)
	if !ok {
		return false
	}
	changed := false
	if conds, ok := st["conditions"].([]any); ok && len(conds) > 0 {
		for i, j := 0, len(conds)-1; i < j; i, j = i+1, j-1 {
			conds[i], conds[j] = conds[j], conds[i]
		}
		for _, c := range conds {
			if m, ok := c.(map[string]any); ok {
				if s, ok := m["status"].(string); ok && conditionFlip[s] != "" {
					m["status"] = conditionFlip[s]
				}
			}
		}
		changed = true
	}
	for _, key := range []string{"phase", "state"} {
		if _, ok := st[key].(string); ok && len(phases) > 0 {
			st[key] = phases[rng.IntN(len(phases))]
			changed = true
		}
	}
	return changed
}

// mutants derives the mutated sets of base sets.
func mutants(bases []*objectSet, seed uint64) []*objectSet {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	phasesByKind := map[string][]string{}
	for _, b := range bases {
		for _, r := range b.Roots {
			if st, ok := r["status"].(map[string]any); ok {
				for _, key := range []string{"phase", "state"} {
					if s, ok := st[key].(string); ok {
						phasesByKind[gvkOf(r)] = appendUnique(phasesByKind[gvkOf(r)], s)
					}
				}
			}
		}
	}
	var out []*objectSet
	add := func(b *objectSet, name string, roots []map[string]any, related []map[string]any) {
		out = append(out, &objectSet{Source: "mutation", Case: b.Source + "/" + b.Case + "/" + name, Roots: roots, Related: related})
	}
	addNoPods := func(b *objectSet, name string, roots []map[string]any) {
		add(b, name, roots, b.Related)
		out[len(out)-1].SkipPods = true
	}
	for _, b := range bases {
		for i, root := range b.Roots {
			prefix := ""
			if len(b.Roots) > 1 {
				prefix = fmt.Sprintf("%d/", i)
			}
			single := func(m map[string]any) []map[string]any { return []map[string]any{m} }
			paths := fieldPaths(root)
			for k := 0; k < 4 && len(paths) > 0; k++ {
				p := paths[rng.IntN(len(paths))]
				m := deepCopy(root)
				deletePath(m, p)
				if k == 0 {
					add(b, prefix+"drop"+pathString(p), single(m), b.Related)
				} else {
					addNoPods(b, prefix+"drop"+pathString(p), single(m))
				}
			}
			if m := deepCopy(root); mutateCounts(m, "spec", func(float64) any { return 0.0 }) {
				add(b, prefix+"zero-spec-counts", single(m), b.Related)
			}
			if m := deepCopy(root); mutateCounts(m, "status", func(float64) any { return 0.0 }) {
				addNoPods(b, prefix+"zero-status-counts", single(m))
			}
			if m := deepCopy(root); mutateCounts(m, "spec", func(n float64) any { return fmt.Sprint(n) }) {
				add(b, prefix+"string-spec-counts", single(m), b.Related)
			}
			if m := deepCopy(root); shuffleStatus(m, rng, phasesByKind[gvkOf(root)]) {
				addNoPods(b, prefix+"shuffle-status", single(m))
			}
		}
		if pods := podsOf(b.Related); len(pods) > 0 {
			related := make([]map[string]any, 0, len(b.Related))
			for _, o := range b.Related {
				o = deepCopy(o)
				if o["kind"] == "Pod" {
					if md, ok := o["metadata"].(map[string]any); ok {
						if labels, ok := md["labels"].(map[string]any); ok && len(labels) > 0 {
							keys := make([]string, 0, len(labels))
							for k := range labels {
								keys = append(keys, k)
							}
							sort.Strings(keys)
							delete(labels, keys[rng.IntN(len(keys))])
						}
					}
				}
				related = append(related, o)
			}
			add(b, "pods-drop-label", b.Roots, related)
		}
	}
	return out
}

func appendUnique(list []string, s string) []string {
	for _, e := range list {
		if e == s {
			return list
		}
	}
	return append(list, s)
}
