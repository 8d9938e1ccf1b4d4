#!/usr/bin/env python3
"""Checks that every layer includes only what lies below it.

A source or private header in src/LAYER/ may include
  - the private headers of its own layer ("LAYER/..."),
  - the public headers (include/wmap/*.h) owned by its layer or a layer it depends on.
A public header may include only public headers of its own layer or of layers below.
Anything else (another layer's private header, a public header of a higher layer) is a
violation, printed as FILE:LINE: message; the exit status is 1 when there is one.

    python3 scripts/check_layers.py [--root DIR]
"""
import argparse
import os
import re
import sys

# Each layer and the layers it may use (directly or not). Keep in step with docs/architecture.md
# and the DEPENDS of src/*/CMakeLists.txt.
LAYERS = {
    "value": [],
    "schema": ["value", "meta"],
    "meta": ["value"],
    "jq": ["value"],
    "model": ["value", "meta", "jq"],
    "resolve": ["value", "meta", "jq", "model"],
    "scheduling": ["value", "meta", "jq", "model", "resolve"],
    "catalog": ["value", "meta", "jq", "model"],
    "source": ["value", "meta"],
    "inventory": ["value", "meta", "source", "jq", "model", "catalog"],
    "view": ["value", "meta", "source", "jq", "model", "catalog", "inventory", "resolve", "scheduling"],
    "kube": ["value"],
    "cli": ["value", "meta", "source", "inventory", "view", "schema", "jq", "model", "resolve", "scheduling", "catalog", "kube"],
}

# The layer that owns each public header.
PUBLIC_HEADERS = {
    "export.h": "value",
    "status.h": "value",
    "value.h": "value",
    "big_int.h": "value",
    "json.h": "value",
    "text.h": "value",
    "yaml.h": "value",
    "meta.h": "meta",
    "quantity.h": "meta",
    "selector.h": "meta",
    "source.h": "source",
    "schema.h": "schema",
    "jq.h": "jq",
    "definition.h": "model",
    "workload.h": "resolve",
    "tree.h": "resolve",
    "gang.h": "resolve",
    "resources.h": "resolve",
    "mutate.h": "resolve",
    "patch.h": "resolve",
    "scheduling.h": "scheduling",
    "catalog.h": "catalog",
    "inventory.h": "inventory",
    "view.h": "view",
    "kube.h": "kube",
}

# Libraries the build links, included by their own folder names.
THIRD_PARTY = {"re2"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def may_use(layer, other):
    return other == layer or other in LAYERS[layer]


def check_file(path, layer, shown, problems):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            where = f"{shown}:{number}"
            top, _, rest = target.partition("/")
            if top == "wmap":
                owner = PUBLIC_HEADERS.get(rest)
                if owner is None:
                    problems.append(f"{where}: public header {target} has no owning layer "
                                    "(add it to PUBLIC_HEADERS in scripts/check_layers.py)")
                elif not may_use(layer, owner):
                    problems.append(f"{where}: layer {layer} includes {target} of layer {owner}, "
                                    f"which is above it")
            elif top in LAYERS:
                if top != layer:
                    problems.append(f"{where}: layer {layer} includes {target}, a private header "
                                    f"of layer {top}; use a public header of include/wmap/")
            elif "/" in target and top not in THIRD_PARTY:
                problems.append(f"{where}: {target} is not under a known layer")


def check(root):
    problems = []
    src = os.path.join(root, "src")
    for layer in sorted(os.listdir(src)) if os.path.isdir(src) else []:
        folder = os.path.join(src, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in LAYERS:
            problems.append(f"src/{layer}: a folder that is no known layer "
                            "(add it to LAYERS in scripts/check_layers.py)")
            continue
        for base, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith((".cc", ".h")):
                    path = os.path.join(base, name)
                    check_file(path, layer, os.path.relpath(path, root), problems)
    public = os.path.join(root, "include", "wmap")
    for name in sorted(os.listdir(public)) if os.path.isdir(public) else []:
        if not name.endswith(".h"):
            continue
        owner = PUBLIC_HEADERS.get(name)
        shown = f"include/wmap/{name}"
        if owner is None:
            problems.append(f"{shown}: public header with no owning layer "
                            "(add it to PUBLIC_HEADERS in scripts/check_layers.py)")
            continue
        check_file(os.path.join(public, name), owner, shown, problems)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    args = parser.parse_args()
    problems = check(os.path.abspath(args.root))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering violation(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
