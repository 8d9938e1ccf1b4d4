#!/usr/bin/env bash
# A real Kubernetes API server (kube-apiserver and etcd built by scripts/cluster-bin.sh) on
# 127.0.0.1, for tests and for trying wmap against live objects. No controllers, scheduler or
# kubelet run: objects are stored and served, nothing acts on them (docs/cluster.md).
#
#   scripts/dev-cluster.sh up [--dir DIR] [--watch-cache-sizes SIZES] [--crds DIR | --no-crds]
#                             [--only-version CRD=VERSION]... [--timeout SECONDS]
#                             [-- EXTRA-APISERVER-FLAGS...]
#   scripts/dev-cluster.sh down [--dir DIR]
#   scripts/dev-cluster.sh status [--dir DIR]
#   scripts/dev-cluster.sh restart-apiserver [--dir DIR]
#
# up builds the binaries when needed, writes certificates, starts etcd and kube-apiserver in the
# background on free ports, waits until the server is ready, installs the CRDs of the workload
# kinds (../shared/schemas/crds and deploy/crds) and waits until each is Established, writes
# DIR/kubeconfig (contexts admin, the default; token; alice) and DIR/cluster.env, and prints
# `export KUBECONFIG=DIR/kubeconfig` as the last line of its output. Progress and errors go to
# standard error. DIR defaults to ${XDG_RUNTIME_DIR:-/tmp}/wmap-dev-cluster.
# down stops both processes and removes DIR. status prints what runs and exits 0 when the server
# is ready. restart-apiserver stops kube-apiserver and starts it again with the same flags and
# port; etcd and its data are kept.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prog="dev-cluster.sh"
marker=".wmap-dev-cluster"

die() {
  echo "$prog: $*" >&2
  exit 1
}
say() { echo "$prog: $*" >&2; }

usage() {
  sed -n '6,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 1 ] || usage
cmd=$1
shift
dir=${XDG_RUNTIME_DIR:-/tmp}/wmap-dev-cluster
watch_cache_sizes=""
crd_dir=${WMAP_SHARED_DIR:-$root/../shared}/schemas/crds
crds=1
timeout=${WMAP_CLUSTER_TIMEOUT:-180}
extra=()
only_versions=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || usage; dir=$2; shift 2 ;;
    --dir=*) dir=${1#--dir=}; shift ;;
    --watch-cache-sizes) [ $# -ge 2 ] || usage; watch_cache_sizes=$2; shift 2 ;;
    --watch-cache-sizes=*) watch_cache_sizes=${1#--watch-cache-sizes=}; shift ;;
    --crds) [ $# -ge 2 ] || usage; crd_dir=$2; shift 2 ;;
    --crds=*) crd_dir=${1#--crds=}; shift ;;
    --no-crds) crds=0; shift ;;
    --only-version) [ $# -ge 2 ] || usage; only_versions+=("$2"); shift 2 ;;
    --only-version=*) only_versions+=("${1#--only-version=}"); shift ;;
    --timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
    --timeout=*) timeout=${1#--timeout=}; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) usage ;;
    *) echo "$prog: unknown argument: $1" >&2; usage ;;
  esac
done
case "$dir" in
  *[[:space:]]* | *\"* | *\\*) die "the folder must not contain spaces, quotes or backslashes: $dir" ;;
  /*) ;;
  *) dir="$PWD/$dir" ;;
esac
case "$timeout" in '' | *[!0-9]*) die "--timeout takes whole seconds: $timeout" ;; esac
pki="$dir/pki"

# --- processes ----------------------------------------------------------------------------------

running() { # PID: alive and not a zombie (a child that exited and was not reaped yet)
  local state
  state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2> /dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# pid_of NAME: the pid in DIR/NAME.pid when that process is alive and runs the binary NAME.
pid_of() {
  local pid
  pid=$(cat "$dir/$1.pid" 2> /dev/null) || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' '\n' < "/proc/$pid/cmdline" 2> /dev/null | head -n 1 | grep -q "/$1\$" || return 1
  echo "$pid"
}

stop() { # NAME: SIGTERM, then SIGKILL after 20 s
  local pid i
  pid=$(pid_of "$1") || { rm -f "$dir/$1.pid"; return 0; }
  kill -TERM "$pid" 2> /dev/null || true
  for ((i = 0; i < 200; i++)); do
    running "$pid" || break
    sleep 0.1
  done
  if running "$pid"; then
    say "$1 (pid $pid) did not stop in 20 s; killing it"
    kill -KILL "$pid" 2> /dev/null || true
    for ((i = 0; i < 50; i++)); do
      running "$pid" || break
      sleep 0.1
    done
  fi
  rm -f "$dir/$1.pid"
}

log_tail() { # NAME: the end of its log, indented
  echo "--- last lines of $dir/$1.log:" >&2
  tail -n 25 "$dir/$1.log" 2> /dev/null | sed 's/^/    /' >&2 || true
}

fail() { # NAME MESSAGE: report a failed step with the log's tail
  local name=$1
  shift
  echo "$prog: $*" >&2
  log_tail "$name"
  exit 1
}

up_failed() { # EXIT trap of up: stop what this run started, keep the files
  local rc=$?
  [ "$rc" = 0 ] && return
  stop kube-apiserver
  stop etcd
  echo "$prog: up failed; etcd and kube-apiserver are stopped, the files are kept in $dir" \
    "('$0 down --dir $dir' removes them)" >&2
  exit "$rc"
}

# start NAME ARGS...: starts bin/NAME in its own session, output to DIR/NAME.log.
start() {
  local name=$1
  shift
  setsid "$bin/$name" "$@" >> "$dir/$name.log" 2>&1 < /dev/null &
  echo $! > "$dir/$name.pid"
}

free_port() {
  python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

alive() { # NAME: whether the process of DIR/NAME.pid is alive (also just after start)
  local pid
  pid=$(cat "$dir/$1.pid" 2> /dev/null) && [ -n "$pid" ] && running "$pid"
}

clashed() { # NAME: whether its log says a port was taken
  grep -q -i "address already in use" "$dir/$1.log" 2> /dev/null
}

# --- files --------------------------------------------------------------------------------------

write_certs() {
  mkdir -p "$pki"
  local rc=0
  set +e
  (
    set -e
    cd "$pki"
    umask 077
    key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2> /dev/null; }
    key ca.key
    openssl req -x509 -new -key ca.key -out ca.crt -days 3650 -subj "/CN=wmap-dev-cluster-ca" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
    # sign NAME SUBJECT EXTENSIONS: NAME.key and NAME.crt signed by the CA
    sign() {
      key "$1.key"
      openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
      printf '%s\n' "$3" > "$1.ext"
      openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 \
        -extfile "$1.ext" -out "$1.crt" 2> /dev/null
      rm -f "$1.csr" "$1.ext"
    }
    sign apiserver "/CN=kube-apiserver" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost"
    client="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
    sign admin "/O=system:masters/CN=admin" "$client"
    sign alice "/CN=alice" "$client"
    key sa.key
    openssl pkey -in sa.key -pubout -out sa.pub
    token=$(openssl rand -hex 24)
    printf '%s\n' "$token" > token
    # token,user,uid,"groups"
    printf '%s,tester,tester-uid,"system:masters"\n' "$token" > tokens.csv
    rm -f ca.srl
    chmod 644 ca.crt apiserver.crt admin.crt alice.crt sa.pub
  )
  rc=$?
  set -e
  [ "$rc" = 0 ] || die "writing the certificates with openssl in $pki failed"
}

write_kubeconfig() {
  local token
  token=$(cat "$pki/token")
  cat > "$dir/kubeconfig" << EOF
apiVersion: v1
kind: Config
clusters:
- name: wmap-dev
  cluster:
    server: "https://127.0.0.1:$apiserver_port"
    certificate-authority: "$pki/ca.crt"
users:
- name: admin
  user:
    client-certificate: "$pki/admin.crt"
    client-key: "$pki/admin.key"
- name: tester
  user:
    token: "$token"
- name: alice
  user:
    client-certificate: "$pki/alice.crt"
    client-key: "$pki/alice.key"
contexts:
- name: admin
  context: {cluster: wmap-dev, user: admin, namespace: default}
- name: token
  context: {cluster: wmap-dev, user: tester, namespace: default}
- name: alice
  context: {cluster: wmap-dev, user: alice, namespace: default}
current-context: admin
EOF
  chmod 600 "$dir/kubeconfig"
  cat > "$dir/cluster.env" << EOF
WMAP_CLUSTER_DIR=$dir
WMAP_CLUSTER_BIN=$bin
WMAP_CLUSTER_SERVER=https://127.0.0.1:$apiserver_port
WMAP_CLUSTER_ETCD=http://127.0.0.1:$etcd_port
WMAP_CLUSTER_KUBECONFIG=$dir/kubeconfig
WMAP_CLUSTER_CA=$pki/ca.crt
WMAP_CLUSTER_ADMIN_CERT=$pki/admin.crt
WMAP_CLUSTER_ADMIN_KEY=$pki/admin.key
WMAP_CLUSTER_TOKEN_USER=tester
WMAP_CLUSTER_TOKEN=$token
WMAP_CLUSTER_ALICE_CERT=$pki/alice.crt
WMAP_CLUSTER_ALICE_KEY=$pki/alice.key
EOF
}

# --- etcd and kube-apiserver --------------------------------------------------------------------

https_get() { # PATH: GET on the API server as admin; prints the body
  curl -sS --max-time 5 --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" \
    "https://127.0.0.1:$apiserver_port$1"
}

start_etcd() {
  local attempt i
  for ((attempt = 1; attempt <= 5; attempt++)); do
    etcd_port=$(free_port)
    local peer_port
    peer_port=$(free_port)
    : > "$dir/etcd.log"
    start etcd --name wmap-dev --data-dir "$dir/etcd" \
      --listen-client-urls "http://127.0.0.1:$etcd_port" \
      --advertise-client-urls "http://127.0.0.1:$etcd_port" \
      --listen-peer-urls "http://127.0.0.1:$peer_port" \
      --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
      --initial-cluster "wmap-dev=http://127.0.0.1:$peer_port" \
      --unsafe-no-fsync=true --log-level warn
    for ((i = 0; i < timeout * 10; i++)); do
      if curl -s --max-time 2 "http://127.0.0.1:$etcd_port/health" 2> /dev/null |
        grep -q '"health":"true"'; then
        return 0
      fi
      alive etcd || break
      sleep 0.1
    done
    if ! alive etcd && clashed etcd; then
      say "etcd: a port was taken, trying others"
      rm -rf "$dir/etcd"
      continue
    fi
    if alive etcd; then
      fail etcd "etcd did not report healthy on 127.0.0.1:$etcd_port within $timeout s"
    fi
    fail etcd "etcd exited while starting"
  done
  fail etcd "etcd: no free port after 5 attempts"
}

apiserver_flags() {
  flags=(
    "--etcd-servers=http://127.0.0.1:$etcd_port"
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 "--secure-port=$apiserver_port"
    "--cert-dir=$pki" "--tls-cert-file=$pki/apiserver.crt" "--tls-private-key-file=$pki/apiserver.key"
    "--client-ca-file=$pki/ca.crt" "--token-auth-file=$pki/tokens.csv" --authorization-mode=RBAC
    "--service-account-issuer=https://127.0.0.1:$apiserver_port"
    "--service-account-key-file=$pki/sa.pub" "--service-account-signing-key-file=$pki/sa.key"
    --service-cluster-ip-range=10.0.0.0/24 --disable-admission-plugins=ServiceAccount
    --endpoint-reconciler-type=none --allow-privileged=true
    # On SIGTERM open watches end at once instead of holding the shutdown for --request-timeout.
    --shutdown-watch-termination-grace-period=2s
  )
  [ -z "$watch_cache_sizes" ] || flags+=("--watch-cache-sizes=$watch_cache_sizes")
  flags+=("${extra[@]}")
}

# wait_apiserver: /readyz says ok and namespace default exists, or the step fails.
wait_apiserver() {
  local i body=""
  for ((i = 0; i < timeout * 5; i++)); do
    alive kube-apiserver || return 1
    body=$(https_get /readyz 2> /dev/null) || body=""
    [ "$body" = ok ] && break
    sleep 0.2
  done
  [ "$body" = ok ] || fail kube-apiserver "kube-apiserver was not ready within $timeout s (/readyz: ${body:-no answer})"
  for ((i = 0; i < timeout * 5; i++)); do
    if https_get /api/v1/namespaces/default 2> /dev/null | grep -q '"phase": *"Active"'; then
      return 0
    fi
    alive kube-apiserver || return 1
    sleep 0.2
  done
  fail kube-apiserver "namespace default did not appear within $timeout s"
}

# start_apiserver [PORT]: with PORT (a restart) that port only; else free ports, retried on clash.
start_apiserver() {
  local attempt
  for ((attempt = 1; attempt <= 5; attempt++)); do
    apiserver_port=${1:-$(free_port)}
    apiserver_flags
    printf '%s\n' "${flags[@]}" > "$dir/kube-apiserver.args"
    echo "== $(date -u +%FT%TZ) start" >> "$dir/kube-apiserver.log"
    start kube-apiserver "${flags[@]}"
    wait_apiserver && return 0
    if [ -z "${1:-}" ] && tail -n 50 "$dir/kube-apiserver.log" | grep -q -i "address already in use"; then
      say "kube-apiserver: port $apiserver_port was taken, trying another"
      continue
    fi
    fail kube-apiserver "kube-apiserver exited while starting"
  done
  fail kube-apiserver "kube-apiserver: no free port after 5 attempts"
}

# --- CRDs ---------------------------------------------------------------------------------------

crd_name() { # FILE: metadata.name of the CRD in it
  awk '/^metadata:/ { m = 1; next } /^[^ #-]/ { m = 0 } m && /^  name:/ { print $2; exit }' "$1" |
    tr -d "\"'"
}

# only_version FILE VERSION OUT: the CRD of FILE serving VERSION alone, as its storage version,
# with no conversion. For a CRD whose versions are converted by its operator's webhook, which
# does not run here: objects of a version other than the storage one cannot be stored without it.
only_version() {
  python3 - "$@" << 'EOF'
import sys
import yaml
src, version, out = sys.argv[1:]
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
with open(src) as f:
    docs = [d for d in yaml.load_all(f, Loader=loader) if d]
if len(docs) != 1:
    sys.exit(f"{src}: {len(docs)} documents, want one CRD")
crd = docs[0]
keep = [v for v in crd["spec"]["versions"] if v["name"] == version]
if not keep:
    names = ", ".join(v["name"] for v in crd["spec"]["versions"])
    sys.exit(f"{src}: no version {version} (it has {names})")
keep[0]["served"] = True
keep[0]["storage"] = True
crd["spec"]["versions"] = keep
crd["spec"].pop("conversion", None)
with open(out, "w") as f:
    yaml.dump(crd, f, Dumper=dumper, sort_keys=False)
EOF
}

install_crds() {
  local files=() names=() f n seen
  if [ "$crds" = 1 ]; then
    if [ -d "$crd_dir" ]; then
      for f in "$crd_dir"/*.yaml; do files+=("$f"); done
    else
      say "no CRD folder $crd_dir (the shared data, WMAP_SHARED_DIR): only deploy/crds is installed"
    fi
  fi
  for f in "$root"/deploy/crds/*.yaml; do files+=("$f"); done
  local chosen=()
  for f in "${files[@]}"; do
    n=$(crd_name "$f")
    [ -n "$n" ] || die "no CRD name in $f"
    seen=0
    for m in "${names[@]}"; do [ "$m" = "$n" ] && seen=1; done
    if [ "$seen" = 1 ]; then
      say "skipping $(basename "$f"): CRD $n already comes from an earlier file"
      continue
    fi
    names+=("$n")
    # A schema with an empty array item (`items: {}`, Seldon's recursive inference graph) is not
    # structural and the server rejects the CRD; such items accept any object instead.
    if grep -q '^ *items: {}$' "$f"; then
      mkdir -p "$dir/crds"
      sed -E 's/^( *)items: \{\}$/\1items:\n\1  type: object\n\1  x-kubernetes-preserve-unknown-fields: true/' \
        "$f" > "$dir/crds/$(basename "$f")"
      say "$(basename "$f"): empty array items accept any object (copy in $dir/crds)"
      f="$dir/crds/$(basename "$f")"
    fi
    for spec in "${only_versions[@]}"; do
      [ "${spec%%=*}" = "$n" ] || continue
      mkdir -p "$dir/crds"
      only_version "$f" "${spec#*=}" "$dir/crds/$(basename "$f")" ||
        die "--only-version $spec: cannot restrict $f"
      f="$dir/crds/$(basename "$f")"
      printf '%s %s\n' "$n" "${spec#*=}" >> "$dir/only-versions.txt"
      say "$n: only ${spec#*=} is served (--only-version)"
    done
    chosen+=("$f")
  done
  for spec in "${only_versions[@]}"; do
    grep -q "^${spec%%=*} " "$dir/only-versions.txt" 2> /dev/null ||
      die "--only-version $spec: no CRD ${spec%%=*} is installed"
  done
  say "installing ${#chosen[@]} CRDs"
  # create, not apply: the cluster is new, and apply costs more (server-side apply tracks the
  # fields of these large schemas; client-side apply's annotation does not fit them). A lost
  # connection (a starved machine) is retried for the CRDs that are not there yet.
  local pending=("${!chosen[@]}") attempt i existing args
  : > "$dir/crds.log"
  for ((attempt = 1; ; attempt++)); do
    args=()
    for i in "${pending[@]}"; do args+=(-f "${chosen[$i]}"); done
    "$bin/kubectl" --kubeconfig "$dir/kubeconfig" create "${args[@]}" >> "$dir/crds.log" 2>&1 && break
    alive kube-apiserver || fail kube-apiserver "kube-apiserver exited while the CRDs were created"
    existing=" $("$bin/kubectl" --kubeconfig "$dir/kubeconfig" get crd \
      -o jsonpath='{.items[*].metadata.name}' 2> /dev/null || true) "
    local left=()
    for i in "${pending[@]}"; do
      [[ "$existing" == *" ${names[$i]} "* ]] || left+=("$i")
    done
    [ ${#left[@]} -gt 0 ] || break
    if [ "$attempt" -ge 3 ]; then
      tail -n 20 "$dir/crds.log" >&2
      fail kube-apiserver "creating the CRDs failed (kubectl output in $dir/crds.log)"
    fi
    say "creating the CRDs: $(grep -v '^customresourcedefinition' "$dir/crds.log" | tail -n 1)"
    say "trying again for the ${#left[@]} not created"
    pending=("${left[@]}")
  done
  printf '%s\n' "${names[@]}" > "$dir/crds.txt"
  if ! "$bin/kubectl" --kubeconfig "$dir/kubeconfig" wait --for=condition=Established \
    --timeout="${timeout}s" "${names[@]/#/crd/}" >> "$dir/crds.log" 2>&1; then
    local n bad=()
    for n in "${names[@]}"; do
      [ "$("$bin/kubectl" --kubeconfig "$dir/kubeconfig" get crd "$n" -o \
        jsonpath='{.status.conditions[?(@.type=="Established")].status}' 2> /dev/null)" = True ] ||
        bad+=("$n")
    done
    fail kube-apiserver "CRDs not Established within $timeout s: ${bad[*]:-see $dir/crds.log}"
  fi
}

# --- commands -----------------------------------------------------------------------------------

binaries() {
  bin=$(bash "$root/scripts/cluster-bin.sh" | tail -n 1) || die "building the binaries failed (scripts/cluster-bin.sh)"
}

cmd_up() {
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2> /dev/null)" ]; then
    [ -e "$dir/$marker" ] || die "$dir exists and is not a cluster folder of this script; choose another --dir"
    if pid_of etcd > /dev/null || pid_of kube-apiserver > /dev/null; then
      die "a cluster already runs in $dir ('$0 down --dir $dir' stops it)"
    fi
    rm -rf "$dir"
  fi
  command -v openssl > /dev/null || die "openssl is not installed (scripts/packages.txt)"
  command -v curl > /dev/null || die "curl is not installed (scripts/packages.txt)"
  command -v python3 > /dev/null || die "python3 is not installed (scripts/packages.txt)"
  binaries
  mkdir -p "$dir"
  chmod 700 "$dir"
  touch "$dir/$marker"
  trap up_failed EXIT
  say "certificates in $pki"
  write_certs
  say "starting etcd"
  start_etcd
  say "starting kube-apiserver"
  start_apiserver
  write_kubeconfig
  echo "$bin" > "$dir/bin"
  install_crds
  trap - EXIT
  say "ready: https://127.0.0.1:$apiserver_port (etcd http://127.0.0.1:$etcd_port), files in $dir"
  echo "export KUBECONFIG=$dir/kubeconfig"
}

load() { # reads what up wrote
  [ -e "$dir/$marker" ] || die "no cluster in $dir (run '$0 up --dir $dir' first)"
  # shellcheck disable=SC1091
  . "$dir/cluster.env" 2> /dev/null || die "$dir/cluster.env is missing: the cluster did not finish starting"
  bin=$WMAP_CLUSTER_BIN
  apiserver_port=${WMAP_CLUSTER_SERVER##*:}
  etcd_port=${WMAP_CLUSTER_ETCD##*:}
}

cmd_down() {
  if [ ! -e "$dir" ]; then
    say "nothing in $dir"
    return 0
  fi
  [ -e "$dir/$marker" ] || die "$dir is not a cluster folder of this script; not removing it"
  stop kube-apiserver
  stop etcd
  rm -rf "$dir"
  say "stopped; removed $dir"
}

cmd_status() {
  load
  local ok=0 p
  for n in etcd kube-apiserver; do
    if p=$(pid_of "$n"); then echo "$n: running (pid $p)"; else echo "$n: not running"; ok=1; fi
  done
  local body
  body=$(https_get /readyz 2> /dev/null) || body="no answer"
  echo "server: $WMAP_CLUSTER_SERVER, /readyz: $body"
  echo "kubeconfig: $dir/kubeconfig"
  [ "$body" = ok ] || ok=1
  return $ok
}

cmd_restart_apiserver() {
  load
  pid_of etcd > /dev/null || die "etcd does not run in $dir; restart the cluster with down and up"
  mapfile -t flags < "$dir/kube-apiserver.args"
  say "stopping kube-apiserver"
  stop kube-apiserver
  say "starting kube-apiserver on port $apiserver_port"
  echo "== $(date -u +%FT%TZ) restart" >> "$dir/kube-apiserver.log"
  start kube-apiserver "${flags[@]}"
  wait_apiserver || fail kube-apiserver "kube-apiserver exited while restarting on port $apiserver_port"
  say "ready: $WMAP_CLUSTER_SERVER"
}

case "$cmd" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  restart-apiserver) cmd_restart_apiserver ;;
  -h | --help | help) usage ;;
  *) echo "$prog: unknown command: $cmd" >&2; usage ;;
esac
