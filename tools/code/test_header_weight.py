"""tools/code/header_weight.py on a made-up tree: a listed header within its budget passes, one
that reaches more (directly or through another header) fails, the full JSON library fails
without leave and passes with it, a listed header missing from the tree fails."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import header_weight  # noqa: E402


class HeaderWeight(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "engine", "x"))
        os.makedirs(os.path.join(self.root, "tools", "code"))

    def tearDown(self):
        shutil.rmtree(self.root)

    def header(self, name, *includes, library=()):
        text = "#pragma once\n" + "".join(f'#include "{i}"\n' for i in includes)
        text += "".join(f"#include <{lib}>\n" for lib in library)
        with open(os.path.join(self.root, name), "w") as f:
            f.write(text)

    def listed(self, line):
        with open(os.path.join(self.root, "tools", "code", "light_headers.txt"), "w") as f:
            f.write("# budgets\n" + line + "\n")

    def run_tool(self):
        return subprocess.run([sys.executable, header_weight.__file__, self.root], capture_output=True, text=True)

    def test_reach_is_transitive_and_counts_each_header_once(self):
        self.header("engine/x/c.h", library=["vector"])
        self.header("engine/x/b.h", "engine/x/c.h")
        self.header("engine/x/a.h", "engine/x/b.h", "engine/x/c.h")
        headers, libraries = header_weight.reach(self.root, "engine/x/a.h")
        self.assertEqual(headers, {"engine/x/b.h", "engine/x/c.h"})
        self.assertEqual(libraries, {"vector"})

    def test_within_budget_passes(self):
        self.header("engine/x/b.h")
        self.header("engine/x/a.h", "engine/x/b.h")
        self.listed("engine/x/a.h 1")
        r = self.run_tool()
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_reaching_more_through_another_header_fails(self):
        self.header("engine/x/c.h")
        self.header("engine/x/b.h", "engine/x/c.h")
        self.header("engine/x/a.h", "engine/x/b.h")
        self.listed("engine/x/a.h 1")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("engine/x/a.h: reaches 2 project headers, 1 allowed", r.stdout)

    def test_full_json_library_needs_leave(self):
        self.header("engine/x/b.h", library=["nlohmann/json.hpp"])
        self.header("engine/x/a.h", "engine/x/b.h")
        self.listed("engine/x/a.h 1")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("reaches nlohmann/json.hpp", r.stdout)
        self.listed("engine/x/a.h 1 json")
        self.assertEqual(self.run_tool().returncode, 0)

    def test_forward_declarations_header_is_fine(self):
        self.header("engine/x/a.h", library=["nlohmann/json_fwd.hpp"])
        self.listed("engine/x/a.h 0")
        self.assertEqual(self.run_tool().returncode, 0)

    def test_listed_header_missing_from_tree_fails(self):
        self.listed("engine/x/gone.h 3")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("engine/x/gone.h: listed in light_headers.txt but not in the tree", r.stdout)


if __name__ == "__main__":
    unittest.main()
