"""Unit tests of aot_perf_test's pieces that need no QEMU: the budget check and its message, the perf firmware's
main() generator, and the budget file writer (the QEMU side is //tests/models:perf_*_test and the must-fail
fixture //tests/models:perf_over_budget_fixture_test)."""

import json
import os
import tempfile
import unittest

from aot_rules.private import gen_perf_main, perf_check
from toolchains.tools.stack_usage import StackEstimate
from tools import update_perf_budgets

_ROWS = [
    {
        "index": i,
        "kind": "CONV_2D",
        "entry": "aot_conv2d_s8_dsp_sat",
        "kernel": "aot_conv2d_s8_dsp",
        "macs": m,
        "instructions": n,
    }
    for i, (m, n) in enumerate([(1000, 2000), (1000, 9000), (0, 50), (4000, 4000)])
]


class CheckTest(unittest.TestCase):
    def test_within_budget(self):
        measured = {"kws": {"instructions": 100, "stack": 64, "workspace": 32}}
        self.assertEqual(perf_check.check(measured, {"kws": {"instructions": 100, "stack": 64}}, {}, 5), [])

    def test_over_budget_names_figure_budget_and_worst_layers(self):
        measured = {"kws": {"instructions": 15050, "stack": 64, "workspace": 32}}
        [msg] = perf_check.check(measured, {"kws": {"instructions": 15000, "workspace": 16}}, {"kws": _ROWS}, 2)
        self.assertIn("kws: over its budget", msg)
        self.assertIn("instructions: measured 15,050 > budget 15,000 (+0.33 %)", msg)
        self.assertIn("workspace: measured 32 B > budget 16 B (+100.00 %)", msg)
        self.assertIn("Worst layers (2 of 4, first inference):", msg)
        lines = msg.splitlines()
        worst = [line for line in lines if "aot_conv2d_s8_dsp_sat" in line]
        self.assertEqual(len(worst), 2)
        self.assertIn("9,000", worst[0])  # most expensive first
        self.assertIn("9.00", worst[0])  # instructions per MAC
        self.assertIn("4,000", worst[1])

    def test_over_budget_without_layers_says_why(self):
        measured = {"m": {"instructions": 2, "stack": 0, "workspace": 0}}
        [msg] = perf_check.check(measured, {"m": {"instructions": 1}}, {}, 5)
        self.assertIn("No per-layer breakdown", msg)

    def test_missing_and_unknown_budgets(self):
        measured = {"a": {"instructions": 5, "stack": 1, "workspace": 2}}
        msgs = perf_check.check(measured, {"b": {"instructions": 1}}, {}, 5)
        self.assertTrue(any("a: no budget (measured instructions 5, stack 1, workspace 2)" in m for m in msgs))
        self.assertTrue(any("b: has a budget but the firmware measured no such model" in m for m in msgs))

    def test_parse_budget(self):
        self.assertEqual(
            perf_check.parse_budget("kws=instructions:10,stack:20"), ("kws", {"instructions": 10, "stack": 20})
        )
        self.assertEqual(perf_check.parse_budget("=workspace:3"), ("", {"workspace": 3}))
        with self.assertRaises(SystemExit):
            perf_check.parse_budget("kws=cycles:10")

    def test_guest_lines(self):
        out = "hello\nperf: model=a rc=0 run_stack=12\nperf: model=b rc=-3 run_stack=40\n"
        self.assertEqual(
            perf_check.guest_lines(out),
            [{"model": "a", "rc": 0, "run_stack": 12}, {"model": "b", "rc": -3, "run_stack": 40}],
        )


def _manifest(prefix, state=0, dtype="int8"):
    return {
        "prefix": prefix,
        "inputs": [{"c_name": "x", "dtype": dtype}],
        "outputs": [{"c_name": "y", "dtype": dtype}],
        "state": {"size": state},
        "workspace": {"alignment": 16},
    }


class MainTest(unittest.TestCase):
    def test_models_in_order_between_markers(self):
        c = gen_perf_main.render([_manifest("first"), _manifest("second", state=8, dtype="float32")])
        self.assertLess(c.index("first_run("), c.index("second_run("))
        self.assertEqual(c.count("  bench_start_marker();"), 2)  # one measured region per model
        self.assertIn("second_reset(state_second)", c)
        # The largest workspace, a running maximum (not nested macros, which expand exponentially).
        self.assertIn("PERF_WS_1 = PERF_MAX(PERF_WS_0, FIRST_WORKSPACE_SIZE),", c)
        self.assertIn("PERF_WS_2 = PERF_MAX(PERF_WS_1, SECOND_WORKSPACE_SIZE),", c)
        self.assertIn("#define PERF_WORKSPACE_SIZE PERF_WS_2", c)
        self.assertIn("fill(io_second_x, sizeof io_second_x, 1, &seed);", c)  # float input
        self.assertIn("fill(io_first_x, sizeof io_first_x, 0, &seed);", c)

    def test_seed_depends_on_prefix_only(self):
        alone = gen_perf_main.render([_manifest("kws")])
        together = gen_perf_main.render([_manifest("other"), _manifest("kws")])
        seed = f"seed = {gen_perf_main._seed('kws')}u;"
        self.assertIn(seed, alone)
        self.assertIn(seed, together)
        self.assertNotEqual(gen_perf_main._seed("kws"), gen_perf_main._seed("kwt"))


class StackBoundTest(unittest.TestCase):
    def test_measured_peak_against_the_static_bound(self):
        measured = {p: {"stack": 200} for p in ("ok", "over", "partial", "absent")}
        bounds = {
            "ok_run": StackEstimate("ok_run", 200, [("ok_run", 200)]),
            "over_run": StackEstimate("over_run", 120, [("over_run", 80), ("aot_conv", 40)]),
            "partial_run": StackEstimate("partial_run", 300, [("partial_run", 300)], "an indirect call in f"),
        }
        got = perf_check.stack_problems(measured, bounds)
        self.assertEqual(len(got), 3, got)
        self.assertIn("over: the run used 200 B of stack, more than the static bound of 120 B", got[0])
        self.assertIn("over_run (80 B) -> aot_conv (40 B)", got[0])
        self.assertIn("partial: the static stack bound of partial_run (300 B) is a lower bound only", got[1])
        self.assertIn("absent: no static stack bound: absent_run is not a function", got[2])


class UpdateBudgetsTest(unittest.TestCase):
    def test_margin_and_rounding(self):
        self.assertEqual(update_perf_budgets.budget("instructions", 1000, 2.0), 1020)
        self.assertEqual(update_perf_budgets.budget("stack", 100, 2.0), 104)  # 102 rounded up to 8
        self.assertEqual(update_perf_budgets.budget("workspace", 16992, 2.0), 17336)

    def test_reads_board_tests_not_fixtures(self):
        with tempfile.TemporaryDirectory() as logs:
            for test, models in (
                ("perf_b1_test", {"m": 1}),
                ("perf_b1_s_test", {"s": 3}),  # a model measured in an image of its own on b1
                ("perf_b1_other_test", {"t": 4}),  # not named after its model: a fixture
                ("perf_over_budget_fixture_test", {"n": 2}),
            ):
                os.makedirs(os.path.join(logs, "tests", "models", test))
                with open(os.path.join(logs, "tests", "models", test, "test.log"), "w") as f:
                    f.write("x\naot_perf_test figures: " + json.dumps({"board": "b1", "models": models}) + "\n")
            self.assertEqual(update_perf_budgets.read_figures(logs), {"b1": {"m": 1, "s": 3}})


if __name__ == "__main__":
    unittest.main()
