// Command karta-bench does the work of `wmap inspect`, `wmap status`, `wmap gang` and
// `wmap validate` over a whole corpus through upstream's Karta Go library (the version KAI
// Scheduler pins), for the side-by-side benchmark of bench/upstream/run.sh.
//
//	karta-bench --mode=full     --jq=asis|precompiled --catalog DIR -f corpus.ndjson > out.json
//	karta-bench --mode=status   --jq=asis|precompiled --catalog DIR -f corpus.ndjson > out.json
//	karta-bench --mode=validate --catalog DIR
//
// full: for each object, one component factory; the components with their instances, scale and
// templates (GetInstanceIds, GetExtractedInstances), the root's status (GetStatus) and the pod
// groups with their minimums (CalculateSubtreeScale); three JSON documents per object.
// status: the root's status only, one document per object.
// validate: every definition file of the catalog decoded and checked with KartaValidator.
//
// --jq=asis uses the library as it is (NewComponentFactoryFromObject: every jq expression parsed
// and compiled on every call). --jq=precompiled gives the factory an execution.Runner that
// compiles each distinct expression once for the whole run. Objects whose kind has no definition
// in the catalog are skipped (the corpus has none). With --stats the counts and the time spent
// decoding, evaluating and encoding go to standard error; --cpuprofile FILE writes a CPU profile.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"time"

	"github.com/run-ai/karta/pkg/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"workloadmap.dev/tests/upstream/ref"
)

func main() {
	mode := flag.String("mode", "full", "full | status | validate")
	jq := flag.String("jq", "asis", "asis (the library as it is) | precompiled (each expression compiled once)")
	catalog := flag.String("catalog", "", "folder of definition files (*.yaml)")
	corpus := flag.String("f", "", "objects: NDJSON or a stream of JSON values")
	stats := flag.Bool("stats", false, "print counts and timings to standard error")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile (go tool pprof) to this file")
	flag.Parse()
	if *catalog == "" || (*mode != "validate" && *corpus == "") || (*jq != "asis" && *jq != "precompiled") {
		flag.Usage()
		os.Exit(2)
	}
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(pf)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "karta-bench:", err)
			os.Exit(2)
		}
	}
	err := run(*mode, *jq, *catalog, *corpus, *stats)
	pprof.StopCPUProfile()
	if err != nil {
		fmt.Fprintln(os.Stderr, "karta-bench:", err)
		os.Exit(2)
	}
}

func run(mode, jq, catalog, corpus string, stats bool) error {
	start := time.Now()
	files, err := filepath.Glob(filepath.Join(catalog, "*.yaml"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)

	var defs []*ref.Definition
	for _, f := range files {
		d, err := ref.LoadDefinitions(f)
		if err != nil {
			return err
		}
		defs = append(defs, d...)
	}
	if mode == "validate" {
		invalid := 0
		for _, d := range defs {
			v := ref.Validate(d)
			if !v.Valid {
				invalid++
			}
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
		if stats {
			fmt.Fprintf(os.Stderr, "files: %d\ndefinitions: %d\ninvalid: %d\ntotal_s: %.6f\n",
				len(files), len(defs), invalid, time.Since(start).Seconds())
		}
		return nil
	}
	if mode != "full" && mode != "status" {
		return fmt.Errorf("unknown mode %q", mode)
	}

	fh, err := os.Open(corpus)
	if err != nil {
		return err
	}
	defer fh.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(fh, 1<<20))
	cache := newCodeCache()
	byKind := map[string]*ref.Definition{}
	ctx := context.Background()
	var objects, skipped, failed int
	var decodeD, evalD, encodeD time.Duration
	for {
		t0 := time.Now()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return fmt.Errorf("%s: %w", corpus, err)
		}
		t1 := time.Now()
		decodeD += t1.Sub(t0)
		api, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		key := api + " " + kind
		def, seen := byKind[key]
		if !seen {
			def = ref.DefinitionFor(defs, obj)
			byKind[key] = def
		}
		if def == nil {
			skipped++
			continue
		}
		objects++
		u := &unstructured.Unstructured{Object: obj}
		var factory *resource.ComponentFactory
		if jq == "asis" {
			factory = resource.NewComponentFactoryFromObject(def.Karta, u)
		} else {
			factory = resource.NewComponentFactory(def.Karta, resource.NewAccessor(newCachedRunner(u, cache)))
		}
		w := ref.WorkloadRef{APIVersion: api, Kind: kind, Namespace: u.GetNamespace(), Name: u.GetName(), UID: string(u.GetUID())}
		var docs []any
		st := ref.StatusWith(ctx, def, w, factory)
		if st.Error != "" {
			failed++
		}
		if mode == "full" {
			in := ref.InspectWith(ctx, def, w, factory)
			for _, c := range in.Components {
				if c.Error != "" {
					failed++
				}
			}
			docs = append(docs, in, st, gangs(ctx, def, w, factory))
		} else {
			docs = append(docs, st)
		}
		t2 := time.Now()
		evalD += t2.Sub(t1)
		for _, d := range docs {
			if err := enc.Encode(d); err != nil {
				return err
			}
		}
		encodeD += time.Since(t2)
	}
	if stats {
		fmt.Fprintf(os.Stderr, "mode: %s\njq: %s\nobjects: %d\nskipped: %d\nfailed_readings: %d\ncompiles: %d\n"+
			"decode_s: %.6f\neval_s: %.6f\nencode_s: %.6f\ntotal_s: %.6f\n",
			mode, jq, objects, skipped, failed, cache.compiles, decodeD.Seconds(), evalD.Seconds(),
			encodeD.Seconds(), time.Since(start).Seconds())
	}
	return nil
}
