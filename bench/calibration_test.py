"""The instruction counter counts exactly: a 3N-instruction loop between the markers measures 3N + 3, every time.

With the timing model on (core=cortex-m4) the count is the same, and the loop's estimated cycles are what the
Cortex-M4 table gives it: SUBS 1 + NOP 1 + BNE 1, plus the refill (2) for each taken BNE: 5N - 2 (the last BNE falls
through), plus the markers' 7 (CYCLE_MARKER_OVERHEAD: nop 1, bx lr 1 + 2, bl 1 + 2)."""

import argparse
import sys
import unittest

from toolchains.tools.qemu_count import MARKER_OVERHEAD, count

N = 1234567  # calibration.c's CALIBRATION_N
ARGS = None


class CalibrationTest(unittest.TestCase):
    def test_loop_count_is_exact_and_deterministic(self):
        elf = ARGS.firmware
        first = count(elf, "mps2-an386", ARGS.plugin)
        second = count(elf, "mps2-an386", ARGS.plugin)
        self.assertEqual(first.exit_code, 0, first.output)
        self.assertIn(f"N={N}", first.output)
        self.assertEqual(first.raw_count, 3 * N + MARKER_OVERHEAD)
        self.assertEqual(first.instructions, 3 * N)
        self.assertEqual(second.raw_count, first.raw_count)

    def test_cycle_estimate_prices_taken_and_fallthrough_branches(self):
        timed = count(ARGS.firmware, "mps2-an386", ARGS.plugin, core="cortex-m4")
        self.assertEqual(timed.instructions, 3 * N)  # the timing model leaves the instruction count alone
        self.assertEqual(timed.cycles, 5 * N - 2)
        self.assertEqual(timed.classes["taken_branches"], N - 1)
        self.assertEqual(timed.classes["br_cond"], N)
        self.assertEqual(timed.classes["unknown"], 0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--firmware", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
