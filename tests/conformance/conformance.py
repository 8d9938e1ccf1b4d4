#!/usr/bin/env python3
"""Conformance of `wmap jq` over the jq and gojq test corpora.

usage:
  conformance.py check   --wmap BIN --shared DIR --corpus NAME [--baseline FILE]
  conformance.py baseline --wmap BIN --shared DIR [--baseline FILE]      rewrite the baseline
  conformance.py failures --wmap BIN --shared DIR [--out FILE]           KNOWN_DIFFERENCES.md

Exits 77 (skipped) when DIR lacks tools/jqconf.py, or 1 under WMAP_REQUIRE_SHARED=1.
`check` runs the reference measurement (DIR/tools/jqconf.py) on one corpus and fails when the
pass count is below the committed baseline. `failures` re-runs every case with the same
comparison rules as jqconf.py, lists each failing case and attaches the reason recorded in
reasons.json (keyed by corpus and case id, or by a regular expression over the case id).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# corpus name -> (jqconf mode, suite files relative to DIR/conformance/jq)
CORPORA = {
    'gojq': ('gojq', ['gojq/test.yaml']),
    'jq': ('jqtest', ['jq/jq.test', 'jq/man.test']),
    'jq-extra': ('jqtest', ['jq/onig.test', 'jq/manonig.test', 'jq/optional.test',
                            'jq/base64.test', 'jq/uri.test']),
}


def measure(wmap, shared, corpus):
    """Runs jqconf.py; returns {suite basename: [passed, total]}."""
    mode, suites = CORPORA[corpus]
    cmd = [sys.executable, os.path.join(shared, 'tools', 'jqconf.py'), mode, wmap, 'jq']
    for s in suites:
        cmd += ['--suite', os.path.join(shared, 'conformance', 'jq', s)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    counts = {}
    for line in out.splitlines():
        m = re.match(r'^(\S+): (\d+)/(\d+)$', line)
        if m:
            counts[m.group(1)] = [int(m.group(2)), int(m.group(3))]
    return counts


def load_baseline(path):
    with open(path) as f:
        return json.load(f)


def cmd_check(a):
    counts = measure(a.wmap, a.shared, a.corpus)
    base = load_baseline(a.baseline).get(a.corpus, {})
    bad = False
    for suite, (ok, n) in sorted(counts.items()):
        want = base.get(suite, [0, n])[0]
        status = 'ok' if ok >= want else 'REGRESSION'
        if ok < want:
            bad = True
        print(f'{suite}: {ok}/{n} passed ({100.0 * ok / max(n, 1):.1f}%), baseline {want}: {status}')
        if ok > want:
            print(f'  {suite}: {ok - want} more than the baseline; update it with '
                  f'`conformance.py baseline`')
    return 1 if bad else 0


def cmd_baseline(a):
    data = {corpus: measure(a.wmap, a.shared, corpus) for corpus in CORPORA}
    with open(a.baseline, 'w') as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write('\n')
    for corpus, counts in data.items():
        for suite, (ok, n) in sorted(counts.items()):
            print(f'{corpus} {suite}: {ok}/{n}')
    return 0


def load_jqconf(shared):
    sys.path.insert(0, os.path.join(shared, 'tools'))
    import jqconf  # noqa: E402  (the reference runner: same process and comparison helpers)
    return jqconf


def gojq_failures(jq, cmd, suite):
    import yaml
    cases = yaml.safe_load(open(suite))
    cwd = os.path.dirname(os.path.abspath(suite))
    out = []
    for c in cases:
        code, stdout, err = jq.run(cmd, c.get('args', []), c.get('input', ''), c.get('env'), cwd)
        want_code = c.get('exit_code', 0 if 'error' not in c else 5)
        if 'error' in c:
            good = code == want_code and jq.strip_prog(err) == jq.strip_prog(c['error'])
            detail = f'exit {code} (want {want_code}); stderr {jq.strip_prog(err)!r} ' \
                     f'(want {jq.strip_prog(c["error"])!r})'
        else:
            good = code == want_code and stdout == c.get('expected', '')
            detail = f'exit {code} (want {want_code}); stdout {stdout[:60]!r} ' \
                     f'(want {c.get("expected", "")[:60]!r})'
        if not good:
            out.append((c['name'], ' '.join(str(x) for x in c.get('args', [])), detail))
    return out


def jqtest_failures(jq, cmd, path):
    out = []
    for g in jq.parse_jqtest(path):
        if g[0].startswith('%%FAIL'):
            code, stdout, err = jq.run(cmd, ['-n', g[1]], '')
            if code in (0, 'timeout', 'oserror'):
                out.append((g[1], g[1], f'compiled (exit {code}); must fail to compile'))
            continue
        if len(g) < 2:
            continue
        prog, inp, exp = g[0], g[1], g[2:]
        code, stdout, err = jq.run(cmd, ['-c', prog], inp)
        try:
            good = code == 0 and jq.jsonvals(stdout) == [json.loads(e) for e in exp]
        except Exception:
            good = False
        if not good:
            first_err = err.strip().splitlines()[0] if err.strip() else ''
            out.append((prog, prog, f'exit {code}; got {stdout.strip()[:60]!r} '
                                    f'{first_err[:80]!r}; want {" ".join(exp)[:60]!r}'))
    return out


def reason_for(reasons, corpus, case_id):
    exact = reasons.get('cases', {}).get(f'{corpus}:{case_id}')
    if exact:
        return exact
    for rule in reasons.get('patterns', []):
        if rule.get('corpus', corpus) == corpus and re.search(rule['match'], case_id):
            return rule['reason']
    return 'not yet analysed'


def md_escape(s):
    s = s.replace('\n', '\\n').replace('|', '\\|')
    return s if len(s) <= 100 else s[:97] + '...'


def cmd_failures(a):
    jq = load_jqconf(a.shared)
    cmd = [a.wmap, 'jq']
    reasons = json.load(open(os.path.join(HERE, 'reasons.json')))
    lines = ['# Known differences from the conformance corpora', '',
             'Every case of the corpora in `../shared/conformance/jq/` that `wmap jq` does not pass,',
             'with the reason. Generated by `tests/conformance/conformance.py failures` (reasons',
             'come from `tests/conformance/reasons.json`); the pass counts are guarded by',
             '`tests/conformance/baseline.json`.', '']
    summary = []
    body = []
    by_reason = {}  # reason -> {corpus: count}
    for corpus, (mode, suites) in CORPORA.items():
        for s in suites:
            path = os.path.join(a.shared, 'conformance', 'jq', s)
            fails = gojq_failures(jq, cmd, path) if mode == 'gojq' else jqtest_failures(jq, cmd, path)
            summary.append(f'| {corpus} | `{s}` | {len(fails)} |')
            if not fails:
                continue
            body += ['', f'## {corpus}: `{s}` ({len(fails)} failing)', '',
                     '| case | reason | observed |', '|---|---|---|']
            for name, _args, detail in fails:
                reason = reason_for(reasons, corpus, name)
                counts = by_reason.setdefault(reason, {})
                counts[corpus] = counts.get(corpus, 0) + 1
                body.append(f'| `{md_escape(name)}` | {reason} | {md_escape(detail)} |')
    corpora = list(CORPORA)
    reasons_table = ['', '## Failures by reason', '',
                     '| reason | ' + ' | '.join(corpora) + ' |',
                     '|---|' + '---:|' * len(corpora)]
    for reason, counts in sorted(by_reason.items(), key=lambda kv: -sum(kv[1].values())):
        reasons_table.append(f'| {reason} | ' +
                             ' | '.join(str(counts.get(c, 0)) for c in corpora) + ' |')
    lines += (['| corpus | suite | failing cases |', '|---|---|---:|'] + summary + reasons_table +
              body)
    text = '\n'.join(lines) + '\n'
    if a.out:
        # The upstream library's differences (tests/upstream) share the file: keep their section.
        kept = ''
        if os.path.exists(a.out):
            with open(a.out) as f:
                old = f.read()
            start = old.find(UPSTREAM_SECTION)
            if start >= 0:
                kept = old[start:]
        with open(a.out, 'w') as f:
            f.write(text + ('\n' + kept if kept else ''))
    else:
        sys.stdout.write(text)
    return 0


# Where the section of tests/upstream's differences begins in KNOWN_DIFFERENCES.md.
UPSTREAM_SECTION = '## Go library differential'


def main():
    p = argparse.ArgumentParser()
    p.add_argument('command', choices=['check', 'baseline', 'failures'])
    p.add_argument('--wmap', required=True)
    p.add_argument('--shared', required=True)
    p.add_argument('--corpus', choices=sorted(CORPORA))
    p.add_argument('--baseline', default=os.path.join(HERE, 'baseline.json'))
    p.add_argument('--out')
    a = p.parse_args()
    a.wmap = os.path.abspath(a.wmap)
    tool = os.path.join(a.shared, 'tools', 'jqconf.py')
    if not os.path.exists(tool):
        print(f'needs the shared data folder {os.path.normpath(a.shared)} (tools/jqconf.py and '
              'conformance/jq; the `shared` folder next to the repository)')
        return 1 if os.environ.get('WMAP_REQUIRE_SHARED') == '1' else 77
    return {'check': cmd_check, 'baseline': cmd_baseline, 'failures': cmd_failures}[a.command](a)


if __name__ == '__main__':
    sys.exit(main())
