#!/usr/bin/env bash
# Builds kube-apiserver, etcd and kubectl from the Go modules tests/cluster pins (go.mod) into a
# cache folder keyed by the Kubernetes version, and prints that folder as the last line of its
# standard output (the only line; progress goes to standard error):
#
#   bin=$(bash scripts/cluster-bin.sh)      # e.g. ~/.cache/wmap/cluster/v1.37.2/bin
#
# The folder is ${WMAP_CLUSTER_CACHE:-$HOME/.cache/wmap/cluster}/<version>/bin. When it already
# holds the three binaries built from the same versions (its VERSIONS file), nothing is built.
# Needs Go (go on PATH or /usr/local/go/bin) and the Go module proxy or a filled module cache.
# The binaries are static (CGO_ENABLED=0), built with -trimpath and report the pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if ! command -v go > /dev/null && [ -x /usr/local/go/bin/go ]; then
  export PATH="$PATH:/usr/local/go/bin"
fi
if ! command -v go > /dev/null; then
  echo "cluster-bin.sh: Go is not installed (no go on PATH or in /usr/local/go/bin)" >&2
  exit 1
fi
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
mod="$root/tests/cluster/go.mod"

# The versions come from go.mod itself, so that no go command runs when the binaries are there.
required() { # module path -> version in the require block
  awk -v m="$1" '$1 == m && $2 ~ /^v/ { print $2; exit }' "$mod"
}
k8s=$(required k8s.io/kubernetes)
etcd=$(required go.etcd.io/etcd/server/v3)
if [ -z "$k8s" ] || [ -z "$etcd" ]; then
  echo "cluster-bin.sh: $mod does not require k8s.io/kubernetes and go.etcd.io/etcd/server/v3" >&2
  exit 1
fi
goversion=$(go env GOVERSION)
stamp="kube-apiserver $k8s
kubectl $k8s
etcd $etcd
go $goversion"

cache=${WMAP_CLUSTER_CACHE:-$HOME/.cache/wmap/cluster}
bin="$cache/$k8s/bin"
ready() {
  [ -x "$bin/kube-apiserver" ] && [ -x "$bin/etcd" ] && [ -x "$bin/kubectl" ] &&
    [ "$(cat "$bin/VERSIONS" 2> /dev/null)" = "$stamp" ]
}

mkdir -p "$cache/$k8s"
# One build at a time per version: a second caller waits, then finds the binaries there.
exec 9> "$cache/$k8s/.lock"
flock 9
if ! ready; then
  echo "cluster-bin.sh: building kube-apiserver and kubectl $k8s, etcd $etcd with $goversion into $bin" >&2
  start=$(date +%s)
  minor=${k8s#v1.}
  minor=${minor%%.*}
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=$k8s -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ldflags+=" -X $pkg.gitTreeState=clean"
  done
  tmp="$cache/$k8s/bin.tmp"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  (
    cd "$root/tests/cluster"
    export CGO_ENABLED=0
    go build -trimpath -ldflags "$ldflags" -o "$tmp/" \
      k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kubectl
    go build -trimpath -ldflags "-s -w" -o "$tmp/etcd" go.etcd.io/etcd/server/v3
  )
  printf '%s\n' "$stamp" > "$tmp/VERSIONS"
  rm -rf "$bin"
  mv "$tmp" "$bin"
  echo "cluster-bin.sh: built in $(($(date +%s) - start)) s" >&2
fi
echo "$bin"
