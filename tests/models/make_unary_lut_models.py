"""Generates the int8 models of the table-lookup unary kernels (committed next to this script):
- unary_s8_int8.tflite (bench): a chain of ten int8 unary ops on a 1x48x48x32 tensor (73,728 values each):
  LEAKY_RELU (alpha 0.1), HARD_SWISH, ELU, QUANTIZE (int8 -> int8 requantization), ABS with a rescale, RELU with a
  requantization, RELU6, TANH, LOGISTIC and RSQRT, each with its own output quantization (each op after the first
  runs in place on its input's buffer);
- unary_lut_variants_int8.tflite (QEMU model tests on the M4 and the M55): every table-served op on tensors of
  231, 37, 1 and 160 values (byte tails of the word kernel, a predicated tail of the Helium kernel, a whole number
  of vectors; the 1-value tensor keeps the op's own kernel), with drawn scales and zero points, extremes included
  (1e-6 .. 3000, the int8 ends), and LEAKY_RELU alphas of 0, 0.1, -0.7 and 2.5.
Scales and zero points are seeded draws; each op's structural constraints are honoured (TANH and LOGISTIC outputs in
TFLite's fixed quantization, RELU6 with identical input and output quantization, RSQRT inputs at or above their
zero point, which is then -128, and an output scale its rescaling accepts).  Uses tests/compiler/tflite_builder.py
(no TensorFlow):
  .venv/bin/python tests/models/make_unary_lut_models.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder, fb  # noqa: E402

# Output quantization TFLite fixes for these ops.
FIXED = {"TANH": (1.0 / 128, 0), "LOGISTIC": (1.0 / 256, -128)}


def unary(b, kind, x, q, name, alpha=None):
    """One `kind` op on x into a new tensor quantized q (or the op's fixed quantization)."""
    q = FIXED.get(kind, q)
    y = b.tensor(name, list(x.shape), "int8", *q)
    opts = None
    if kind == "LEAKY_RELU":
        opts = fb.LeakyReluOptionsT()
        opts.alpha = alpha
    b.op(kind, [x], y, opts)
    return y


def bench_chain():
    b = ModelBuilder("unary_s8_int8")
    x = b.input("x", [1, 48, 48, 32], "int8", 0.08, 5)
    chain = (
        ("LEAKY_RELU", (0.03, -20)),
        ("HARD_SWISH", (0.02, -60)),
        ("ELU", (0.025, -30)),
        ("QUANTIZE", (0.04, 7)),
        ("ABS", (0.06, -128)),
        ("RELU", (0.05, -100)),
        ("RELU6", None),
        ("TANH", None),
        ("LOGISTIC", None),
        ("RSQRT", (0.07, -128)),
    )
    cur = (0.08, 5)
    for kind, q in chain:
        # RELU6 keeps its input's quantization (TFLite Micro clamps in it).
        cur = FIXED.get(kind, q if q is not None else cur)
        x = unary(b, kind, x, cur, kind.lower(), alpha=0.1)
    b.output(x)
    return b


def variants():
    rng = np.random.default_rng(6019)
    b = ModelBuilder("unary_lut_variants_int8")
    scales = (1e-6, 3e-3, 0.02, 0.5, 7.0, 3000.0)
    zps = (-128, -77, 0, 3, 127)
    outs = []
    shapes = ([1, 3, 7, 11], [37], [1], [2, 5, 16])
    kinds = ("ABS", "LEAKY_RELU", "HARD_SWISH", "ELU", "QUANTIZE", "RELU", "RELU6", "TANH", "LOGISTIC", "RSQRT")
    for kind in kinds:
        for j, shape in enumerate(shapes):
            qi = (float(rng.choice(scales)) * float(rng.uniform(0.7, 1.3)), int(rng.choice(zps)))
            qo = (float(rng.choice(scales)) * float(rng.uniform(0.7, 1.3)), int(rng.choice(zps)))
            if kind == "RSQRT":
                # Inputs at or above the zero point only; 1 / (sqrt(s_in) * s_out) must be at least 2^-12.
                qi = (qi[0], -128)
                qo = (min(qo[0], 1.0 / (np.sqrt(qi[0]) * 2.0**-11)), qo[1])
            if kind in FIXED:
                # Their input rescaling to Q4.27 takes scales up to 2^4.
                qi = (min(qi[0], 10.0), qi[1])
            if kind == "ELU":
                # Beyond 2^31 output steps TFLite Micro's float -> int32 conversion is undefined (x86: INT32_MIN).
                qo = (max(qo[0], qi[0] * 1e-6), qo[1])
            if kind == "RELU6":
                qo = qi
            if kind == "HARD_SWISH":
                # TFLite Micro's multipliers must stay within its 16-bit fixed-point ranges.
                qi = (float(rng.uniform(0.01, 0.1)), qi[1])
                qo = (float(rng.uniform(0.005, 0.05)), qo[1])
            x = b.input(f"{kind.lower()}_x{j}", shape, "int8", *qi)
            alpha = float(rng.choice([0.1, -0.7, 2.5, 0.0]))
            outs.append(unary(b, kind, x, qo, f"{kind.lower()}{j}", alpha=alpha))
    b.output(*outs)
    return b


MODELS = {
    "unary_s8_int8.tflite": bench_chain,
    "unary_lut_variants_int8.tflite": variants,
}

if __name__ == "__main__":
    for name, make in MODELS.items():
        print(make().save(os.path.join(HERE, name)))
