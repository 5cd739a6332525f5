"""The instruction counter counts exactly: a 3N-instruction loop between the markers measures 3N + 3, every time."""

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


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--firmware", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
