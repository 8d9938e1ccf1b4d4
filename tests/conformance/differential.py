#!/usr/bin/env python3
"""Differential test: `wmap jq -c` against the `gojq -c` command on generated programs.

usage: differential.py WMAP [--gojq PATH] [--seed N] [--count N] [--show N]

Generates `count` jq programs and JSON inputs from a fixed seed with a small grammar (paths,
pipes, comma, arithmetic, comparisons, common builtins, alternatives, if, reduce, try), runs both
commands on each and compares standard output and the exit code (error texts are not compared:
the installed gojq is an older release whose messages differ in places; generated programs stay in
the syntax both 0.12.11 and 0.12.19 accept, e.g. object values and `as` sources in parentheses).
Each mismatch is shrunk
to a minimal program and input that still mismatch, and reported. Mismatches listed in differential_known.tsv (minimal program, input, reason) are reported but
accepted. Exits 77 (skipped) when gojq is not installed, 1 on any other mismatch.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

KEYS = ['a', 'b', 'c', 'name', 'x']


class Node:
    """A program as a tree: `fmt` with {0}, {1}... filled by the children's text."""

    def __init__(self, fmt, *kids):
        self.fmt = fmt
        self.kids = list(kids)

    def text(self):
        return self.fmt.format(*[k.text() for k in self.kids])

    def shrinks(self):
        """Smaller programs: each child alone, '.', and this node with one child shrunk."""
        for k in self.kids:
            yield k
        if self.fmt != '.':
            yield Node('.')
        for i, k in enumerate(self.kids):
            for s in k.shrinks():
                kids = list(self.kids)
                kids[i] = s
                yield Node(self.fmt, *kids)


def lit(text):
    """A leaf node holding literal program text."""
    return Node(text.replace('{', '{{').replace('}', '}}'))


def leaf(rng):
    return lit(leaf_text(rng))


def leaf_text(rng):
    choice = rng.randrange(9)
    if choice == 0:
        return '.'
    if choice == 1:
        return '.' + rng.choice(KEYS)
    if choice == 2:
        return '.[{0}]'.format(rng.randrange(-2, 3))
    if choice == 3:
        return json.dumps(rng.choice([0, 1, 2, -3, 2.5, 10, 'a', 'xy', None, True, False]))
    if choice == 4:
        return '.[]?'
    if choice == 5:
        return (rng.choice(['length', 'keys', 'type', 'tostring', 'sort', 'add', 'not',
                                'to_entries', 'reverse', 'unique', 'tojson', 'ascii_downcase',
                                'floor', 'values', 'arrays', 'objects', 'numbers', 'strings',
                                'first', 'last', 'min', 'max', 'flatten', 'paths', 'any', 'all',
                            'length == 0', 'infinite < 1']))
    if choice == 6:
        return '[]'
    if choice == 7:
        return '{}'
    return '.' + rng.choice(KEYS) + '?'


def expr(rng, depth):
    if depth <= 0 or rng.random() < 0.25:
        return leaf(rng)
    d = depth - 1
    c = rng.randrange(20)
    if c == 0:
        return Node('{0} | {1}', expr(rng, d), expr(rng, d))
    if c == 1:
        return Node('{0}, {1}', expr(rng, d), expr(rng, d))
    if c == 2:
        return Node('({0} ' + rng.choice(['+', '-', '*', '/', '%']) + ' {1})',
                    expr(rng, d), expr(rng, d))
    if c == 3:
        return Node('({0} ' + rng.choice(['==', '!=', '<', '<=', '>', '>=']) + ' {1})',
                    expr(rng, d), expr(rng, d))
    if c == 4:
        return Node('({0} // {1})', expr(rng, d), expr(rng, d))
    if c == 5:
        return Node('[{0}]', expr(rng, d))
    if c == 6:
        return Node('{{' + rng.choice(KEYS) + ': ({0})}}', expr(rng, d))
    if c == 7:
        return Node('map({0})', expr(rng, d))
    if c == 8:
        return Node('select({0})', expr(rng, d))
    if c == 9:
        return Node('if {0} then {1} else {2} end', expr(rng, d), expr(rng, d), expr(rng, d))
    if c == 10:
        return Node('reduce ({0}) as $v (0; . + 1)', expr(rng, d))
    if c == 11:
        return Node('reduce .[]? as $v ([{0}]; [., $v])', expr(rng, d))
    if c == 12:
        return Node('try {0}', expr(rng, d))
    if c == 13:
        return Node('try {0} catch .', expr(rng, d))
    if c == 14:
        return Node('({0} and {1})', expr(rng, d), expr(rng, d))
    if c == 15:
        return Node('({0} or {1})', expr(rng, d), expr(rng, d))
    if c == 16:
        return Node(rng.choice(['sort_by({0})', 'group_by({0})', 'unique_by({0})', 'min_by({0})',
                                'max_by({0})', 'with_entries({0})', 'any({0})', 'all({0})',
                                'first({0})', '[limit(2; {0})]', 'path({0})', 'del({0})',
                                'to_entries | from_entries']), expr(rng, d))
    if c == 17:
        return Node('{0}?', expr(rng, d))
    if c == 18:
        return Node('(({0}) as $x | {1} | [$x, .])', expr(rng, d), expr(rng, d))
    return Node('[.[]? | {0}]', expr(rng, d))


def value(rng, depth):
    c = rng.randrange(8 if depth > 0 else 5)
    if c == 0:
        return None
    if c == 1:
        return rng.choice([True, False])
    if c == 2:
        return rng.choice([0, 1, -1, 2, 3, 7, 1.5, -0.5, 100])
    if c == 3:
        return rng.choice(['', 'a', 'b', 'xy', 'Hello', '1'])
    if c == 4:
        return rng.randrange(10)
    if c == 5:
        return [value(rng, depth - 1) for _ in range(rng.randrange(4))]
    return {k: value(rng, depth - 1) for k in rng.sample(KEYS, rng.randrange(4))}


def run(cmd, prog, inp):
    try:
        p = subprocess.run(cmd + ['-c', prog], input=inp.encode(), capture_output=True, timeout=10)
        return p.returncode, p.stdout.decode('utf-8', 'replace')
    except subprocess.TimeoutExpired:
        return 'timeout', ''


def shrink_values(v):
    if isinstance(v, list):
        for i in range(len(v)):
            yield v[:i] + v[i + 1:]
            for s in shrink_values(v[i]):
                yield v[:i] + [s] + v[i + 1:]
    elif isinstance(v, dict):
        for k in list(v):
            yield {x: y for x, y in v.items() if x != k}
            for s in shrink_values(v[k]):
                w = dict(v)
                w[k] = s
                yield w
    elif v is not None:
        yield None


def minimize(wmap, gojq, node, inp):
    def differs(n, i):
        text = json.dumps(i)
        return run(wmap, n.text(), text) != run(gojq, n.text(), text)

    for _ in range(200):
        for s in node.shrinks():
            if differs(s, inp):
                node = s
                break
        else:
            for s in shrink_values(inp):
                if differs(node, s):
                    inp = s
                    break
            else:
                break
    return node, inp


def main():
    p = argparse.ArgumentParser()
    p.add_argument('wmap')
    p.add_argument('--gojq', default=shutil.which('gojq'))
    p.add_argument('--seed', type=int, default=20240601)
    p.add_argument('--count', type=int, default=300)
    p.add_argument('--show', type=int, default=10)
    a = p.parse_args()
    if not a.gojq:
        print('gojq is not installed: skipping')
        return 77
    wmap, gojq = [a.wmap, 'jq'], [a.gojq]
    rng = random.Random(a.seed)
    mismatches = []
    for i in range(a.count):
        node = expr(rng, 4)
        inp = value(rng, 3)
        text = json.dumps(inp)
        got, want = run(wmap, node.text(), text), run(gojq, node.text(), text)
        if got != want:
            mismatches.append((node, inp))
    print(f'{a.count - len(mismatches)}/{a.count} generated programs agree with gojq '
          f'(seed {a.seed})')
    known = load_known()
    unexplained = 0
    seen = set()
    for node, inp in mismatches:
        small, small_inp = minimize(wmap, gojq, node, inp)
        text = json.dumps(small_inp)
        key = (small.text(), text)
        if key in seen:
            continue
        seen.add(key)
        reason = known.get(key)
        if reason is None:
            unexplained += 1
        if reason is None or len(seen) <= a.show:
            print(f'MISMATCH: {small.text()!r} on {text}' +
                  (f'  [known: {reason}]' if reason else ''))
            print(f'  wmap: {run(wmap, small.text(), text)!r}')
            print(f'  gojq: {run(gojq, small.text(), text)!r}')
            print(f'  (generated as {node.text()!r} on {json.dumps(inp)})')
    print(f'{len(seen)} distinct minimal mismatches, {unexplained} not in differential_known.tsv')
    return 1 if unexplained else 0


def load_known():
    """Minimal mismatches already analysed: program TAB input TAB reason, one per line."""
    known = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'differential_known.tsv')
    if os.path.exists(path):
        for line in open(path, encoding='utf-8'):
            if line.strip() and not line.startswith('#'):
                prog, inp, reason = line.rstrip('\n').split('\t', 2)
                known[(prog, inp)] = reason
    return known


if __name__ == '__main__':
    sys.exit(main())
