"""Runs the multi-model demo built for a real-SoC QEMU board (//boards/qemu) and reads its table from the SoC's
UART: qemu_run.sh connects the machine's first UART to stdout, and the image links no semihosting output (rdimon),
so every line checked here came through the UART driver of the board's start-up.

usage: uart_output_test.py BOARD QEMU_RUN ELF
"""

import subprocess
import sys
import unittest

BOARD, QEMU_RUN, ELF = sys.argv[1:4]
del sys.argv[1:]
MACHINES = {"netduinoplus2": "netduinoplus2"}


class UartOutputTest(unittest.TestCase):
    def test_table_arrives_over_the_uart(self):
        r = subprocess.run(["sh", QEMU_RUN, MACHINES[BOARD], ELF, "240"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("all models match the reference bit for bit", r.stdout)
        for prefix in ("kws", "kws_b", "ic", "ad", "vision"):
            self.assertRegex(r.stdout, rf"\| {prefix} +\|.*bit-exact")

    def test_image_has_no_semihosting_output(self):
        with open(ELF, "rb") as f:
            data = f.read()
        self.assertNotIn(b"initialise_monitor_handles", data)
        self.assertNotIn(b"_swiwrite", data)


if __name__ == "__main__":
    unittest.main()
