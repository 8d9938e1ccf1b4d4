#!/usr/bin/env bash
# Differential test against upstream's Go library (github.com/run-ai/karta at the version KAI
# Scheduler pins): tests/upstream evaluates definitions and objects through the library and
# through wmap and fails on every difference tests/conformance/KNOWN_DIFFERENCES.md does not list.
#
#   bash scripts/test_upstream.sh [WMAP_BINARY]     (default: build/wmap)
#
# Needs Go (go on PATH or /usr/local/go/bin) and the module cache or the Go module proxy; the
# test skips with one line when ../shared (WMAP_SHARED_DIR) or the binary is missing
# (WMAP_REQUIRE_SHARED=1 makes a missing ../shared a failure).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/wmap}
case "$bin" in
  /*) ;;
  *) bin="$PWD/$bin" ;;
esac
if ! command -v go > /dev/null && [ -x /usr/local/go/bin/go ]; then
  export PATH="$PATH:/usr/local/go/bin"
fi
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
cd tests/upstream
go vet ./...
WMAP_BIN="$bin" go test -race -count=1 ./...
