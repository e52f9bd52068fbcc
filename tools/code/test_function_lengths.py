"""tools/code/function_lengths.py on a made-up tree: a long function unlisted fails, listed passes,
grown fails, listed but short again fails; short ones never do."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import function_lengths  # noqa: E402


def body(lines):
    return "int f() {\n" + "".join(f"    int x{i} = {i};\n" for i in range(lines - 3)) + "    return 0;\n}\n"


@unittest.skipIf(shutil.which("ctags") is None, "ctags is not installed (installer/setup.sh installs universal-ctags)")
class FunctionLengths(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.root, "engine", "x"))
        os.makedirs(os.path.join(self.root, "tools", "code"))
        for folder in ("app", "ui"):
            os.makedirs(os.path.join(self.root, folder))

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, lines, listed=None):
        with open(os.path.join(self.root, "engine", "x", "y.cpp"), "w") as f:
            f.write(body(lines) + "int g() { return 1; }\n")
        with open(os.path.join(self.root, "tools", "code", "long_functions.txt"), "w") as f:
            f.write("# list\n" + (f"engine/x/y.cpp f {listed}\n" if listed else ""))

    def run_tool(self):
        return subprocess.run([sys.executable, function_lengths.__file__, self.root], capture_output=True, text=True)

    def test_lengths_are_first_to_last_line(self):
        self.write(120)
        found = {name: lines for _, name, _, lines in function_lengths.functions(self.root)}
        self.assertEqual(found["f"], 120)
        self.assertEqual(found["g"], 1)

    def test_unlisted_long_function_fails(self):
        self.write(120)
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("engine/x/y.cpp:1: f (120 lines, over 100)", r.stdout)

    def test_listed_passes_and_grown_fails(self):
        self.write(120, listed=120)
        self.assertEqual(self.run_tool().returncode, 0)
        self.write(121, listed=120)
        self.assertIn("grew past the 120 listed", self.run_tool().stdout)

    def test_listed_but_short_again_fails(self):
        self.write(90, listed=120)
        r = self.run_tool()
        self.assertEqual(r.returncode, 1)
        self.assertIn("no longer over 100", r.stdout)

    def test_short_functions_pass(self):
        self.write(100)
        self.assertEqual(self.run_tool().returncode, 0)


if __name__ == "__main__":
    unittest.main()
