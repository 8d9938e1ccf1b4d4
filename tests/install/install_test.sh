#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, builds a project outside the tree against the
# installed CMake package (shared and static), runs both, and checks what libwmap.so exports:
# the public API, and nothing of the private layers.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -x "$work/prefix/bin/wmap"
# The kubectl plugin: a link to wmap beside it, which names itself as kubectl does.
test -L "$work/prefix/bin/kubectl-wmap"
[ "$(readlink "$work/prefix/bin/kubectl-wmap")" = wmap ] ||
  { echo "kubectl-wmap links to $(readlink "$work/prefix/bin/kubectl-wmap"), want wmap"; exit 1; }
plugin_help=$("$work/prefix/bin/kubectl-wmap" --help)
[[ "$plugin_help" == "kubectl wmap - "* ]] ||
  { echo "kubectl-wmap --help begins '${plugin_help%%$'\n'*}'"; exit 1; }
test -f "$work/prefix/include/wmap/workload.h"
lib=$(ls "$work"/prefix/lib*/libwmap.so.0* | head -1)
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
ninja -C "$work/consumer" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
for exe in consumer_shared consumer_static; do
  out=$("$work/consumer/$exe")
  [ "$out" = "Completed 2" ] || { echo "$exe printed '$out', want 'Completed 2'"; exit 1; }
done
# The whole ldd output first: `grep -q` stops reading early, and under pipefail the write error
# it leaves ldd with would fail the test.
libraries=$(ldd "$work/consumer/consumer_shared")
grep -q "libwmap.so.0" <<<"$libraries" ||
  { echo "consumer_shared does not load libwmap.so"; exit 1; }
exports=$(nm -D --defined-only -C "$lib")
for want in 'wmap::jq::Program::Compile' 'wmap::Workload::Status' 'wmap::Catalog::BuiltIn' \
            'wmap::json::Parse' 'wmap::ErrorCodeInfo'; do
  grep -qF "$want" <<< "$exports" || { echo "libwmap.so does not export $want"; exit 1; }
done
# Symbol names only (argument lists may name private types of public functions' callees).
names=$(sed -E 's/^[0-9a-f]+ [A-Za-z] //; s/^(typeinfo|typeinfo name|vtable|VTT) for //' <<< "$exports")
private='^wmap::(jq::eval|jq::ast|jq::builtins|model|resolve|cli)::|^wmap::DefinitionLoader::'
if grep -E "$private" <<< "$names" | grep -q .; then
  echo "libwmap.so exports private symbols:"
  grep -E "$private" <<< "$names" | head -5
  exit 1
fi
echo "installed package: shared and static consumers run; libwmap.so exports only the public API"
