#!/usr/bin/env python3
"""check_layers.py on small trees: climbing includes are found, allowed ones are not."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402


_roots = []  # the trees made by a test, removed after it


def tree(files):
    root = tempfile.mkdtemp(prefix="octoscope_layers_")
    _roots.append(root)
    for path, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)
    return root


class CheckLayers(unittest.TestCase):
    def tearDown(self):
        while _roots:
            shutil.rmtree(_roots.pop(), ignore_errors=True)

    def test_downward_and_sideways_includes_pass(self):
        root = tree({
            "engine/host/a.cpp": '#include "engine/capture/c.h"\n#include "engine/model/m.h"\n#include "engine/core/r.h"\n',
            "engine/model/m.h": '#include "engine/backend/b.h"\n#include <vector>\n',
            "ui/v.cpp": '#include "engine/host/h.h"\n#include "ui/w.h"\n',
            "app/cli/x.cpp": '#include "ui/v.h"\n#include "engine/host/h.h"\n',
            "kernels/k.cu": '#include "kernels/octo_cuda_api.h"\n',
        })
        self.assertEqual(check_layers.check(root), [])

    def test_climbing_includes_are_reported_with_their_line(self):
        root = tree({
            "engine/core/r.cpp": '// text\n#include "engine/model/m.h"\n',
            "engine/model/m.cpp": '#include "engine/router/router.h"\n',
            "engine/capture/c.cpp": '#include "engine/host/engine_host.h"\n',
            "engine/host/h.cpp": '#include "ui/run_store.h"\n',
            "ui/v.cpp": '#include "app/common/resource_dir.h"\n',
            "kernels/k.cu": '#include "engine/backend/backend.h"\n',
        })
        problems = check_layers.check(root)
        self.assertEqual(len(problems), 6, problems)
        self.assertIn("engine/core/r.cpp:2: core includes engine/model/m.h (runtime)", problems)
        self.assertIn("engine/host/h.cpp:1: host includes ui/run_store.h (ui)", problems)

    def test_an_engine_folder_in_no_layer_is_reported(self):
        problems = check_layers.check(tree({"engine/newthing/n.cpp": "int x;\n"}))
        self.assertEqual(len(problems), 1)
        self.assertIn("in no layer", problems[0])


if __name__ == "__main__":
    unittest.main()
