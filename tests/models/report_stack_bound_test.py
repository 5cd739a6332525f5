"""`aotc report --target`'s stack bound (compiler/report/stack_bound.py) is the firmware size report's figure.

The bound is computed before any firmware exists, from the generated C and the CRT kernels it calls compiled for the
core; the firmware's size report computes it from the linked image. For generated models in images the test suite
builds anyway (the Cortex-M4 perf image, the Cortex-M0 int16 model test; both -Os, Bazel's fastbuild), the two must
be equal (the image's figure is read from its ELF as the size report reads it). Also: the compiler's table of core
flags is toolchains/cores.bzl's, and without the cross compiler the report says so instead of printing a figure.
"""

import os
import re
import unittest
from unittest import mock

from compiler.driver import compile_model
from compiler.report import stack_bound
from compiler.report.stack_usage import estimate

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(_HERE))

# (firmware, its core, model file, prefix)
_CASES = [
    ("perf_mps2-an386_fw", "cortex-m4", "kws_ds_cnn_int8.tflite", "gen_kws_ds_cnn"),
    ("generated_exact_test_microbit_fw", "cortex-m0", "int16_ops.tflite", "int16_ops"),
]


def _size_report_stack(firmware: str, prefix: str) -> int:
    """The size report's `run stack` of the model: the same analysis (stack_usage.estimate) of the linked ELF, which is
    what the firmware's runfiles carry (the report's text is a build output, not a runfile)."""
    elf = os.path.join(_HERE, firmware + ".elf")
    est = estimate(stack_bound._tool("objdump"), elf, [prefix + "_run"])
    if prefix + "_run" not in est:
        raise AssertionError(f"{prefix}_run is not a function of {firmware}.elf")
    return est[prefix + "_run"].bytes


class StackBoundTest(unittest.TestCase):
    @unittest.skipUnless(stack_bound._tool("gcc"), "arm-none-eabi-gcc not on PATH (tools/setup.sh installs it)")
    def test_equals_the_firmware_size_report(self):
        for firmware, core, model, prefix in _CASES:
            with self.subTest(firmware=firmware):
                files = compile_model(os.path.join(_HERE, model), prefix, core).files
                b = stack_bound.bound(files, prefix, core, "Os")
                self.assertEqual(b.estimate.unbounded, "")
                self.assertEqual(b.estimate.path[0][0], prefix + "_run")
                self.assertEqual(b.estimate.bytes, _size_report_stack(firmware, prefix))
                self.assertIn(
                    f"{b.estimate.bytes:,} B   worst case of {prefix}_run on {core} at -Os",
                    stack_bound.render(b, prefix)[0],
                )

    def test_core_flags_are_the_toolchains(self):
        with open(os.path.join(_ROOT, "toolchains", "cores.bzl")) as f:
            text = f.read()
        for core, flags in stack_bound.CORE_FLAGS.items():
            m = re.search(r'^\s*"%s": \[([^\]]*)\]' % re.escape(core), text, re.M)
            self.assertIsNotNone(m, core)
            self.assertEqual(re.findall(r'"([^"]+)"', m.group(1)), flags, core)

    def test_without_the_cross_compiler_it_says_so(self):
        with mock.patch.object(stack_bound.shutil, "which", return_value=None):
            b = stack_bound.bound({}, "m", "cortex-m4")
        self.assertIsNone(b.estimate)
        line = stack_bound.render(b, "m")[0]
        self.assertIn("not computed: arm-none-eabi-gcc is not on PATH", line)


if __name__ == "__main__":
    unittest.main()
