#!/usr/bin/env bash
# Installs what is missing, builds `wmap`, and describes the example training job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
ninja -C build -j"${JOBS:-2}" wmap
# The README's main-job command (tests/cli/readme_test.cc runs it word for word).
echo "\$ ./build/wmap describe -f examples/jobset-training.yaml -f examples/jobset-training.pods.yaml --width 80"
./build/wmap describe -f examples/jobset-training.yaml -f examples/jobset-training.pods.yaml --width 80
