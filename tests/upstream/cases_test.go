package upstream

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"workloadmap.dev/tests/upstream/ref"
)

// definitionFile is one definition file of the pool, with the label differences name it by.
type definitionFile struct {
	Label string // <set>/<file stem>
	Path  string
	Defs  []*ref.Definition
}

// objectSet is one group of workload objects read together: the roots (objects of a kind some
// definition describes), and optionally the children and pods their controllers made.
type objectSet struct {
	Source string // catalog-testdata, examples, recorded, upstream-samples, sample, mutation
	Case   string
	Roots  []map[string]any
	// Related holds the children and pods (given to wmap as another -f file); the pods among
	// them are given to the library.
	Related []map[string]any
	// SkipPods leaves out the comparisons that need the pods (gang with pods, placement): a
	// mutation of the status cannot change them, and one removed field per object is enough.
	SkipPods bool
}

// definitionSets lists the definition files of the pool: upstream's catalog, its v0.2 and
// legacy samples, and this repository's Karta-format definitions.
func definitionSets(shared, repo string) []struct{ Label, Glob string } {
	up := filepath.Join(shared, "conformance", "upstream")
	return []struct{ Label, Glob string }{
		{"upstream-catalog", filepath.Join(up, "catalog", "*.yaml")},
		{"upstream-v0.2", filepath.Join(up, "samples", "docs-samples", "*.yaml")},
		{"upstream-legacy", filepath.Join(up, "samples", "docs-samples-legacy", "*.yaml")},
		{"wmap-karta", filepath.Join(repo, "catalog", "karta", "*.yaml")},
		{"wmap-catalog", filepath.Join(repo, "catalog", "*.yaml")},
	}
}

// brokenDefinitionGlobs are the invalid definitions of this repository's tests.
func brokenDefinitionGlobs(repo string) []string {
	return []string{
		filepath.Join(repo, "tests", "model", "testdata", "*.yaml"),
		filepath.Join(repo, "tests", "cli", "testdata", "*", "*definition*.yaml"),
	}
}

func loadDefinitionPool(shared, repo string) ([]*definitionFile, error) {
	var pool []*definitionFile
	for _, set := range definitionSets(shared, repo) {
		files, _ := filepath.Glob(set.Glob)
		sort.Strings(files)
		for _, f := range files {
			if !isKarta(f) {
				continue
			}
			defs, err := ref.LoadDefinitions(f)
			if err != nil {
				return nil, err
			}
			pool = append(pool, &definitionFile{Label: set.Label + "/" + stem(f), Path: f, Defs: defs})
		}
	}
	return pool, nil
}

// isKarta reports whether a file's first document is a run.ai/v1alpha1 Karta (this repository's
// catalog also holds definitions in its own format, which upstream cannot read).
func isKarta(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	s := string(data)
	return strings.Contains(s, "apiVersion: run.ai/v1alpha1") && strings.Contains(s, "kind: Karta")
}

func stem(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// rootKinds is the set of "apiVersion kind" that some definition of the pool describes.
func rootKinds(pool []*definitionFile) map[string]bool {
	kinds := map[string]bool{}
	for _, df := range pool {
		for _, d := range df.Defs {
			if d.Karta == nil || d.Karta.Spec.StructureDefinition.RootComponent.Kind == nil {
				continue
			}
			k := d.Karta.Spec.StructureDefinition.RootComponent.Kind
			av := k.Version
			if k.Group != "" {
				av = k.Group + "/" + k.Version
			}
			kinds[av+" "+k.Kind] = true
		}
	}
	return kinds
}

func gvkOf(obj map[string]any) string {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	return av + " " + k
}

// splitRoots separates the objects of a file into roots (of a kind in kinds) and the rest.
func splitRoots(objs []map[string]any, kinds map[string]bool) (roots, rest []map[string]any) {
	for _, o := range objs {
		if kinds[gvkOf(o)] && o["kind"] != "Pod" {
			roots = append(roots, o)
		} else {
			rest = append(rest, o)
		}
	}
	return roots, rest
}

func podsOf(objs []map[string]any) []map[string]any {
	var pods []map[string]any
	for _, o := range objs {
		if o["kind"] == "Pod" {
			pods = append(pods, o)
		}
	}
	return pods
}

// fileCases reads "<case>.yaml" files with an optional "<case>.pods.yaml" beside them.
func fileCases(source string, files []string, caseName func(string) string, kinds map[string]bool) ([]*objectSet, error) {
	var sets []*objectSet
	for _, f := range files {
		if strings.HasSuffix(f, ".pods.yaml") {
			continue
		}
		objs, err := ref.LoadObjects(f)
		if err != nil {
			return nil, err
		}
		roots, _ := splitRoots(objs, kinds)
		if len(roots) == 0 {
			continue
		}
		set := &objectSet{Source: source, Case: caseName(f), Roots: roots}
		podsFile := strings.TrimSuffix(f, ".yaml") + ".pods.yaml"
		if _, err := os.Stat(podsFile); err == nil {
			related, err := ref.LoadObjects(podsFile)
			if err != nil {
				return nil, err
			}
			set.Related = related
		}
		sets = append(sets, set)
	}
	return sets, nil
}

func catalogTestdata(repo string, kinds map[string]bool) ([]*objectSet, error) {
	files, _ := filepath.Glob(filepath.Join(repo, "catalog", "testdata", "*", "*.yaml"))
	sort.Strings(files)
	return fileCases("catalog-testdata", files, func(f string) string {
		return filepath.Base(filepath.Dir(f)) + "/" + stem(f)
	}, kinds)
}

func examples(repo string, kinds map[string]bool) ([]*objectSet, error) {
	files, _ := filepath.Glob(filepath.Join(repo, "examples", "*.yaml"))
	sort.Strings(files)
	return fileCases("examples", files, stem, kinds)
}

func upstreamSamples(shared string, kinds map[string]bool) ([]*objectSet, error) {
	files, _ := filepath.Glob(filepath.Join(shared, "conformance", "upstream", "samples", "workloads", "*.yaml"))
	sort.Strings(files)
	return fileCases("upstream-samples", files, stem, kinds)
}

// recordedFrames gives one set per recording: the object of every STATE event.
func recordedFrames(shared string, kinds map[string]bool) ([]*objectSet, error) {
	files, _ := filepath.Glob(filepath.Join(shared, "conformance", "upstream", "samples", "recorded", "*.yaml"))
	sort.Strings(files)
	var sets []*objectSet
	for _, f := range files {
		docs, err := ref.LoadObjects(f)
		if err != nil {
			return nil, err
		}
		set := &objectSet{Source: "recorded", Case: stem(f)}
		for _, doc := range docs {
			events, _ := doc["events"].([]any)
			for _, e := range events {
				ev, _ := e.(map[string]any)
				if ev["kind"] != "STATE" {
					continue
				}
				if obj, ok := ev["object"].(map[string]any); ok && kinds[gvkOf(obj)] {
					set.Roots = append(set.Roots, obj)
				}
			}
		}
		if len(set.Roots) > 0 {
			sets = append(sets, set)
		}
	}
	return sets, nil
}

// sampleCorpus runs the shared corpus generator (deterministic for a given count and seed).
func sampleCorpus(shared string, n, seed int, kinds map[string]bool) (*objectSet, error) {
	gen := filepath.Join(shared, "bench", "gen_workloads.py")
	out, err := exec.Command("python3", gen, "-n", fmt.Sprint(n), "--seed", fmt.Sprint(seed)).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", gen, err)
	}
	set := &objectSet{Source: "sample", Case: fmt.Sprintf("seed-%d", seed)}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			return nil, err
		}
		if kinds[gvkOf(obj)] {
			set.Roots = append(set.Roots, obj)
		}
	}
	return set, nil
}
