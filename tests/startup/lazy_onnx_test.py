"""The compiler's TFLite paths do not import the onnx package (compiler/frontend/__init__.py says why).

Every build action that runs aotc on a .tflite model (compile, testgen, refdata) starts a Python process; importing
onnx there cost a fifth of a small model's compile. The test compiles a TFLite model through the CLI in a
fresh interpreter, as an action does, and checks that onnx was never imported; then that an ONNX model still loads
through the same entry point.
"""

import os
import subprocess
import sys
import unittest

# Runs `aotc compile` through the CLI's own entry point (flag parsing included, as an action does), then reports
# which of the heavy modules a TFLite compile never needs were imported.
_PROBE = """
import sys, tempfile
from compiler.cli import main
rc = main(["aotc", "compile", sys.argv[1], "--quiet", "--prefix", "probe", "--out_dir", tempfile.mkdtemp()])
assert rc == 0, rc
print(sorted(m for m in ("onnx", "urllib.request", "http.client") if m in sys.modules))
"""

_MODELS = "tests/models"  # relative to the runfiles root (the test's working directory) or a checkout


class LazyOnnxTest(unittest.TestCase):
    def _probe(self, model: str) -> str:
        path = os.path.join(_MODELS, model)
        self.assertTrue(os.path.exists(path), path)
        out = subprocess.run(
            [sys.executable, "-c", _PROBE, path],
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
            check=False,
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout.strip()

    def test_tflite_does_not_import_onnx(self):
        self.assertEqual(self._probe("decoder_int8.tflite"), "[]")

    def test_onnx_still_loads(self):
        self.assertEqual(self._probe("onnx_cnn_float.onnx"), "['onnx']")


if __name__ == "__main__":
    sys.exit(unittest.main())
