"""The pieces of the -flto, unity-CRT images that decide pass or fail, without building one (the images themselves
are //tests/models:lto_unity_<board>_test): the generated runner fails when any model's test fails, run_image.py
fails on a mismatch, a crash or a summary short of every model, and the M55 linker script moves .rodata whole."""

import os
import stat
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build_image  # noqa: E402
import run_image  # noqa: E402

_SCRIPT = """MEMORY
{
  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 524288
  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 524288
}
SECTIONS
{
  .text :
  {
    *(.text .text.*)
  } > FLASH

  .rodata :
  {
    *(.rodata.aot_weights*)
    *(.rodata .rodata.*)
  } > FLASH

  .data : { *(.data) } > RAM AT > FLASH
}
"""


class BuildImageTest(unittest.TestCase):
    def test_runner_counts_every_model_and_fails_on_any(self):
        src = build_image.runner_source("img", ["kws", "ad01"])
        self.assertIn("int kws_test_main(void);", src)
        self.assertIn('if (ad01_test_main() != 0) {\n        printf("FAILED: ad01\\n");', src)
        self.assertIn("%d of 2 models match", src)
        self.assertIn("return failed == 0 ? 0 : 1;", src)

    def test_rodata_moves_to_its_own_region_and_nothing_else_does(self):
        out = build_image.move_rodata(_SCRIPT, "0x60000000", "16M")
        self.assertIn("AOT_CONST (rx) : ORIGIN = 0x60000000, LENGTH = 16M", out)
        rodata = out[out.index("  .rodata :") :]
        self.assertTrue(rodata[rodata.index("} >") :].startswith("} > AOT_CONST\n"))
        self.assertIn("*(.text .text.*)\n  } > FLASH", out)
        self.assertIn("} > RAM AT > FLASH", out)


class RunImageTest(unittest.TestCase):
    def _run(self, output, code):
        with tempfile.TemporaryDirectory() as d:
            qemu = os.path.join(d, "qemu")
            with open(qemu, "w") as f:
                f.write("#!/bin/sh\ncat <<'EOF'\n%sEOF\nexit %d\n" % (output, code))
            os.chmod(qemu, stat.S_IRWXU)
            os.environ["AOT_QEMU"] = qemu
            try:
                return run_image.main(["--machine", "mps2-an386", "--timeout", "30", os.path.join(d, "fw.elf")])
            finally:
                del os.environ["AOT_QEMU"]

    def test_every_model_matching_passes(self):
        self.assertEqual(self._run("kws: 10 of 10 cases match\nimg: 2 of 2 models match the reference\n", 0), 0)

    def test_a_mismatch_fails(self):
        out = "kws: case 3 output 'y'[7]: got 5, want 6\nFAILED: kws\nimg: 1 of 2 models match the reference\n"
        self.assertEqual(self._run(out, 1), 1)

    def test_a_short_summary_fails_even_with_exit_0(self):
        self.assertEqual(self._run("img: 1 of 2 models match the reference\n", 0), 1)

    def test_a_crash_without_summary_fails(self):
        self.assertEqual(self._run("kws: 10 of 10 cases match\n", 0), 1)


if __name__ == "__main__":
    unittest.main()
