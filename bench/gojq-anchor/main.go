// Command gojq-anchor measures gojq, built against the version pinned in go.mod (0.12.20 from the
// Go module proxy), on the catalog expressions of exprs.tsv over the NDJSON corpus of
// ../shared/bench. It follows the evaluation rules of ../shared/bench/README.md ("What is
// measured") and prints the same "key: value" lines and checksum as the shared harnesses, so that
// ../shared/bench/run.sh can run it as an extra configuration (EXTRA_CONFIGS) and its summarizer
// can put it in the same table.
//
//	gojq-anchor --mode=compiled|upstream|decode [--corpus FILE] [--exprs FILE] [--limit N]
//	            [--max-results N] [--timeout D] [--checksum=false]
//
// compiled: each expression parsed and compiled once (when its kind first appears, not timed);
// upstream: gojq.Parse + gojq.Compile on every evaluation, run with a 10 s context as upstream's
// runner does; decode: JSON decoding and the kind lookup only.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/itchyny/gojq"
)

type expr struct {
	text     string
	code     *gojq.Code
	err      error
	compiled bool
}

func gojqVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/itchyny/gojq" {
				return strings.TrimPrefix(d.Version, "v")
			}
		}
	}
	return "?"
}

// loadExprs reads exprs.tsv: kind<TAB>definition<TAB>field<TAB>expression, # comments.
func loadExprs(path string) (map[string][]*expr, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	unescape := strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
	byKind := map[string][]*expr{}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			return nil, 0, fmt.Errorf("%s: want 4 columns: %q", path, line)
		}
		k := unescape.Replace(cols[0])
		byKind[k] = append(byKind[k], &expr{text: unescape.Replace(cols[3])})
		n++
	}
	return byKind, n, nil
}

func compile(text string) (*gojq.Code, error) {
	q, err := gojq.Parse(text)
	if err != nil {
		return nil, err
	}
	return gojq.Compile(q)
}

// canon appends v as canonical JSON (see the checksum rules of ../shared/bench/README.md).
func canon(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case int:
		return number(b, float64(x))
	case int64:
		return number(b, float64(x))
	case float64:
		return number(b, x)
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return number(b, f)
	case json.Number:
		f, _ := x.Float64()
		return number(b, f)
	case string:
		return str(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = canon(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(str(b, k), ':')
			b = canon(b, x[k])
		}
		return append(b, '}')
	}
	return str(b, fmt.Sprintf("<unsupported %T>", v))
}

func number(b []byte, f float64) []byte {
	if math.IsNaN(f) {
		return append(b, "null"...)
	}
	f = math.Max(-math.MaxFloat64, math.Min(math.MaxFloat64, f))
	if math.Abs(f) < 1e17 && f == math.Trunc(f) {
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'g', 17, 64)
}

func str(b []byte, s string) []byte {
	const hexdigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			if c < 0x20 || c == 0x7f {
				b = append(b, '\\', 'u', '0', '0', hexdigits[c>>4], hexdigits[c&15])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// fnv is FNV-1a 64-bit.
type fnv uint64

func (h *fnv) add(p []byte) {
	x := uint64(*h)
	for _, c := range p {
		x = (x ^ uint64(c)) * 1099511628211
	}
	*h = fnv(x)
}

func main() {
	corpus := flag.String("corpus", "build/anchors/corpus.ndjson", "NDJSON corpus")
	exprsPath := flag.String("exprs", "build/anchors/exprs.tsv", "expressions (exprs.py output)")
	mode := flag.String("mode", "compiled", "compiled | upstream | decode")
	limit := flag.Int("limit", 0, "objects to read (0 = all)")
	maxResults := flag.Int("max-results", 1000, "results of one evaluation before it counts as an error")
	timeout := flag.Duration("timeout", -1, "context timeout per evaluation (default 10s in upstream mode, none otherwise; 0 = none)")
	doSum := flag.Bool("checksum", true, "hash every result")
	flag.Parse()
	if *mode != "compiled" && *mode != "upstream" && *mode != "decode" {
		fmt.Fprintln(os.Stderr, "gojq-anchor: --mode must be compiled, upstream or decode")
		os.Exit(2)
	}
	if *timeout < 0 {
		*timeout = 0
		if *mode == "upstream" {
			*timeout = 10 * time.Second
		}
	}
	byKind, nExprs, err := loadExprs(*exprsPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gojq-anchor:", err)
		os.Exit(1)
	}
	f, err := os.Open(*corpus)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gojq-anchor:", err)
		os.Exit(1)
	}
	defer f.Close()

	var (
		objects, unmatched, decodeErrs, compileErrs int64
		evals, results, evalErrs, truncated         int64
		decodeT, evalT, sumT, compileT              time.Duration
		sum                                         = fnv(14695981039346656037)
		buf                                         []byte
		outs                                        []any
		ms0, ms1                                    runtime.MemStats
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if *limit > 0 && objects >= int64(*limit) {
			break
		}
		t0 := time.Now()
		var obj any
		if json.Unmarshal(line, &obj) != nil {
			decodeErrs++
			continue
		}
		objects++
		var rows []*expr
		if m, ok := obj.(map[string]any); ok {
			kind, _ := m["kind"].(string)
			api, _ := m["apiVersion"].(string)
			rows = byKind[kind+" "+api]
		}
		decodeT += time.Since(t0)
		if *mode == "decode" {
			continue
		}
		if rows == nil {
			unmatched++
			continue
		}
		if *mode == "compiled" && !rows[0].compiled {
			tc := time.Now()
			for _, r := range rows {
				r.compiled = true
				if r.code, r.err = compile(r.text); r.err != nil {
					compileErrs++
				}
			}
			compileT += time.Since(tc)
		}
		for _, r := range rows {
			te := time.Now()
			evals++
			code, failure := r.code, r.err
			if *mode == "upstream" {
				code, failure = compile(r.text)
			}
			outs = outs[:0]
			if failure == nil {
				ctx, cancel := context.Background(), context.CancelFunc(nil)
				if *timeout > 0 {
					ctx, cancel = context.WithTimeout(ctx, *timeout)
				}
				it := code.RunWithContext(ctx, obj)
				for {
					v, ok := it.Next()
					if !ok {
						break
					}
					if e, isErr := v.(error); isErr {
						failure = e
						break
					}
					if len(outs) >= *maxResults {
						failure = fmt.Errorf("too many results")
						truncated++
						break
					}
					outs = append(outs, v)
				}
				if cancel != nil {
					cancel()
				}
			}
			t1 := time.Now()
			evalT += t1.Sub(te)
			results += int64(len(outs))
			if failure != nil {
				evalErrs++
			}
			if *doSum {
				for _, v := range outs {
					buf = append(canon(append(buf[:0], 'R'), v), '\n')
					sum.add(buf)
				}
				if failure != nil {
					sum.add([]byte("E\n"))
				}
				sum.add([]byte(".\n"))
				sumT += time.Since(t1)
			}
			clear(outs)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "gojq-anchor: reading corpus:", err)
		os.Exit(1)
	}
	total := (time.Since(start) - compileT).Seconds()
	runtime.ReadMemStats(&ms1)
	decodeS, evalS := decodeT.Seconds(), evalT.Seconds()

	p := func(k string, format string, v ...any) { fmt.Printf(k+": "+format+"\n", v...) }
	p("engine", "gojq %s (%s)", gojqVersion(), runtime.Version())
	p("mode", "%s", *mode)
	if *mode != "decode" {
		p("timeout", "%v", *timeout)
	}
	p("corpus", "%s", *corpus)
	p("objects", "%d", objects)
	p("unmatched_objects", "%d", unmatched)
	p("decode_errors", "%d", decodeErrs)
	p("expressions", "%d", nExprs)
	p("compile_errors", "%d", compileErrs)
	p("compile_s", "%.6f", compileT.Seconds())
	p("evaluations", "%d", evals)
	p("eval_errors", "%d", evalErrs)
	p("truncated", "%d", truncated)
	p("results", "%d", results)
	if *mode == "decode" || !*doSum {
		p("checksum", "-")
	} else {
		p("checksum", "%016x", uint64(sum))
	}
	p("total_s", "%.6f", total)
	p("decode_s", "%.6f", decodeS)
	p("eval_s", "%.6f", evalS)
	p("checksum_s", "%.6f", sumT.Seconds())
	if evals > 0 {
		p("ns_per_eval", "%.1f", evalS*1e9/float64(evals))
		p("evals_per_s", "%.0f", float64(evals)/evalS)
	} else {
		p("ns_per_eval", "-")
		p("evals_per_s", "-")
	}
	p("objects_per_s", "%.0f", float64(objects)/(decodeS+evalS))
	p("objects_per_s_wall", "%.0f", float64(objects)/total)
	p("go_alloc_mb", "%.1f", float64(ms1.TotalAlloc-ms0.TotalAlloc)/1e6)
	p("go_gc_cycles", "%d", ms1.NumGC-ms0.NumGC)
}
