#!/usr/bin/env bash
# wmap next to upstream's Karta Go library (github.com/run-ai/karta, the version KAI Scheduler
# pins) doing the same work over the shared bench corpus, and gojq 0.12.20 on the engine workload.
#
#   bash bench/upstream/run.sh                        # N=5000 objects, 5 runs per command
#   N=1000 RUNS=2 bash bench/upstream/run.sh          # quick smoke run
#   WMAP=/tmp/wmap-copy bash bench/upstream/run.sh    # a given wmap binary (default build/wmap)
#
# 1. builds karta-bench (this module) and gojq-anchor (../gojq-anchor) with go;
# 2. generates the corpus (../shared/bench/gen_workloads.py, seed 42) and exprs.tsv into $OUT
#    (default bench/build/upstream/, git-ignored); wmap is copied there first, so that a rebuild
#    of build/wmap during the run changes nothing;
# 3. waits (up to MAX_WAIT checks, 60 s apart) until the 1-minute load average is at most
#    MAX_LOAD (default 1.5), then records it;
# 4. times with hyperfine (1 warm-up, RUNS runs, median), each command over the whole corpus in
#    one process, stdout discarded:
#      full      karta-bench --mode=full (as is / precompiled) against wmap inspect + status +
#                gang (three processes, their medians summed) and wmap describe (one process)
#      status    karta-bench --mode=status against wmap status
#      validate  karta-bench --mode=validate against wmap validate, upstream's 23 definitions
#    after one run of each karta-bench mode with --stats (the library's own time, decoding and
#    encoding excluded; the two jq modes must print the same documents); then peak RSS of each
#    command once with /usr/bin/time -v;
# 5. runs gojq 0.12.20 (gojq-anchor) on exprs.tsv, compiled and compiling every evaluation;
# 6. writes $OUT/results.md (one Markdown table with times, ratios and peak RSS) and prints it.
# Needs: go (and the Go module proxy or a filled module cache), python3, hyperfine, GNU time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shared=${SHARED:-$root/../shared}
OUT=${OUT:-$root/bench/build/upstream}
N=${N:-5000}
SEED=${SEED:-42}
RUNS=${RUNS:-5}
MAX_LOAD=${MAX_LOAD:-1.5}
MAX_WAIT=${MAX_WAIT:-10}
CAT=${CATALOG:-$shared/conformance/upstream/catalog}
R=$OUT/results
mkdir -p "$R"
rm -f "$R"/*

for tool in go python3 hyperfine /usr/bin/time; do
  command -v "$tool" > /dev/null || { echo "missing $tool"; exit 1; }
done

echo "== build"
cp "${WMAP:-$root/build/wmap}" "$OUT/wmap"
W=$OUT/wmap
export GOFLAGS="-p=1 -buildvcs=false"
(cd "$here" && go build -o "$OUT/karta-bench" ./karta-bench)
(cd "$root/bench/gojq-anchor" && go build -o "$OUT/gojq-anchor" .)
K=$OUT/karta-bench
G=$OUT/gojq-anchor

echo "== corpus (N=$N seed=$SEED)"
C=$OUT/corpus.ndjson
python3 "$shared/bench/gen_workloads.py" -n "$N" --seed "$SEED" -o "$C"
python3 "$shared/bench/exprs.py" -o "$OUT/exprs.tsv" > /dev/null
cat "$C" > /dev/null

echo "== load"
for i in $(seq 1 "$MAX_WAIT"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$load" "$MAX_LOAD" && break
  echo "load $load > $MAX_LOAD, waiting 60 s ($i/$MAX_WAIT)"
  sleep 60
done
uptime | tee "$R/load-before.txt"
date -u '+%Y-%m-%d %H:%M UTC' > "$R/date.txt"

echo "== same answers from both modes of the library"
"$K" --mode=full --jq=asis --catalog "$CAT" -f "$C" --stats > "$OUT/full-asis.json" 2> "$R/stats-full-asis.txt"
"$K" --mode=full --jq=precompiled --catalog "$CAT" -f "$C" --stats > "$OUT/full-pre.json" 2> "$R/stats-full-pre.txt"
"$K" --mode=status --jq=asis --catalog "$CAT" -f "$C" --stats > "$OUT/status-asis.json" 2> "$R/stats-status-asis.txt"
"$K" --mode=status --jq=precompiled --catalog "$CAT" -f "$C" --stats > "$OUT/status-pre.json" 2> "$R/stats-status-pre.txt"
cmp "$OUT/full-asis.json" "$OUT/full-pre.json"
cmp "$OUT/status-asis.json" "$OUT/status-pre.json"
rm -f "$OUT"/full-*.json "$OUT"/status-*.json
"$W" status -f "$C" --definitions "$CAT" -o json > /dev/null   # every object has a definition

# name|command (stdout discarded; wmap exits 1 on the corpus's head-only RayClusters, whose
# worker component cannot be read: an error on both sides, so failures are ignored)
JOBS=(
  "full-asis|$K --mode=full --jq=asis --catalog $CAT -f $C"
  "full-pre|$K --mode=full --jq=precompiled --catalog $CAT -f $C"
  "wmap-inspect|$W inspect -f $C --definitions $CAT -o json"
  "wmap-status-full|$W status -f $C --definitions $CAT -o json"
  "wmap-gang|$W gang -f $C --definitions $CAT -o json"
  "wmap-describe|$W describe -f $C --definitions $CAT -o json"
  "status-asis|$K --mode=status --jq=asis --catalog $CAT -f $C"
  "status-pre|$K --mode=status --jq=precompiled --catalog $CAT -f $C"
  "wmap-status|$W status -f $C --definitions $CAT -o json"
  "validate-up|$K --mode=validate --catalog $CAT"
  "wmap-validate|$W validate $CAT/*.yaml"
)
echo "== hyperfine ($RUNS runs each)"
for job in "${JOBS[@]}"; do
  name=${job%%|*}
  cmd=${job#*|}
  hyperfine --warmup 1 --runs "$RUNS" --ignore-failure --style basic -n "$name" \
    --export-json "$R/$name.json" "$cmd" > "$R/$name.hyperfine.txt"
  printf '%-18s %s\n' "$name" "$(grep -m1 'Time' "$R/$name.hyperfine.txt")"
done
echo "== peak RSS"
for job in "${JOBS[@]}"; do
  name=${job%%|*}
  cmd=${job#*|}
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$R/$name.time.txt" $cmd > /dev/null 2>&1 || true
done
echo "== gojq 0.12.20 on exprs.tsv"
for m in compiled upstream; do
  for i in 1 2 3; do
    "$G" --mode=$m --corpus="$C" --exprs="$OUT/exprs.tsv" > "$R/gojq20-$m-$i.txt"
  done
done
uptime > "$R/load-after.txt"

python3 "$here/summarize.py" "$R" "$N" "$RUNS" "$C" > "$OUT/results.md"
cat "$OUT/results.md"
