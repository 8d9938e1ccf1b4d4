#!/usr/bin/env python3
"""The layering check: the repository passes, and each kind of violation in a small tree fails."""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHECK = os.path.join(ROOT, "scripts", "check_layers.py")


def run(root):
    return subprocess.run([sys.executable, CHECK, "--root", root], capture_output=True, text=True)


class CheckLayersTest(unittest.TestCase):
    def tree(self, files):
        d = tempfile.mkdtemp()
        for rel, text in files.items():
            path = os.path.join(d, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        os.makedirs(os.path.join(d, "include", "wmap"), exist_ok=True)
        return d

    def test_repository_is_layered(self):
        r = run(ROOT)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_lower_layer_including_higher_public_header_fails(self):
        d = self.tree({"src/value/a.cc": '#include "wmap/workload.h"\n'})
        r = run(d)
        self.assertEqual(r.returncode, 1)
        self.assertIn("src/value/a.cc:1: layer value includes wmap/workload.h of layer resolve",
                      r.stdout)

    def test_private_header_of_another_layer_fails(self):
        d = self.tree({"src/model/a.cc": '#include <string>\n#include "jq/ast.h"\n'})
        r = run(d)
        self.assertEqual(r.returncode, 1)
        self.assertIn("src/model/a.cc:2: layer model includes jq/ast.h, a private header of "
                      "layer jq", r.stdout)

    def test_public_header_including_higher_one_fails(self):
        d = self.tree({"include/wmap/value.h": '#include "wmap/catalog.h"\n'})
        r = run(d)
        self.assertEqual(r.returncode, 1)
        self.assertIn("include/wmap/value.h:1: layer value includes wmap/catalog.h", r.stdout)

    def test_unknown_layer_folder_fails(self):
        d = self.tree({"src/gadgets/a.cc": "\n"})
        self.assertEqual(run(d).returncode, 1)

    def test_allowed_includes_pass(self):
        d = self.tree({
            "src/resolve/a.cc": '#include "resolve/b.h"\n#include "wmap/jq.h"\n'
                                '#include "wmap/definition.h"\n',
            "src/resolve/b.h": '#include "wmap/status.h"\n',
        })
        r = run(d)
        self.assertEqual(r.returncode, 0, r.stdout)


if __name__ == "__main__":
    unittest.main()
