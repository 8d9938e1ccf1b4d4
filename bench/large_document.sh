#!/usr/bin/env bash
# Peak memory and wall time of wmap jq, jq and gojq on one large JSON document.
#
#   bash bench/large_document.sh WMAP CORPUS.ndjson [REPORT.md]
#
# Turns the NDJSON corpus into one JSON array (one line, as `jq -c -s .` prints it), then runs
# each tool, one after another, with /usr/bin/time -v on three jobs:
#   `length` on the array, `-c .` on the array (the whole document printed back), `--stream .`
#   on the array (every streaming event), and
#   `-s length` on the NDJSON corpus (slurping every object into one array); then `length` on
#   a generated array of 300,000 small objects in which every leaf differs (nothing to share).
# Appends a Markdown table (wall s, peak RSS MB, RSS / input) to REPORT (default: stdout) and
# checks that the three tools print the same bytes for each job.
set -euo pipefail
wmap=$1
corpus=$2
report=${3:-/dev/stdout}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

big=$work/corpus-array.json
python3 -c "
import sys
with open(sys.argv[1]) as f, open(sys.argv[2], 'w') as o:
    o.write('[' + ','.join(l.strip() for l in f if l.strip()) + ']\n')" "$corpus" "$big"
big_mb=$(python3 -c "import os,sys; print(round(os.path.getsize(sys.argv[1])/1e6, 1))" "$big")
unique=$work/unique.json
python3 -c "
import json, random, sys
random.seed(1)
with open(sys.argv[1], 'w') as o:
    o.write('[')
    for i in range(300000):
        if i:
            o.write(',')
        o.write(json.dumps({'metadata': {'name': 'job-%d' % i, 'uid': '%032x' % random.getrandbits(128),
                                         'labels': {'team': 't%d' % i, 'rev': str(i * 7)}},
                            'spec': {'replicas': i % 9, 'args': ['--seed', str(i), '--lr', '0.%d' % i]}},
                           separators=(',', ':')))
    o.write(']\\n')" "$unique"
unique_mb=$(python3 -c "import os,sys; print(round(os.path.getsize(sys.argv[1])/1e6, 1))" "$unique")
corpus_mb=$(python3 -c "import os,sys; print(round(os.path.getsize(sys.argv[1])/1e6, 1))" "$corpus")

{
  echo
  echo "## One large document ($big_mb MB JSON array; the NDJSON corpus is $corpus_mb MB)"
  echo
  echo "| job | tool | wall s | peak RSS MB | RSS / input | same output |"
  echo "|---|---|---:|---:|---:|---|"
} >> "$report"

jobs=("length|-c length|$big|$big_mb" ". (print it back)|-c .|$big|$big_mb"
  "--stream (every event)|-c --stream .|$big|$big_mb"
  "-s length (slurp NDJSON)|-c -s length|$corpus|$corpus_mb"
  "length, all leaves distinct ($unique_mb MB)|-c length|$unique|$unique_mb")
for job in "${jobs[@]}"; do
  IFS='|' read -r label flags input input_mb <<< "$job"
  want=""
  for t in gojq jq wmap; do
    bin=$t
    [ "$t" = wmap ] && bin="$wmap jq"
    # shellcheck disable=SC2086
    /usr/bin/time -v $bin $flags "$input" 2> "$work/$t.time" | md5sum > "$work/$t.md5"
    [ -z "$want" ] && want=$(cat "$work/$t.md5")
    same=no
    [ "$(cat "$work/$t.md5")" = "$want" ] && same=yes
    python3 - "$work/$t.time" "$label" "$t" "$input_mb" "$same" >> "$report" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
rss = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', t).group(1)) / 1024
m = re.search(r'Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)', t)
wall = int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
print(f'| `{sys.argv[2]}` | {sys.argv[3]} | {wall:.2f} | {rss:.0f} | '
      f'{rss / float(sys.argv[4]):.2f} | {sys.argv[5]} |')
PY
  done
done
