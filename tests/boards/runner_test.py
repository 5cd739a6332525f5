"""Proves the QEMU runner can fail: a firmware returning 1 and one that faults must give non-zero statuses.

Runs from the runfiles root (Bazel's working directory for tests), where the firmware ELFs are.
"""

import subprocess
import unittest

RUNNER = "toolchains/qemu/qemu_run.sh"


def run(machine, elf):
    proc = subprocess.run([RUNNER, machine, elf, "30"], capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout + proc.stderr


class RunnerTest(unittest.TestCase):
    def test_exit_code_one_fails(self):
        for machine, elf in (
            ("mps2-an386", "tests/boards/exit_one_mps2-an386.elf"),
            ("microbit", "tests/boards/exit_one_microbit.elf"),
        ):
            rc, out = run(machine, elf)
            self.assertEqual(rc, 1, out)
            self.assertIn("exited with code 1", out)

    def test_fault_fails_and_is_named(self):
        # Cortex-M4 reports an undefined instruction as UsageFault; Cortex-M0 only has HardFault.
        for machine, elf, fault in (
            ("mps2-an386", "tests/boards/fault_mps2-an386.elf", "UsageFault"),
            ("microbit", "tests/boards/fault_microbit.elf", "HardFault"),
        ):
            rc, out = run(machine, elf)
            self.assertEqual(rc, 134, out)
            self.assertIn("*** FAULT: " + fault, out)
            self.assertIn("FAULTED", out)

    def test_timeout_fails(self):
        proc = subprocess.run(
            [RUNNER, "mps2-an386", "tests/boards/spin_mps2-an386.elf", "2"], capture_output=True, text=True, check=False
        )
        self.assertEqual(proc.returncode, 124, proc.stderr)
        self.assertIn("TIMEOUT", proc.stderr)

    def test_missing_firmware_fails(self):
        rc, out = run("mps2-an386", "does/not/exist.elf")
        self.assertEqual(rc, 2, out)


if __name__ == "__main__":
    unittest.main()
