"""tools/code/test_names.py on a made-up tree: a source with its own test passes, one named on a
Covers line (same folder or by path) passes, one with neither fails, a Covers entry naming no
source fails, and only the opening comment counts."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_names  # noqa: E402


class TestNames(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        for folder in ("engine/x", "engine/z", "tests/engine/x", "tests/cli"):
            os.makedirs(os.path.join(self.root, folder))

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, path, text=""):
        with open(os.path.join(self.root, path), "w") as f:
            f.write(text)

    def run_tool(self):
        return subprocess.run([sys.executable, test_names.__file__, self.root], capture_output=True, text=True)

    def test_own_test_file_passes(self):
        self.write("engine/x/y.cpp")
        self.write("tests/engine/x/test_y.cpp", "// y\n")
        r = self.run_tool()
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_source_without_test_fails(self):
        self.write("engine/x/y.cpp")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("engine/x/y.cpp: no tests/engine/x/test_y.cpp", r.stdout)

    def test_cli_commands_by_their_test_cli_file(self):
        os.makedirs(os.path.join(self.root, "app", "cli"))
        self.write("app/cli/cmd_info.cpp")
        self.write("app/cli/cmd_paths.cpp")
        self.write("app/cli/cli_output.cpp")  # not a command: not held to the rule
        self.write("tests/cli/test_cli_info.cpp", "// info\n")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("app/cli/cmd_paths.cpp: no tests/cli/test_cli_paths.cpp", r.stdout)
        self.assertNotIn("cmd_info", r.stdout)
        self.assertNotIn("cli_output", r.stdout)
        self.write("tests/cli/test_cli_info.cpp", "// info\n// Covers: app/cli/cmd_paths.cpp\n")
        self.assertEqual(self.run_tool().returncode, 0)

    def test_covers_lines_same_folder_by_path_and_continued(self):
        for name in ("y.cpp", "w.cpp", "v.cpp"):
            self.write("engine/x/" + name)
        self.write("engine/z/s.cpp")
        self.write("tests/engine/x/test_y.cpp", "// y and friends\n// Covers: w.cpp,\n//   v.cpp\n#include <x>\n")
        self.write("tests/cli/test_cli_s.cpp", "// Covers: engine/z/s.cpp\n")
        r = self.run_tool()
        self.assertEqual(r.returncode, 0, r.stdout)
        found, _ = test_names.test_of(self.root)
        self.assertEqual(found["engine/x/v.cpp"], "tests/engine/x/test_y.cpp")
        self.assertEqual(found["engine/z/s.cpp"], "tests/cli/test_cli_s.cpp")

    def test_covers_after_the_opening_comment_does_not_count(self):
        self.write("engine/x/y.cpp")
        self.write("engine/x/w.cpp")
        self.write("tests/engine/x/test_y.cpp", "// y\n#include <x>\n// Covers: w.cpp\n")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("engine/x/w.cpp: no tests/engine/x/test_w.cpp", r.stdout)

    def test_covers_naming_no_source_fails(self):
        self.write("engine/x/y.cpp")
        self.write("tests/engine/x/test_y.cpp", "// Covers: gone.cpp\n")
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("tests/engine/x/test_y.cpp: Covers gone.cpp, which is not an engine source (engine/x/gone.cpp)", r.stdout)


if __name__ == "__main__":
    unittest.main()
