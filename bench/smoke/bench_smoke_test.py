"""The benchmark runner works end to end on one small model (not a performance test: no thresholds).

Runs run_bench.main on the hello_world_int8 bench firmware, checks that the report has a positive instruction count
that a second run reproduces exactly, bit-exact outputs and the flash/RAM split, an estimated cycle count (the
board is a Cortex-M4, which the timing model covers) with its classes, the cycles table against a TFLM figure, and
that the "does not fit" check accepts a board that holds the model and explains one that cannot.
"""

import json
import os
import sys
import tempfile
import unittest

from bench import measure, report, run_bench
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
        self.assertIn("-Os", self.markdown)  # the mode of its build_info (bench/smoke/BUILD.bazel)

    def test_estimated_cycles(self):
        (row,) = self.results["rows"]
        classes = row["cycle_classes"]
        # Every instruction is in one class (the markers' three are in the classes, not in the count).
        self.assertEqual(sum(v for k, v in classes.items() if k != "taken_branches"), row["instructions"] + 3)
        self.assertEqual(classes["unknown"], 0)
        self.assertGreaterEqual(row["cycles"], row["instructions"])
        # Against a TFLM entry with cycles, the cores table gains the cycles table with both ratios.
        ref = json.loads(json.dumps(self.results["reference"]))
        ref.setdefault("per_board", {}).setdefault("boards", {})["mps2-an386"] = {
            row["model"]: {
                "tflm_cmsis_nn_instructions": 2 * row["instructions"],
                "tflm_cmsis_nn_cycles": 4 * row["cycles"],
                "tflm_arena_bytes": 4096,
                "target_instruction_ratio": 0.6,
            }
        }
        row = dict(row, compare_on_board=report.compare_on_board(row, ref))
        self.assertEqual(row["compare_on_board"]["cycles_vs_tflm_cmsis_nn"], 0.25)
        md = report.render_markdown([row], [], ref, self.results["build"], self.results["environment"])
        self.assertIn("### Estimated cycles against TFLite Micro + CMSIS-NN", md)
        self.assertIn("| 0.500× | 0.250× |", md)

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
