"""audio_reference.py on small generated models (no shared models needed): the clip, the 49 windows it feeds the
preprocessor, the feature matrix assembled row by row and the classifier's scores, checked against TFLite Micro
run here window by window; the generated C compiles warning-free; a classifier whose input is not a whole number
of feature rows is refused in one paragraph."""

import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(_HERE, "..", ".."))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "tests", "compiler"))

import audio_reference  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402
from synth_clip import synth_clip  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402


def _toy_preprocessor(path):
    """int16 [1, 480] -> every 12th sample -> int8 [40]: each feature depends on its own window only."""
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    b = ModelBuilder()
    x = b.input("audio_frame", [1, 480], "int16", 1 / 32768, 0)
    s = b.op(
        "STRIDED_SLICE",
        [
            x,
            b.const("begin", np.array([0, 0], np.int32), "int32"),
            b.const("end", np.array([1, 480], np.int32), "int32"),
            b.const("strides", np.array([1, 12], np.int32), "int32"),
        ],
        out=b.tensor("picked", [1, 40], "int16", 1 / 32768, 0),
        options=fb.StridedSliceOptionsT(),
    )
    q = b.op("QUANTIZE", [s], out=b.tensor("q", [1, 40], "int8", 1 / 512, -3))
    y = b.op(
        "RESHAPE",
        [q, b.const("shape", np.array([40], np.int32), "int32")],
        out=b.tensor("features", [40], "int8", 1 / 512, -3),
    )
    b.output(y)
    b.save(path)


def _toy_classifier(path, inputs=1960):
    rng = np.random.default_rng(3)
    b = ModelBuilder()
    x = b.input("feature_matrix", [1, inputs], "int8", 1 / 512, -3)
    w = b.const("w", rng.integers(-127, 128, size=[4, inputs]).astype(np.int8), "int8", 0.002, 0)
    bias = b.const("bias", rng.integers(-500, 500, size=[4]).astype(np.int32), "int32", 0.002 / 512, 0)
    y = b.op(
        "FULLY_CONNECTED",
        [x, w, bias],
        out=b.tensor("scores", [1, 4], "int8", 0.05, 5),
        options={"fusedActivationFunction": 0},
    )
    b.output(y)
    b.save(path)


def _array(source, name):
    m = re.search(r"\b%s\[[^\]]*\] = \{(.*?)\};" % re.escape(name), source, re.S)
    return np.array([int(v) for v in m.group(1).replace("u", "").split(",")])


class AudioReferenceTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.pre = os.path.join(self.tmp, "pre.tflite")
        self.cls = os.path.join(self.tmp, "cls.tflite")
        _toy_preprocessor(self.pre)
        _toy_classifier(self.cls)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_windows_matrix_and_scores(self):
        out = os.path.join(self.tmp, "out")
        rc = audio_reference.main(
            ["--preprocessor", self.pre, "--classifier", self.cls, "--seed", "5", "--out_dir", out, "--name", "toy_ref"]
        )
        self.assertEqual(rc, 0)
        with open(os.path.join(out, "toy_ref.h")) as f:
            header = f.read()
        with open(os.path.join(out, "toy_ref.c")) as f:
            source = f.read()
        for macro, value in [
            ("WINDOW", 480),
            ("STRIDE", 320),
            ("FRAMES", 49),
            ("FEATURE_SIZE", 40),
            ("NUM_SAMPLES", 16000),
            ("NUM_SCORES", 4),
            ("SEED", 5),
        ]:
            self.assertRegex(header, r"#define TOY_REF_%s %d\b" % (macro, value))
        clip = synth_clip(5)
        self.assertTrue(np.array_equal(_array(source, "toy_ref_audio"), clip))
        # micro_speech's framing, computed here: window k starts at 320 k.
        windows = [[clip[320 * k : 320 * k + 480].reshape(1, 480)] for k in range(49)]
        want = np.stack([np.asarray(o[0]).reshape(-1) for o in tflm_outputs(self.pre, windows, 1)])
        got = _array(source, "toy_ref_features_want").reshape(49, 40)
        self.assertTrue(np.array_equal(got, want))
        self.assertGreater(len(np.unique(got)), 10)  # the clip reaches the features
        scores = np.asarray(tflm_outputs(self.cls, [[want.reshape(1, 1960).astype(np.int8)]], 1)[0][0])
        self.assertTrue(np.array_equal(_array(source, "toy_ref_scores_want"), scores.reshape(-1)))
        cc = shutil.which("gcc") or shutil.which("cc")
        if cc:
            subprocess.run(
                [
                    cc,
                    "-std=c99",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-c",
                    os.path.join(out, "toy_ref.c"),
                    "-o",
                    os.path.join(out, "toy_ref.o"),
                ],
                check=True,
            )

    def test_classifier_input_not_whole_rows_is_refused(self):
        bad = os.path.join(self.tmp, "bad.tflite")
        _toy_classifier(bad, inputs=1961)
        err = io.StringIO()
        with redirect_stderr(err):
            rc = audio_reference.main(
                ["--preprocessor", self.pre, "--classifier", bad, "--out_dir", os.path.join(self.tmp, "bad_out")]
            )
        self.assertEqual(rc, 1)
        self.assertIn("1961", err.getvalue())
        self.assertIn("feature rows", err.getvalue())
        self.assertNotIn("Traceback", err.getvalue())
        self.assertEqual(err.getvalue().count("\n"), 1)

    def test_classifier_rows_beyond_the_clip_are_refused(self):
        # 51 rows of 40 features need 51 windows; one second of audio holds 49.
        long = os.path.join(self.tmp, "long.tflite")
        _toy_classifier(long, inputs=51 * 40)
        err = io.StringIO()
        with redirect_stderr(err):
            rc = audio_reference.main(
                ["--preprocessor", self.pre, "--classifier", long, "--out_dir", os.path.join(self.tmp, "long_out")]
            )
        self.assertEqual(rc, 1)
        self.assertIn("49 windows", err.getvalue())


if __name__ == "__main__":
    unittest.main()
