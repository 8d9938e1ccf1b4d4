// Command karta-ref reads workload objects through upstream's Karta Go library and prints JSON
// documents shaped like the ones `wmap inspect`, `wmap status`, `wmap gang` and `wmap validate`
// produce for the same inputs (only the fields both can produce).
//
//	karta-ref inspect  --definition DEF -f OBJECTS...
//	karta-ref status   --definition DEF -f OBJECTS...
//	karta-ref gang     --definition DEF -f OBJECTS... [--pods PODS...]
//	karta-ref validate DEF...
//
// Each object of the -f files whose apiVersion and kind are the root kind of a definition of DEF
// gives one document; other objects are skipped. Pods are the objects of kind Pod in the --pods
// files. Output is indented JSON (compact with KARTA_REF_COMPACT=1). Exit status: 0 success, 1 a
// definition is invalid (validate), 2 usage or unreadable input.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	corev1 "k8s.io/api/core/v1"

	"workloadmap.dev/tests/upstream/ref"
)

type fileList []string

func (f *fileList) String() string     { return fmt.Sprint(*f) }
func (f *fileList) Set(v string) error { *f = append(*f, v); return nil }

func main() {
	os.Exit(run(os.Args[1:]))
}

func usage() int {
	fmt.Fprintln(os.Stderr, "usage: karta-ref inspect|status|gang --definition DEF -f FILE... [--pods FILE...] | karta-ref validate DEF...")
	return 2
}

func run(args []string) int {
	if len(args) == 0 {
		return usage()
	}
	cmd, rest := args[0], args[1:]
	enc := json.NewEncoder(os.Stdout)
	if os.Getenv("KARTA_REF_COMPACT") == "" {
		enc.SetIndent("", "  ")
	}
	enc.SetEscapeHTML(false)
	if cmd == "validate" {
		return validate(enc, rest)
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	var defFiles, objFiles, podFiles fileList
	fs.Var(&defFiles, "definition", "definition file (repeatable)")
	fs.Var(&objFiles, "f", "object file (repeatable)")
	fs.Var(&podFiles, "pods", "pod file (repeatable, gang only)")
	if err := fs.Parse(rest); err != nil || len(defFiles) == 0 || len(objFiles) == 0 {
		return usage()
	}
	var defs []*ref.Definition
	for _, f := range defFiles {
		d, err := ref.LoadDefinitions(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "karta-ref:", err)
			return 2
		}
		defs = append(defs, d...)
	}
	var pods []*corev1.Pod
	for _, f := range podFiles {
		objs, err := ref.LoadObjects(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "karta-ref:", err)
			return 2
		}
		for _, o := range objs {
			if o["kind"] != "Pod" {
				continue
			}
			p, err := ref.ToPod(o)
			if err != nil {
				fmt.Fprintln(os.Stderr, "karta-ref: pod:", err)
				return 2
			}
			pods = append(pods, p)
		}
	}
	ctx := context.Background()
	for _, f := range objFiles {
		objs, err := ref.LoadObjects(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "karta-ref:", err)
			return 2
		}
		for _, o := range objs {
			def := ref.DefinitionFor(defs, o)
			if def == nil {
				continue
			}
			var doc any
			switch cmd {
			case "inspect":
				doc = ref.Inspect(ctx, def, o)
			case "status":
				doc = ref.Status(ctx, def, o)
			case "gang":
				doc = ref.GangsOf(ctx, def, o, pods)
			default:
				return usage()
			}
			if err := enc.Encode(doc); err != nil {
				fmt.Fprintln(os.Stderr, "karta-ref:", err)
				return 2
			}
		}
	}
	return 0
}

func validate(enc *json.Encoder, files []string) int {
	if len(files) == 0 {
		return usage()
	}
	code := 0
	for _, f := range files {
		defs, err := ref.LoadDefinitions(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "karta-ref:", err)
			return 2
		}
		for _, d := range defs {
			v := ref.Validate(d)
			if !v.Valid {
				code = 1
			}
			if err := enc.Encode(v); err != nil {
				return 2
			}
		}
	}
	return code
}
