#!/usr/bin/env bash
# Checks formatting, builds everything and runs the whole test suite:
#   1. build/ (RelWithDebInfo): unit tests, conformance over the jq and gojq corpora against the
#      committed baseline, differential tests against gojq, and a short run of every fuzz target
#      (clang, build-fuzz/);
#   2. build-asan/: the unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}

# Formatting: every tracked C++ file exactly as the checked-in .clang-format prints it.
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  git ls-files '*.cc' '*.h' | xargs clang-format --dry-run --Werror
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
ninja -C build -j"$jobs"
(cd build && ctest -j"$jobs" --output-on-failure)

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWMAP_SANITIZE=ON -DWMAP_BENCH=OFF
ninja -C build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest -j"$jobs" --output-on-failure -LE 'conformance|fuzz')
echo "all tests passed"
