#!/usr/bin/env bash
# How the cost of the cases that were once quadratic grows with their size: each case runs at
# size n and 2n (and 4n), best of RUNS, with gojq and jq on the same input where they can run it.
# A ratio near 2 per doubling is linear (n log n a little more); near 4 is quadratic.
#
#   bash bench/scaling.sh [WMAP_BINARY]      (default: build/wmap; RUNS=3)
#
# Prints a Markdown table (the one in bench/RESULTS.md, "Scaling").
set -euo pipefail
cd "$(dirname "$0")/.."
wmap=${1:-build/wmap}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Best wall time in milliseconds of `"$@"` over $runs runs (output discarded); a run past
# ${CAP:-30} s is stopped and reported as "> CAP" (quadratic tools at the larger sizes).
best_ms() {
  local best="" cap=${CAP:-30}
  for _ in $(seq "$runs"); do
    local s e ms rc=0
    s=$(date +%s%N)
    timeout "$cap" "$@" > /dev/null 2>&1 || rc=$?
    e=$(date +%s%N)
    if [ "$rc" = 124 ]; then
      echo "> $((cap * 1000))"
      return
    fi
    ms=$(((e - s) / 1000000))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

row() {  # case, size, then one "tool=ms" per tool
  local name=$1 size=$2
  shift 2
  printf '| %s | %s |' "$name" "$size"
  for cell in "$@"; do printf ' %s |' "$cell"; done
  printf '\n'
}

echo "| case | size | wmap ms | gojq ms | jq 1.6 ms |"
echo "|---|---:|---:|---:|---:|"

for digits in 250000 500000 1000000; do
  python3 -c "print('9' * $digits)" > "$tmp/big.json"
  q='. + 1 | tostring | length'
  row "integer of n digits: parse, add, print" "$digits" \
    "$(best_ms "$wmap" jq "$q" "$tmp/big.json")" \
    "$(best_ms gojq "$q" "$tmp/big.json")" "n/a (no big integers)"
done

for n in 150000 300000 600000; do
  q="reduce range($n) as \$i ({}; .[\"k\\(\$i)\"] = \$i) | length"
  row "reduce: set n object keys" "$n" "$(best_ms "$wmap" jq -n "$q")" \
    "$(best_ms gojq -n "$q")" "$(best_ms jq -n "$q")"
done

for n in 150000 300000 600000; do
  q="reduce range($n) as \$i ([]; . + [\$i]) | length"
  row "reduce: append n elements" "$n" "$(best_ms "$wmap" jq -n "$q")" \
    "$(best_ms gojq -n "$q")" "$(best_ms jq -n "$q")"
done

for n in 25000 50000 100000; do
  python3 - "$n" "$tmp/defs.yaml" <<'EOF'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
doc = """apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: d{i}
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {{group: g{i}.example.com, version: v1, kind: K{i}}}
      specDefinition:
        podTemplateSpecPath: .spec.template
      statusDefinition:
        statusMappings:
          running:
            - byExpression: {{expression: 'true', expectedResult: 'true'}}
"""
with open(path, "w") as f:
    f.write("---\n".join(doc.format(i=i) for i in range(n)))
EOF
  row "validate a file of n definitions" "$n" "$(best_ms "$wmap" validate "$tmp/defs.yaml")" \
    "n/a" "n/a"
done

for n in 5000 10000 20000; do
  python3 - "$n" "$tmp/chain.yaml" <<'EOF'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
lines = ["apiVersion: run.ai/v1alpha1", "kind: Karta", "metadata:", "  name: chain", "spec:",
         "  structureDefinition:", "    rootComponent:", "      name: c0",
         "      kind: {group: g.example.com, version: v1, kind: Chain}",
         "      statusDefinition:", "        statusMappings:", "          running:",
         "            - byExpression: {expression: 'true', expectedResult: 'true'}",
         "    childComponents:"]
for i in range(1, n):
    lines += [f"      - name: c{i}", f"        ownerRef: c{i-1}",
              f"        kind: {{group: g.example.com, version: v1, kind: Chain{i}}}"]
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
EOF
  row "validate a chain of n components" "$n" "$(best_ms "$wmap" validate "$tmp/chain.yaml")" \
    "n/a" "n/a"
done
