#!/usr/bin/env bash
# Peak memory and wall time against input size: wmap's workload commands and `wmap jq`, from
# files and from standard input, on YAML and JSON, next to gojq and jq on the same input.
#
#   bash bench/memory.sh WMAP [REPORT.md]          (SIZES="10 50 200" MB by default)
#   SIZES=200 INPUTS="list.yaml list.json" MODES=stdin bash bench/memory.sh WMAP   # a subset
#
# INPUTS and MODES ("file stdin") choose the inputs and how they are given; PEERS=0 leaves
# out gojq and jq; WMAP_BENCH_DIR keeps the generated inputs there (else a temporary folder).
#
# Inputs, generated from examples/ (every workload with its child objects and pods, copied
# with distinct namespaces and uids until the size is reached):
#   stream.yaml  multi-document YAML, one object per document (`kubectl get -o yaml` per object)
#   list.yaml    one `kind: List` document holding every object (`kubectl get -A -o yaml`)
#   stream.json  one JSON object per line
#   list.json    one `kind: List` JSON value (`kubectl get -A -o json`)
#   defs.yaml    the catalog's definitions, repeated with distinct names (for `validate`)
# Each command runs once under /usr/bin/time (peak RSS, wall and CPU time: on a shared machine
# the CPU time is the steadier figure); "stdin" runs it with the
# input on a pipe (`cat FILE | wmap ... -f -`). Appends a Markdown table to REPORT (default:
# stdout) with RSS / input, the ratio the README quotes.
set -euo pipefail
wmap=$1
report=${2:-/dev/stdout}
sizes=${SIZES:-10 50 200}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WMAP_BENCH_DIR:-$(mktemp -d)}
trap '[ -z "${WMAP_BENCH_DIR:-}" ] && rm -rf "$work"' EXIT

generate() {  # SIZE_MB DIR
  python3 - "$1" "$2" "$root" <<'EOF'
import glob, json, os, re, sys
import yaml

size_mb, out, root = int(sys.argv[1]), sys.argv[2], sys.argv[3]
target = size_mb * 1000 * 1000
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
objects = []
for path in sorted(glob.glob(os.path.join(root, "examples", "*.yaml"))):
    with open(path) as f:
        objects += [d for d in yaml.load_all(f, Loader=Loader) if d]
if not objects:
    sys.exit("no objects in %s/examples" % root)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
yaml_texts = [yaml.dump(o, Dumper=Dumper, sort_keys=False, width=1 << 20) for o in objects]
json_texts = [json.dumps(o, separators=(",", ":")) for o in objects]
uid = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{12}")
ns_yaml = re.compile(r"(\bnamespace: )(\S+)")
ns_json = re.compile(r'("namespace":")([^"]+)')

def copies(texts, ns):
    # Templates made once; each copy fills in its number (uids and namespaces stay distinct
    # between copies and consistent within one, so owners and pods still match).
    templates = [uid.sub(lambda m: m.group(1) + "\x00", t) for t in texts]
    templates = [ns.sub(lambda m: m.group(1) + m.group(2) + "\x01", t) for t in templates]
    i, n = 0, 0
    while n < target:
        for t in templates:
            t = t.replace("\x00", "%012x" % i).replace("\x01", "-%d" % i)
            n += len(t) + 4
            yield t
        i += 1

with open(os.path.join(out, "stream.yaml"), "w") as f:
    for t in copies(yaml_texts, ns_yaml):
        f.write("---\n" + t)
with open(os.path.join(out, "list.yaml"), "w") as f:
    f.write("apiVersion: v1\nkind: List\nitems:\n")
    for t in copies(yaml_texts, ns_yaml):
        lines = t.splitlines()
        f.write("- " + lines[0] + "\n" + "".join("  " + l + "\n" for l in lines[1:]))
with open(os.path.join(out, "stream.json"), "w") as f:
    for t in copies(json_texts, ns_json):
        f.write(t + "\n")
with open(os.path.join(out, "list.json"), "w") as f:
    f.write('{"apiVersion":"v1","kind":"List","items":[')
    f.write(",\n".join(copies(json_texts, ns_json)))
    f.write("]}\n")
defs = []
for path in sorted(glob.glob(os.path.join(root, "catalog", "*.yaml"))):
    with open(path) as f:
        defs += [d for d in yaml.load_all(f, Loader=Loader) if d and d.get("kind") == "Karta"]
def_texts = [yaml.dump(d, Dumper=Dumper, sort_keys=False, width=1 << 20) for d in defs]
name = re.compile(r"^(  name: )(\S+)", re.M)
with open(os.path.join(out, "defs.yaml"), "w") as f:
    i, n = 0, 0
    # Definitions are evaluated, not only read: a tenth of the size keeps the run short.
    while n < target // 10:
        for t in def_texts:
            t = name.sub(lambda m: m.group(1) + m.group(2) + "-%d" % i, t, count=1)
            n += len(t) + 4
            f.write("---\n" + t)
        i += 1
EOF
}

mb() { python3 -c "import os,sys; print(round(os.path.getsize(sys.argv[1])/1e6, 1))" "$1"; }

# run LABEL TOOL INPUT MODE COMMAND...: one row. MODE is "file" (the command names INPUT) or
# "stdin" (INPUT on a pipe).
run() {
  local label=$1 tool=$2 input=$3 mode=$4
  shift 4
  local t0 out rc
  t0=$(mktemp)
  set +e
  if [ "$mode" = stdin ]; then
    cat "$input" | /usr/bin/time -f "%M %e %U %S" -o "$t0" "$@" > /dev/null 2> "$t0.err"
  else
    /usr/bin/time -f "%M %e %U %S" -o "$t0" "$@" > /dev/null 2> "$t0.err"
  fi
  rc=$?
  set -e
  read -r kb secs user sys < <(tail -1 "$t0")
  local in_mb rss_mb ratio cpu note=""
  in_mb=$(mb "$input")
  rss_mb=$(python3 -c "print(round($kb*1024/1e6))")
  ratio=$(python3 -c "print(round($kb*1024/1e6/$in_mb, 2))")
  if [ "$rc" != 0 ]; then note="exit $rc: $(grep -v '^Command exited' "$t0.err" | head -1 | cut -c1-80)"; fi
  cpu=$(python3 -c "print(round($user + $sys, 2))")
  echo "| $label | $(basename "$input") | $in_mb | $mode | $tool | $secs | $cpu | $rss_mb | $ratio | $note |" >> "$report"
  rm -f "$t0" "$t0.err"
}

{
  echo
  echo "## Peak memory against input size (\`SIZES=\"$sizes\" bash bench/memory.sh build/wmap\`)"
  echo
  echo "| command | input | MB | from | tool | wall s | cpu s | peak RSS MB | RSS / input | note |"
  echo "|---|---|---:|---|---|---:|---:|---:|---:|---|"
} >> "$report"

for size in $sizes; do
  dir=$work/$size
  mkdir -p "$dir"
  [ -f "$dir/defs.yaml" ] || generate "$size" "$dir"
  for input in ${INPUTS:-stream.yaml list.yaml stream.json list.json}; do
    f=$dir/$input
    for mode in ${MODES:-file stdin}; do
      src=$f
      [ "$mode" = stdin ] && src=-
      run "get" wmap "$f" "$mode" "$wmap" get -f "$src"
      run "get -o json" wmap "$f" "$mode" "$wmap" get -f "$src" -o json
      run "describe" wmap "$f" "$mode" "$wmap" describe -f "$src"
    done
    case $input in
      *.yaml) flags=(--yaml-input) ;;
      *) flags=() ;;
    esac
    label="jq${flags[*]:+ ${flags[*]}} -c ."
    for mode in ${MODES:-file stdin}; do
      args=("${flags[@]}" -c .)
      [ "$mode" = file ] && args+=("$f")
      run "$label" wmap "$f" "$mode" "$wmap" jq "${args[@]}"
      [ "${PEERS:-1}" = 0 ] && continue
      command -v gojq > /dev/null && run "$label" gojq "$f" "$mode" gojq "${args[@]}"
      if [ "$input" != "${input%.json}" ] && command -v jq > /dev/null; then
        run "$label" jq "$f" "$mode" jq "${args[@]}"
      fi
    done
  done
  for mode in ${MODES:-file stdin}; do
    src=$dir/defs.yaml
    [ "$mode" = stdin ] && src=-
    run "validate" wmap "$dir/defs.yaml" "$mode" "$wmap" validate "$src"
  done
done
