#!/usr/bin/env bash
# Checks formatting and layering, builds everything and runs the whole test suite, printing how
# long each stage took:
#   format   every tracked C++ file exactly as the checked-in .clang-format prints it;
#   tidy     clang-tidy (.clang-tidy) on the C++ sources changed since WMAP_TIDY_BASE (default:
#            the previous commit) and in the work tree;
#   build    build/ (RelWithDebInfo, GCC, warnings as errors): unit tests, the layering check,
#            the installed package, conformance over the jq and gojq corpora against the committed
#            baseline, differential tests against gojq;
#   upstream the differential test against upstream's Go library (tests/upstream, go test -race;
#            Go's module and build caches make later runs fast);
#   cluster  a real kube-apiserver and etcd (scripts/test_cluster.sh): builds them and kubectl from
#            tests/cluster/go.mod into ~/.cache/wmap/cluster/<version>/bin (once per version),
#            starts a cluster with the workload CRDs, runs tests/cluster against it, stops it;
#   asan     build-asan/ (Debug, GCC): the unit tests under AddressSanitizer and UBSan;
#   fuzz     a short run of every libFuzzer target (clang, build-fuzz/);
#   matrix   the libraries and the command with Clang Release (NDEBUG and -O3 bring warnings of
#            their own), warnings as errors; GCC's warnings come from build/ (-O2) and
#            build-asan/, Clang's at -O2 from the fuzz build; skipped with WMAP_QUICK=1.
# Uses ccache when it is installed (cache in ~/.cache/ccache unless CCACHE_DIR says otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
launcher=()
if command -v ccache > /dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
t0=$(date +%s)
stage_start=$t0
stage() {
  local now
  now=$(date +%s)
  echo "== stage $1: $((now - stage_start)) s (total $((now - t0)) s)"
  stage_start=$now
}

if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  git ls-files '*.cc' '*.h' | xargs clang-format --dry-run --Werror
fi
stage format

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWMAP_WERROR=ON "${launcher[@]}"
ninja -C build -j"$jobs"
stage build

if command -v clang-tidy > /dev/null && git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  base=${WMAP_TIDY_BASE:-HEAD~1}
  git rev-parse --verify -q "$base" > /dev/null || base=HEAD
  mapfile -t changed < <({ git diff --name-only "$base" -- 'src/*.cc'; git ls-files -o \
    --exclude-standard -- 'src/*.cc'; } | sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
  if [ ${#changed[@]} -gt 0 ]; then
    echo "clang-tidy on ${#changed[@]} changed file(s)"
    clang-tidy -p build --quiet --extra-arg=-Wno-unknown-warning-option "${changed[@]}"
  fi
fi
stage tidy

(cd build && ctest -j"$jobs" --output-on-failure -LE cluster)
stage test

bash scripts/test_upstream.sh build/wmap
stage upstream

bash scripts/test_cluster.sh
stage cluster

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWMAP_SANITIZE=ON -DWMAP_BENCH=OFF \
  -DWMAP_SHARED=OFF -DWMAP_WERROR=ON "${launcher[@]}"
ninja -C build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest -j"$jobs" --output-on-failure -LE 'conformance|install|cluster')
stage asan

JOBS=$jobs bash fuzz/run.sh 10
stage fuzz

if [ "${WMAP_QUICK:-0}" != 1 ]; then
  for config in clang:Release; do
    compiler=${config%%:*}
    type=${config#*:}
    dir=build-matrix/$compiler-${type,,}
    if [ "$compiler" = clang ]; then cc=clang cxx=clang++; else cc=gcc cxx=g++; fi
    echo "-- $compiler $type in $dir"
    CC=$cc CXX=$cxx cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DWMAP_WERROR=ON \
      -DWMAP_TESTS=OFF -DWMAP_BENCH=OFF "${launcher[@]}" > /dev/null
    ninja -C "$dir" -j"$jobs" wmap wmap_shared
  done
  stage matrix
fi
echo "all tests passed"
