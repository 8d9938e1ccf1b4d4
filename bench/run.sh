#!/usr/bin/env bash
# The engine against gojq and jq in one run, on the shared corpus and harness (../shared/bench).
#
#   bash bench/run.sh                              # N=20000, 7 runs per configuration
#   N=2000 RUNS=1 CLI_RUNS=2 bash bench/run.sh     # quick smoke run
#
# 1. builds wmap and wmap-bench (RelWithDebInfo: -O2 -g; build dir $BUILD, default build-bench/);
# 2. runs ../shared/bench/run.sh with wmap-bench's configurations added through EXTRA_CONFIGS
#    (its table then lists wmap next to gojq and libjq; results in $OUT, default build/anchors/);
# 3. compares the commands: `wmap jq -c EXPR corpus` against `jq -c` and `gojq -c` with hyperfine,
#    on the expressions the shared run uses, and peak memory on one large document;
# 4. writes $OUT/wmap-results.md (the shared table plus the command comparison).
# gojq 0.12.20 (bench/gojq-anchor, a Go module pinning github.com/itchyny/gojq v0.12.20 from the
# Go module proxy) runs as extra configurations `gojq20-*` next to Debian's 0.12.11 anchor.
# Needs: golang-go golang-github-itchyny-gojq-dev libjq-dev jq gojq hyperfine time python3-yaml,
# and the Go module proxy (or a filled module cache) for bench/gojq-anchor.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${SHARED:-$root/../shared}
BUILD=${BUILD:-$root/build-bench}
export OUT=${OUT:-$root/build/anchors}
N=${N:-20000}
CLI_RUNS=${CLI_RUNS:-5}
export N CLI_RUNS
mkdir -p "$OUT"

cmake -S "$root" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
ninja -C "$BUILD" -j"${JOBS:-2}" wmap wmap-bench

B=$BUILD/bench/wmap-bench
GA=$OUT/gojq-anchor
(cd "$root/bench/gojq-anchor" && GOFLAGS="-p=1 -buildvcs=false" go build -o "$GA" .)
EXTRA_CONFIGS="wmap-decode|$B|--mode=decode
wmap-compiled|$B|--mode=compiled
wmap-upstream|$B|--mode=upstream
gojq20-decode|$GA|--mode=decode
gojq20-compiled|$GA|--mode=compiled
gojq20-compiled-ctx|$GA|--mode=compiled --timeout=10s
gojq20-upstream|$GA|--mode=upstream"
[ -n "${MORE_CONFIGS:-}" ] && EXTRA_CONFIGS="$EXTRA_CONFIGS
$MORE_CONFIGS"
export EXTRA_CONFIGS
(cd "$root" && bash "$shared/bench/run.sh")

# ---- the commands
C=$OUT/corpus.ndjson
R=$OUT/results
W=$BUILD/wmap
exprs=(
  "empty"
  ".spec.replicatedJobs[]?.template.spec.template"
  "(.status.replicatedJobsStatus // []) | any(.active > 0 or .ready > 0) and all((.failed // 0) == 0)"
  ".spec.services // {} | to_entries[] | .key"
)
report=$OUT/wmap-results.md
{
  echo "# wmap against jq and gojq (N=$N)"
  echo
  echo "Library harnesses: the table of \`$OUT/results.md\` (rows \`wmap-*\`)."
  echo
  echo "## Commands streaming the corpus (\`TOOL -c EXPR corpus.ndjson > /dev/null\`)"
  echo
  echo "| expression | tool | mean s | min s | MB/s (min) | peak RSS MB | same output as gojq |"
  echo "|---|---|---:|---:|---:|---:|---|"
} > "$report"
size_mb=$(python3 -c "import os,sys; print(os.path.getsize(sys.argv[1])/1e6)" "$C")
for i in "${!exprs[@]}"; do
  e=${exprs[$i]}
  q=$(printf '%q' "$e")
  hyperfine --warmup 1 --runs "$CLI_RUNS" --style basic --export-json "$R/wmap-cli-$i.json" \
    -n "wmap" "$W jq -c $q $C" -n "jq 1.6" "jq -c $q $C" -n "gojq 0.12.11" "gojq -c $q $C" \
    > "$R/wmap-cli-$i.hyperfine.txt"
  gojq -c "$e" "$C" | md5sum > "$R/wmap-cli-$i.gojq.md5"
  for t in wmap jq gojq; do
    bin=$t; [ "$t" = wmap ] && bin="$W jq"
    # shellcheck disable=SC2086
    /usr/bin/time -v $bin -c "$e" "$C" 2> "$R/wmap-cli-$i-$t.time.txt" | md5sum > "$R/wmap-cli-$i-$t.md5"
  done
  python3 - "$R" "$i" "$e" "$size_mb" >> "$report" <<'PY'
import json, re, sys
r, i, e, size = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
data = json.load(open(f'{r}/wmap-cli-{i}.json'))['results']
want = open(f'{r}/wmap-cli-{i}.gojq.md5').read()
for res, tool in zip(data, ['wmap', 'jq', 'gojq']):
    t = open(f'{r}/wmap-cli-{i}-{tool}.time.txt').read()
    rss = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', t).group(1)) / 1024
    same = open(f'{r}/wmap-cli-{i}-{tool}.md5').read() == want
    ee = e.replace('|', '\\|')
    print(f"| `{ee}` | {res['command']} | {res['mean']:.3f} | {min(res['times']):.3f} | "
          f"{size / min(res['times']):.0f} | {rss:.0f} | {'yes' if same else 'NO'} |")
PY
done

# ---- peak memory on one large document
bash "$root/bench/large_document.sh" "$W" "$C" "$report"
echo "wrote $report"
cat "$report"
