#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/*_fuzz.cc) with clang in build-fuzz and runs each one.
#
#   bash fuzz/run.sh            # every target for 60 s
#   bash fuzz/run.sh 10         # every target for 10 s (what the test suite runs)
#   bash fuzz/run.sh 600 jq_eval_fuzz   # one target for 10 minutes
#
# Corpora grow in build-fuzz/corpus/<target>/ (seeded from fuzz/corpus/<target>/ when present);
# crashes are written to build-fuzz/crashes/<target>/. Exits 77 (skipped) without clang++.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
build=${WMAP_FUZZ_BUILD:-$root/build-fuzz}

if ! command -v clang++ >/dev/null; then
  echo "clang++ is not installed: skipping the fuzz targets"
  exit 77
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/fuzz/*_fuzz.cc; do
    [ -e "$f" ] && targets+=("$(basename "$f" .cc)")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "no fuzz targets in fuzz/: skipping"
  exit 77
fi

mkdir -p "$build"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DWMAP_FUZZ=ON -DWMAP_TESTS=OFF -DWMAP_BENCH=OFF -DWMAP_SHARED=OFF -DWMAP_WERROR=ON \
  "${launcher[@]}" > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
ninja -C "$build" -j"${JOBS:-2}" "${targets[@]}"

status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  crashes="$build/crashes/$t"
  mkdir -p "$corpus" "$crashes"
  seeds=()
  [ -d "$root/fuzz/corpus/$t" ] && seeds+=("$root/fuzz/corpus/$t")
  echo "== $t for ${secs}s"
  if ! "$build/fuzz/$t" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" "${seeds[@]}" \
      > "$build/$t.log" 2>&1; then
    echo "FAILED: $t (log: $build/$t.log, artifacts: $crashes/)"
    tail -40 "$build/$t.log"
    status=1
  else
    grep -E '^stat::number_of_executed_units|^Done' "$build/$t.log" || true
  fi
done
exit $status
