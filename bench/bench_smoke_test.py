"""The benchmark runner works end to end on one small model (not a performance test: no thresholds).

Runs run_bench.main on the hello_world_int8 bench firmware, checks that the report has a positive instruction count
that a second run reproduces exactly, bit-exact outputs and the flash/RAM split, and that the "does not fit" check
accepts a board that holds the model and explains one that cannot.
"""

import json
import os
import sys
import tempfile
import unittest

from bench import measure, run_bench
from toolchains.tools.qemu_count import count

ARGV = []


def _arg(name: str) -> str:
    return next(a.split("=", 1)[1] for a in ARGV if a.startswith(f"--{name}="))


class BenchSmokeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        cls.rc = run_bench.main(ARGV + [f"--out_dir={cls.out}"])
        with open(os.path.join(cls.out, "bench_results.json")) as f:
            cls.results = json.load(f)
        with open(os.path.join(cls.out, "bench_results.md")) as f:
            cls.markdown = f.read()
        cls.entry = _arg("entry").split("|")

    def test_runs_and_reports(self):
        self.assertEqual(self.rc, 0)
        (row,) = self.results["rows"]
        self.assertTrue(row["outputs_exact"])
        self.assertGreater(row["instructions"], 0)
        for key in (
            "code_bytes",
            "runner_code_bytes",
            "crt_code_bytes",
            "weight_bytes",
            "workspace_bytes",
            "run_stack_bytes",
        ):
            self.assertGreater(row[key], 0, key)
        self.assertEqual(row["code_bytes"], row["runner_code_bytes"] + row["crt_code_bytes"])
        self.assertIn("| hello_world_int8 | mps2-an386 (cortex-m4) |", self.markdown)
        self.assertIn("-O2", self.markdown)

    def test_count_is_deterministic(self):
        _, _, _, machine, _, elf = self.entry
        again = count(elf, machine, _arg("plugin"))
        self.assertEqual(again.instructions, self.results["rows"][0]["instructions"])

    def test_fit_check(self):
        name, _, _, _, model, _ = self.entry
        boards = self.results["build"]["boards"]
        self.assertTrue(measure.fit(f"{name}|microbit|cortex-m0|{model}", boards)["fits"])
        tiny = {"tiny": dict(boards["microbit"], ram_bytes=1024)}
        verdict = measure.fit(f"{name}|tiny|cortex-m0|{model}", tiny)
        self.assertFalse(verdict["fits"])
        self.assertRegex(verdict["reason"], r"^RAM: workspace \d+ B \+ inputs/outputs \d+ B \+ stack 2,048 B")


if __name__ == "__main__":
    # The runner's flags (from BUILD) go to run_bench; anything else to unittest.
    ARGV = [a for a in sys.argv[1:] if a.startswith("--")]
    unittest.main(argv=[sys.argv[0]] + [a for a in sys.argv[1:] if not a.startswith("--")])
