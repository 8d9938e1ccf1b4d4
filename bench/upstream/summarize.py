#!/usr/bin/env python3
"""Turn the raw results of bench/upstream/run.sh into one Markdown report on stdout.

Usage: summarize.py RESULTS_DIR N RUNS CORPUS
"""
import json
import os
import re
import statistics
import sys

R, N, RUNS, CORPUS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def hf(name):
    res = json.load(open(os.path.join(R, name + ".json")))["results"][0]
    return res["median"], min(res["times"])


def rss(name):
    text = open(os.path.join(R, name + ".time.txt")).read()
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) / 1024


def kv(path):
    out = {}
    for line in open(path):
        k, _, v = line.partition(":")
        out[k.strip()] = v.strip()
    return out


def ratio(a, b):
    return f"{a / b:.1f}x"


def secs(x):
    return f"{x:.3f}"


rows = []
# work, upstream as-is jobs, upstream precompiled jobs, wmap jobs (summed), wmap label
plan = [
    ("full evaluation: components, instances, scale, templates, status, pod groups",
     ["full-asis"], ["full-pre"], ["wmap-inspect", "wmap-status-full", "wmap-gang"],
     "`inspect` + `status` + `gang` (3 processes)"),
    ("full evaluation, wmap in one process", ["full-asis"], ["full-pre"], ["wmap-describe"],
     "`describe -o json`"),
    ("status only", ["status-asis"], ["status-pre"], ["wmap-status"], "`status -o json`"),
    ("load and validate the 23 definitions", ["validate-up"], ["validate-up"], ["wmap-validate"],
     "`validate`"),
]
print(f"Corpus: {N} objects (`gen_workloads.py -n {N} --seed 42`, "
      f"{os.path.getsize(CORPUS) / 1e6:.1f} MB NDJSON); median of {RUNS} hyperfine runs after one "
      "warm-up, each command one process over the whole corpus, output to /dev/null; peak RSS from "
      "one `/usr/bin/time -v` run.\n")
print("| work | upstream as-is s | upstream precompiled s | wmap s | wmap command | "
      "**as-is / wmap** | **precompiled / wmap** | peak RSS MB (as-is / precompiled / wmap) |")
print("|---|---:|---:|---:|---|---:|---:|---|")
for work, asis, pre, ours, label in plan:
    a = sum(hf(j)[0] for j in asis)
    p = sum(hf(j)[0] for j in pre)
    w = sum(hf(j)[0] for j in ours)
    pre_cell = secs(p) if pre != asis else "(no jq run)"
    pre_ratio = ratio(p, w) if pre != asis else "–"
    rss_cell = f"{rss(asis[0]):.0f} / " + (f"{rss(pre[0]):.0f}" if pre != asis else "–") + \
        " / " + f"{max(rss(j) for j in ours):.0f}"
    print(f"| {work} | {secs(a)} | {pre_cell} | {secs(w)} | {label} | **{ratio(a, w)}** | "
          f"**{pre_ratio}** | {rss_cell} |")
print()
print("wmap's part of the full evaluation, median s: " + ", ".join(
    f"`{j[5:]}` {secs(hf(j)[0])}" for j in ["wmap-inspect", "wmap-status-full", "wmap-gang"]) + ".\n")

print("Inside the Go process (`karta-bench --stats`, one run just before the timed ones): the library's "
      "own time, JSON decoding of the corpus and encoding of the documents excluded, against wmap's "
      "whole process:\n")
print("| work | upstream as-is library s | precompiled library s | distinct expressions compiled | "
      "wmap whole process s | as-is / wmap | precompiled / wmap |")
print("|---|---:|---:|---:|---:|---:|---:|")
for work, key, ours in [("full evaluation", "full", ["wmap-inspect", "wmap-status-full", "wmap-gang"]),
                        ("status only", "status", ["wmap-status"])]:
    a = kv(os.path.join(R, f"stats-{key}-asis.txt"))
    p = kv(os.path.join(R, f"stats-{key}-pre.txt"))
    w = sum(hf(j)[0] for j in ours)
    ae, pe = float(a["eval_s"]), float(p["eval_s"])
    print(f"| {work} | {secs(ae)} | {secs(pe)} | {p['compiles']} | {secs(w)} | {ratio(ae, w)} | "
          f"{ratio(pe, w)} |")
print()
g = {}
for m in ("compiled", "upstream"):
    runs = [kv(os.path.join(R, f"gojq20-{m}-{i}.txt")) for i in (1, 2, 3)]
    g[m] = (min(float(r["ns_per_eval"]) for r in runs),
            statistics.median(float(r["ns_per_eval"]) for r in runs), runs[0])
eng = g["compiled"][2]["engine"]
print(f"{eng} on `exprs.tsv` over the same corpus ({g['compiled'][2]['evaluations']} evaluations, "
      f"checksum {g['compiled'][2]['checksum']} in both modes: "
      f"{g['upstream'][2]['checksum'] == g['compiled'][2]['checksum']}): compiled once "
      f"{g['compiled'][0]:,.0f} ns/eval (median {g['compiled'][1]:,.0f}), parse + compile on every "
      f"evaluation {g['upstream'][0]:,.0f} ns/eval (median {g['upstream'][1]:,.0f}).\n")
for f in ("date", "load-before", "load-after"):
    print(f"- {f}: `{open(os.path.join(R, f + '.txt')).read().strip()}`")
