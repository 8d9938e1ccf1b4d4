#!/usr/bin/env bash
# Installs what is missing, builds `wmap`, and runs it on the example workload.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
ninja -C build -j"${JOBS:-2}" wmap
echo "\$ ./build/wmap jq --yaml-input -c '.spec.replicatedJobs[] | {name, replicas}' examples/jobset-training.yaml"
./build/wmap jq --yaml-input -c '.spec.replicatedJobs[] | {name, replicas}' examples/jobset-training.yaml
