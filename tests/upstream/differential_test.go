package upstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"workloadmap.dev/tests/upstream/ref"
)

const (
	sampleCount      = 2000 // objects of the seeded sample
	sampleSeed       = 16
	sampleMutateBase = 150 // sample objects that also get mutated
	mutationSeed     = 1616
)

// env is what the differential needs from outside the module.
type env struct {
	repo, shared, wmap, work string
	// ref is the karta-ref program, built without the race detector so that the library runs
	// at full speed under `go test -race`.
	ref string
}

func setup(t *testing.T) env {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Clean(filepath.Join(wd, "..", ".."))
	shared := os.Getenv("WMAP_SHARED_DIR")
	if shared == "" {
		shared = filepath.Join(repo, "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(shared, "conformance", "upstream", "catalog")); err != nil {
		msg := fmt.Sprintf("needs the shared data folder %s (conformance/upstream; set WMAP_SHARED_DIR): not found", shared)
		if os.Getenv("WMAP_REQUIRE_SHARED") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bin := os.Getenv("WMAP_BIN")
	if bin == "" {
		bin = filepath.Join(repo, "build", "wmap")
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("needs the wmap binary %s (build it, or set WMAP_BIN): not found", bin)
	}
	e := env{repo: repo, shared: shared, wmap: bin, work: t.TempDir()}
	e.ref = os.Getenv("KARTA_REF_BIN")
	if e.ref == "" {
		e.ref = filepath.Join(e.work, "karta-ref")
		build := exec.Command("go", "build", "-o", e.ref, "./cmd/karta-ref")
		build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false -p=1")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build ./cmd/karta-ref: %v\n%s", err, out)
		}
	}
	return e
}

// runRef runs karta-ref and decodes one document of type T per object.
func runRef[T any](e env, args ...string) ([]T, error) {
	cmd := exec.Command(e.ref, args...)
	cmd.Env = append(os.Environ(), "KARTA_REF_COMPACT=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("karta-ref %s: %v: %s", strings.Join(args, " "), err, firstLine(stderr.String()))
	}
	dec := json.NewDecoder(&stdout)
	var out []T
	for {
		var v T
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// runWmap runs wmap and returns its standard output; a non-zero exit is not an error (wmap
// exits 1 when one object of many fails and still prints every document).
func (e env) runWmap(args ...string) ([]byte, error) {
	cmd := exec.Command(e.wmap, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	if exit != nil && exit.ExitCode() > 1 {
		return stdout.Bytes(), fmt.Errorf("wmap %s: exit %d: %s", strings.Join(args, " "), exit.ExitCode(), firstLine(stderr.String()))
	}
	return stdout.Bytes(), nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// documents splits a stream of JSON documents.
func documents(data []byte) ([]map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []map[string]any
	for {
		var m map[string]any
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
}

var fileSeq struct {
	sync.Mutex
	n int
}

// writeObjects writes objects as NDJSON to a new file of the work folder.
func (e env) writeObjects(objs []map[string]any) (string, error) {
	fileSeq.Lock()
	fileSeq.n++
	path := filepath.Join(e.work, fmt.Sprintf("objects-%d.ndjson", fileSeq.n))
	fileSeq.Unlock()
	var b bytes.Buffer
	for _, o := range objs {
		data, err := json.Marshal(o)
		if err != nil {
			return "", err
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return path, os.WriteFile(path, b.Bytes(), 0o644)
}

// wmapValidation is wmap validate's verdict and messages for one file.
type wmapValidation struct {
	valid    bool
	messages []string
}

func (e env) validateWmap(path string) (wmapValidation, error) {
	out, err := e.runWmap("validate", "--no-crd-defaults", path)
	if err != nil {
		return wmapValidation{}, err
	}
	v := wmapValidation{valid: true}
	docs := 0
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "OK: "):
			docs++
		case strings.HasPrefix(line, "INVALID: "):
			docs++
			v.valid = false
		case !strings.HasPrefix(line, path+":") && len(v.messages) > 0:
			// a message that spans lines (a jq expression with newlines)
			v.messages[len(v.messages)-1] += "\n" + line
		case strings.HasPrefix(line, path+":"):
			// file:line:col: message
			rest := strings.TrimPrefix(line, path+":")
			parts := strings.SplitN(rest, ": ", 2)
			if len(parts) == 2 {
				v.messages = append(v.messages, parts[1])
			} else {
				v.messages = append(v.messages, rest)
			}
		}
	}
	if docs == 0 {
		return v, fmt.Errorf("wmap validate %s: no verdict in %q", path, string(out))
	}
	return v, nil
}

// compareValidation compares the library's KartaValidator with wmap validate on one file.
func compareValidation(r *recorder, libs []ref.Validation, w wmapValidation) {
	valid := true
	var lmsgs []string
	for _, v := range libs {
		valid = valid && v.Valid
		lmsgs = append(lmsgs, v.Errors...)
	}
	verdict := map[bool]string{true: "valid", false: "invalid"}
	if valid != w.valid {
		r.add("validate.verdict", verdict[valid], verdict[w.valid])
	}
	wset := map[string]bool{}
	for _, m := range w.messages {
		wset[m] = true
	}
	lset := map[string]bool{}
	for _, m := range lmsgs {
		m = strings.ReplaceAll(m, "\n", `\n`) // wmap prints a message on one line
		lset[m] = true
		if !wset[m] {
			r.add("validate.missing: "+m, m, "")
		}
	}
	for _, m := range w.messages {
		if !lset[m] {
			r.add("validate.extra: "+m, "", m)
		}
	}
}

// pair is one definition with the objects of one set it describes.
type pair struct {
	def   *ref.Definition
	label string
	set   *objectSet
	roots []map[string]any
}

func (p pair) caseName(i int, obj map[string]any) string {
	if len(p.roots) == 1 && p.set.Source != "sample" {
		return p.set.Case
	}
	md := asMap(obj["metadata"])
	return fmt.Sprintf("%s/%d-%s", p.set.Case, i, str(md["name"]))
}

// evaluate compares inspect, status and gang (and, with pods, the pod placement) for a batch of
// pairs sharing one definition: roots without pods go to wmap in one file per command.
func (e env) evaluate(defPath string, pairs []pair) ([]difference, map[string]int, error) {
	var diffs []difference
	counts := map[string]int{}
	defArgs := []string{"--definition", defPath, "--no-crd-defaults", "--lenient"}

	type item struct {
		p   pair
		i   int
		obj map[string]any
	}
	var batch []item
	for _, p := range pairs {
		for i, o := range p.roots {
			batch = append(batch, item{p, i, o})
		}
	}
	if len(batch) == 0 {
		return nil, counts, nil
	}
	objs := make([]map[string]any, len(batch))
	for i, it := range batch {
		objs[i] = it.obj
	}
	file, err := e.writeObjects(objs)
	if err != nil {
		return nil, nil, err
	}
	streams := map[string][]map[string]any{}
	for _, cmd := range []string{"inspect", "status", "gang"} {
		out, err := e.runWmap(append([]string{cmd, "-o", "json", "-f", file}, defArgs...)...)
		if err != nil {
			return nil, nil, err
		}
		docs, err := documents(out)
		if err != nil {
			return nil, nil, fmt.Errorf("wmap %s on %s: %w", cmd, defPath, err)
		}
		if len(docs) != len(batch) {
			return nil, nil, fmt.Errorf("wmap %s on %s: %d documents for %d objects", cmd, defPath, len(docs), len(batch))
		}
		streams[cmd] = docs
	}
	refArgs := []string{"--definition", defPath, "-f", file}
	inspections, err := runRef[ref.Inspection](e, append([]string{"inspect"}, refArgs...)...)
	if err != nil {
		return nil, nil, err
	}
	statuses, err := runRef[ref.StatusReading](e, append([]string{"status"}, refArgs...)...)
	if err != nil {
		return nil, nil, err
	}
	gangs, err := runRef[ref.Gangs](e, append([]string{"gang"}, refArgs...)...)
	if err != nil {
		return nil, nil, err
	}
	if len(inspections) != len(batch) || len(statuses) != len(batch) || len(gangs) != len(batch) {
		return nil, nil, fmt.Errorf("karta-ref on %s: %d/%d/%d documents for %d objects", defPath,
			len(inspections), len(statuses), len(gangs), len(batch))
	}
	for k, it := range batch {
		r := &recorder{key: pairKey{it.p.set.Source, it.p.label, it.p.caseName(it.i, it.obj)}}
		checkIdentity(r, it.obj, streams["inspect"][k], streams["status"][k], streams["gang"][k])
		compareInspect(r, inspections[k], streams["inspect"][k])
		compareStatus(r, statuses[k], streams["status"][k])
		compareGangs(r, gangs[k], streams["gang"][k], false)
		diffs = append(diffs, r.diffs...)
		counts[it.p.set.Source]++
	}
	// Sets with pods: gang and describe with the children and pods, one workload at a time.
	for _, p := range pairs {
		pods := podsOf(p.set.Related)
		if len(pods) == 0 || len(p.roots) != 1 || p.set.SkipPods {
			continue
		}
		root := p.roots[0]
		rootFile, err := e.writeObjects(p.roots)
		if err != nil {
			return nil, nil, err
		}
		relFile, err := e.writeObjects(p.set.Related)
		if err != nil {
			return nil, nil, err
		}
		libs, err := runRef[ref.Gangs](e, "gang", "--definition", defPath, "-f", rootFile, "--pods", relFile)
		if err != nil {
			return nil, nil, err
		}
		if len(libs) != 1 {
			return nil, nil, fmt.Errorf("karta-ref gang %s: %d documents", p.set.Case, len(libs))
		}
		lib := libs[0]
		r := &recorder{key: pairKey{p.set.Source, p.label, p.caseName(0, root) + "+pods"}}
		args := append([]string{"-o", "json", "-f", rootFile, "-f", relFile}, defArgs...)
		out, err := e.runWmap(append([]string{"gang"}, args...)...)
		if err != nil {
			return nil, nil, err
		}
		gdoc, err := workloadDocument(out, root)
		if err != nil {
			return nil, nil, fmt.Errorf("wmap gang %s: %w", p.set.Case, err)
		}
		compareGangs(r, lib, gdoc, true)
		out, err = e.runWmap(append([]string{"describe"}, args...)...)
		if err != nil {
			return nil, nil, err
		}
		ddoc, err := workloadDocument(out, root)
		if err != nil {
			return nil, nil, fmt.Errorf("wmap describe %s: %w", p.set.Case, err)
		}
		comparePlacement(r, lib, ddoc)
		diffs = append(diffs, r.diffs...)
		counts[p.set.Source+" (with pods)"]++
	}
	return diffs, counts, nil
}

// workloadDocument picks the document about root from a stream (children with definitions of
// their own may give documents too).
func workloadDocument(out []byte, root map[string]any) (map[string]any, error) {
	docs, err := documents(out)
	if err != nil {
		return nil, err
	}
	name := str(asMap(root["metadata"])["name"])
	for _, d := range docs {
		wl := asMap(d["workload"])
		if str(wl["kind"]) == str(root["kind"]) && str(wl["name"]) == name {
			return d, nil
		}
	}
	if len(docs) == 1 {
		return docs[0], nil
	}
	return nil, fmt.Errorf("no document for %s %s among %d", root["kind"], name, len(docs))
}

// checkIdentity makes sure the documents of a batch line up with its objects.
func checkIdentity(r *recorder, obj map[string]any, docs ...map[string]any) {
	name := str(asMap(obj["metadata"])["name"])
	for _, d := range docs {
		wl := asMap(d["workload"])
		if wl == nil {
			continue // an error document
		}
		if str(wl["name"]) != name || str(wl["kind"]) != str(obj["kind"]) {
			r.add("harness.order", name, wl["name"])
		}
	}
}

func TestDifferential(t *testing.T) {
	e := setup(t)
	known, err := loadKnown(filepath.Join(e.repo, "tests", "conformance", "KNOWN_DIFFERENCES.md"))
	if err != nil {
		t.Fatal(err)
	}
	pool, err := loadDefinitionPool(e.shared, e.repo)
	if err != nil {
		t.Fatal(err)
	}
	var all []difference
	counts := map[string]int{}

	// Validation: every definition of the pool and the broken definitions of the tests.
	files := make([]string, 0, len(pool))
	labels := map[string]string{}
	for _, df := range pool {
		files = append(files, df.Path)
		labels[df.Path] = df.Label
	}
	for _, g := range brokenDefinitionGlobs(e.repo) {
		matches, _ := filepath.Glob(g)
		sort.Strings(matches)
		for _, m := range matches {
			if _, ok := labels[m]; ok {
				continue
			}
			rel, _ := filepath.Rel(e.repo, m)
			files = append(files, m)
			labels[m] = "wmap-tests/" + rel
		}
	}
	usable := map[string]bool{}
	for _, f := range files {
		defs, err := ref.LoadDefinitions(f)
		if err != nil {
			t.Fatal(err)
		}
		var libs []ref.Validation
		libValid := true
		for _, d := range defs {
			v := ref.Validate(d)
			libValid = libValid && v.Valid
			libs = append(libs, v)
		}
		w, err := e.validateWmap(f)
		if err != nil {
			t.Fatal(err)
		}
		r := &recorder{key: pairKey{"definitions", labels[f], "validate"}}
		compareValidation(r, libs, w)
		all = append(all, r.diffs...)
		counts["definitions (validate)"]++
		usable[f] = libValid && w.valid
	}

	// Objects.
	kinds := rootKinds(pool)
	var sets []*objectSet
	for _, load := range []func() ([]*objectSet, error){
		func() ([]*objectSet, error) { return catalogTestdata(e.repo, kinds) },
		func() ([]*objectSet, error) { return examples(e.repo, kinds) },
		func() ([]*objectSet, error) { return upstreamSamples(e.shared, kinds) },
		func() ([]*objectSet, error) { return recordedFrames(e.shared, kinds) },
	} {
		s, err := load()
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, s...)
	}
	bases := append([]*objectSet{}, sets...)
	sample, err := sampleCorpus(e.shared, sampleCount, sampleSeed, kinds)
	if err != nil {
		t.Logf("sample corpus skipped: %v", err)
	} else {
		sets = append(sets, sample)
		head := *sample
		head.Roots = sample.Roots[:min(sampleMutateBase, len(sample.Roots))]
		bases = append(bases, &head)
	}
	sets = append(sets, mutants(bases, mutationSeed)...)

	// Pairs: every usable definition with every root of its kind, one wmap batch per
	// definition, two batches at a time.
	type job struct {
		path  string
		pairs []pair
	}
	var jobs []job
	for _, df := range pool {
		if !usable[df.Path] {
			continue
		}
		var pairs []pair
		for _, d := range df.Defs {
			for _, s := range sets {
				var roots []map[string]any
				for _, o := range s.Roots {
					if ref.DefinitionFor([]*ref.Definition{d}, o) != nil {
						roots = append(roots, o)
					}
				}
				if len(roots) > 0 {
					pairs = append(pairs, pair{def: d, label: df.Label, set: s, roots: roots})
				}
			}
		}
		if len(pairs) > 0 {
			jobs = append(jobs, job{df.Path, pairs})
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	queue := make(chan job)
	var firstErr error
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				diffs, c, err := e.evaluate(j.path, j.pairs)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				all = append(all, diffs...)
				for k, v := range c {
					counts[k] += v
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}

	report(t, all, known, counts)
}

// report fails the test on every difference no row of the known table lists.
func report(t *testing.T, all []difference, known []*knownDifference, counts map[string]int) {
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		if a.Definition != b.Definition {
			return a.Definition < b.Definition
		}
		if a.Case != b.Case {
			return a.Case < b.Case
		}
		return a.Field < b.Field
	})
	if path := os.Getenv("WMAP_UPSTREAM_REPORT"); path != "" {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		for _, d := range all {
			_ = enc.Encode(d)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Error(err)
		}
	}
	var sources []string
	for k := range counts {
		sources = append(sources, k)
	}
	sort.Strings(sources)
	for _, s := range sources {
		t.Logf("pairs compared: %-28s %6d", s, counts[s])
	}
	var unlisted []difference
	for _, d := range all {
		listed := false
		for _, k := range known {
			if k.matches(d) {
				k.hits++
				listed = true
				break
			}
		}
		if !listed {
			unlisted = append(unlisted, d)
		}
	}
	byClass := map[string]int{}
	for _, k := range known {
		byClass[k.Class] += k.hits
		if k.hits == 0 {
			t.Logf("KNOWN_DIFFERENCES.md:%d lists a difference no pair shows any more: %s | %s | %s | %s",
				k.Line, k.Source, k.Definition, k.Case, k.Field)
		}
	}
	var classes []string
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		t.Logf("listed differences, %-18s %6d", c+":", byClass[c])
	}
	const shown = 60
	for i, d := range unlisted {
		if i == shown {
			t.Errorf("... and %d more", len(unlisted)-shown)
			break
		}
		t.Errorf("unlisted difference: %s", d)
	}
	if len(unlisted) > 0 {
		t.Errorf("%d differences are not listed in tests/conformance/KNOWN_DIFFERENCES.md (section \"Go library differential\")", len(unlisted))
	}
}
