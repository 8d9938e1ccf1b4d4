#!/usr/bin/env bash
# The live-cluster test: builds kube-apiserver, etcd and kubectl (scripts/cluster-bin.sh, cached
# per version), starts a cluster in a temporary folder (scripts/dev-cluster.sh up), runs go vet
# and go test in tests/cluster against it, then wmap's own tests of label `cluster` (ctest in
# the build folder: WMAP_BUILD_DIR, default build), and stops it again, whatever happens.
#
#   bash scripts/test_cluster.sh
#   WMAP_BUILD_DIR=build-asan bash scripts/test_cluster.sh
#
# The C++ tests need a build of the tree (wmap_cluster_tests); without one they are skipped
# with a line saying so.
# Skips with one line when Go is not installed (go on PATH or in /usr/local/go/bin), and when
# the shared data's CRDs (../shared/schemas/crds, WMAP_SHARED_DIR) are missing unless
# WMAP_REQUIRE_SHARED=1, which makes that a failure. WMAP_KEEP_CLUSTER=1 leaves the cluster
# running after a failure, for a look at its logs (the folder is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if ! command -v go > /dev/null && [ -x /usr/local/go/bin/go ]; then
  export PATH="$PATH:/usr/local/go/bin"
fi
if ! command -v go > /dev/null; then
  echo "cluster: skipped: Go is not installed (no go on PATH or in /usr/local/go/bin)"
  exit 0
fi
shared=${WMAP_SHARED_DIR:-$root/../shared}
if [ ! -d "$shared/schemas/crds" ]; then
  if [ "${WMAP_REQUIRE_SHARED:-0}" = 1 ]; then
    echo "cluster: $shared/schemas/crds is missing (WMAP_REQUIRE_SHARED=1)" >&2
    exit 1
  fi
  echo "cluster: skipped: needs the shared data's CRDs in $shared/schemas/crds"
  exit 0
fi
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
build_dir=${WMAP_BUILD_DIR:-build}
case $build_dir in /*) ;; *) build_dir=$root/$build_dir ;; esac

bash scripts/cluster-bin.sh > /dev/null
dir=$(mktemp -d "${TMPDIR:-/tmp}/wmap-cluster-test.XXXXXX")
teardown() {
  local rc=$?
  if [ "$rc" != 0 ] && [ "${WMAP_KEEP_CLUSTER:-0}" = 1 ]; then
    echo "cluster: kept running in $dir ('bash scripts/dev-cluster.sh down --dir $dir' stops it)" >&2
    return
  fi
  bash scripts/dev-cluster.sh down --dir "$dir" > /dev/null 2>&1 || true
  rm -rf "$dir"
}
trap teardown EXIT
trap 'exit 130' INT TERM
start=$(date +%s)
# The Dynamo example is a v1alpha1 DynamoGraphDeployment; its CRD stores v1beta1 and converts
# with the Dynamo operator's webhook, which does not run here.
bash scripts/dev-cluster.sh up --dir "$dir" --only-version dynamographdeployments.nvidia.com=v1alpha1 > /dev/null
echo "cluster: up in $(($(date +%s) - start)) s"

cd tests/cluster
# Pure Go: no C compiler needed.
export CGO_ENABLED=0
go vet ./...
WMAP_CLUSTER_DIR="$dir" go test -count=1 -timeout 10m ./...
cd "$root"

if [ -x "$build_dir/tests/wmap_cluster_tests" ]; then
  WMAP_TEST_KUBECONFIG=$dir/kubeconfig WMAP_CLUSTER_DIR=$dir \
    ctest --test-dir "$build_dir" -L cluster --output-on-failure
else
  echo "cluster: C++ tests skipped: no $build_dir/tests/wmap_cluster_tests (build the tree first)"
fi
