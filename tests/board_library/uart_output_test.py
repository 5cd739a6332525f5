"""Runs an image built for a real-SoC QEMU board (//boards/qemu) and reads what it prints from the SoC's UART:
qemu_run.sh connects the machine's first UART to stdout, and the image links no semihosting output (rdimon), so
every line checked here came through the UART driver of the board's start-up.

usage: uart_output_test.py MACHINE QEMU_RUN ELF PATTERN...   (each PATTERN a regular expression the output must match)
"""

import subprocess
import sys
import unittest

MACHINE, QEMU_RUN, ELF = sys.argv[1:4]
PATTERNS = sys.argv[4:]
del sys.argv[1:]


class UartOutputTest(unittest.TestCase):
    def test_output_arrives_over_the_uart(self):
        self.assertTrue(PATTERNS)
        r = subprocess.run(["sh", QEMU_RUN, MACHINE, ELF, "240"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        for pattern in PATTERNS:
            self.assertRegex(r.stdout, pattern)

    def test_image_has_no_semihosting_output(self):
        with open(ELF, "rb") as f:
            data = f.read()
        self.assertNotIn(b"initialise_monitor_handles", data)
        self.assertNotIn(b"_swiwrite", data)


if __name__ == "__main__":
    unittest.main()
