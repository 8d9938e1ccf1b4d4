#!/usr/bin/env bash
# wmap's live reads side by side with kubectl's on one API server holding 5,000 workloads of ten
# types and 50,000 pods (plus one JobSet with 1,000 pods), in the same run.
#
#   bash bench/cluster.sh [WMAP]            # WMAP defaults to build/wmap
#   N=500 PODS_PER=10 BIG=200 RUNS=1 bash bench/cluster.sh    # quick smoke run
#
# 1. starts scripts/dev-cluster.sh with an audit log (every request, metadata level);
# 2. loads it with bench/cluster/load.py (the shared corpus generator's workloads);
# 3. times each case RUNS times (median wall time, peak RSS from /usr/bin/time): both tools
#    write JSON to /dev/null; wmap reads the pods too (for PODS and GPUS), kubectl is asked for
#    the same types plus pods;
# 4. counts the requests of `wmap describe` and `wmap get` on the JobSet with BIG pods in the
#    audit log (user agent wmap/...);
# 5. prints a Markdown table (also in $OUT/cluster-results.md, OUT default build/anchors) and
#    stops the cluster.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
WMAP=${1:-$root/build/wmap}
N=${N:-5000}
PODS_PER=${PODS_PER:-10}
BIG=${BIG:-1000}
RUNS=${RUNS:-3}
OUT=${OUT:-$root/build/anchors}
mkdir -p "$OUT"
[ -x "$WMAP" ] || { echo "cluster.sh: no $WMAP (build the tree first)" >&2; exit 1; }
if ! command -v go > /dev/null && [ -x /usr/local/go/bin/go ]; then export PATH="$PATH:/usr/local/go/bin"; fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/wmap-bench-cluster.XXXXXX")
trap 'bash "$root/scripts/dev-cluster.sh" down --dir "$dir" > /dev/null 2>&1 || true; rm -rf "$dir"' EXIT
cat > "$dir.audit.yaml" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
POLICY
bash "$root/scripts/dev-cluster.sh" up --dir "$dir" \
  --only-version dynamographdeployments.nvidia.com=v1alpha1 -- \
  "--audit-policy-file=$dir.audit.yaml" "--audit-log-path=$dir.audit.log" > /dev/null
# shellcheck disable=SC1091
. "$dir/cluster.env"
export KUBECONFIG=$dir/kubeconfig
kubectl=$WMAP_CLUSTER_BIN/kubectl
start=$(date +%s)
python3 "$root/bench/cluster/load.py" --env "$dir/cluster.env" -n "$N" --pods-per "$PODS_PER" --big-pods "$BIG"
echo "cluster.sh: loaded in $(($(date +%s) - start)) s" >&2

types=jobsets,leaderworkersets,rayclusters,pytorchjobs,dynamographdeployments,deployments,statefulsets,replicasets,daemonsets,jobs

# measure NAME CMD...: median wall seconds and peak RSS (MiB) of RUNS runs, output discarded.
measure() {
  local name=$1
  shift
  local runs=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$dir.time" "$@" > /dev/null 2> "$dir.err" || {
      echo "cluster.sh: $name failed:" >&2
      cat "$dir.err" >&2
      exit 1
    }
    runs+=("$(cat "$dir.time")")
  done
  printf '%s\n' "${runs[@]}" | python3 -c '
import sys, statistics
rows = [l.split() for l in sys.stdin if l.strip()]
print("%.2f %.0f" % (statistics.median(float(r[0]) for r in rows),
                     statistics.median(int(r[1]) / 1024 for r in rows)))'
}

results=$dir.results
: > "$results"
row() { # CASE WMAP-ARGS -- KUBECTL-ARGS
  local case=$1
  shift
  local w=() k=()
  while [ "$1" != -- ]; do w+=("$1"); shift; done
  shift
  k=("$@")
  read -r wt wm < <(measure "wmap $case" "$WMAP" "${w[@]}")
  read -r kt km < <(measure "kubectl $case" "$kubectl" "${k[@]}")
  echo "| $case | $wt s | $kt s | $(python3 -c "print('%.2f' % ($kt / $wt))") | $wm MiB | $km MiB |" >> "$results"
  echo "cluster.sh: $case: wmap $wt s $wm MiB, kubectl $kt s $km MiB" >&2
}

row "ten types -A (workloads + pods)" get "$types" -A -o json -- get "$types,pods" -A -o json
row "ten types -A, --chunk-size 0" get "$types" -A -o json --chunk-size 0 -- get "$types,pods" -A -o json --chunk-size 0
row "jobsets -A (+ their pods)" get jobsets -A -o json -- get jobsets,pods -A -o json
row "pods -A (pods as workloads)" get pods -A -o json -- get pods -A -o json
row "one namespace, table" get "$types" -n bench-big -- get "$types,pods" -n bench-big

# Requests of one command, from the audit log.
requests_of() {
  local before after
  before=$(grep -c '"userAgent":"wmap/' "$dir.audit.log" || true)
  "$WMAP" "$@" > /dev/null
  sleep 1  # the audit log is written asynchronously
  after=$(grep -c '"userAgent":"wmap/' "$dir.audit.log" || true)
  echo $((after - before))
}
describe_requests=$(requests_of describe jobset/big -n bench-big)
get_requests=$(requests_of get jobset/big -n bench-big)

{
  echo "Objects: $N workloads of ten types, $PODS_PER pods each, and one JobSet with $BIG pods;"
  echo "median of $RUNS runs; ratio = kubectl time / wmap time (above 1: wmap is faster)."
  echo
  echo "| case | wmap | kubectl | ratio | wmap peak RSS | kubectl peak RSS |"
  echo "|---|---|---|---|---|---|"
  cat "$results"
  echo
  echo "Requests (audit log): \`wmap describe jobset/big\` (1 JobSet, $BIG pods): $describe_requests;"
  echo "\`wmap get jobset/big\`: $get_requests."
} | tee "$OUT/cluster-results.md"
rm -f "$dir.audit.yaml" "$dir.audit.log" "$dir.time" "$dir.err" "$results"
