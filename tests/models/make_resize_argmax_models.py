"""Generates the int8 models of the fast RESIZE / ARG_MAX / TRANSPOSE_CONV kernels (committed next to this script):
- seg_head_int8.tflite (bench): a segmentation-like head, a 48x48x16 int8 score map upsampled x2 by
  RESIZE_BILINEAR (half-pixel centers) and by RESIZE_NEAREST_NEIGHBOR, each followed by an ARG_MAX over the 16
  classes (two [1, 96, 96] int32 label maps);
- classifier_argmax_int8.tflite (bench): ARG_MAX and ARG_MIN over 1000 int8 class scores;
- tconv_decoder_int8.tflite (bench): an int8 TRANSPOSE_CONV decoder, 12x12x32 -> 3x3 stride 2 SAME -> 24x24x16 ->
  4x4 stride 2 SAME -> 48x48x8 (per-channel weight scales);
- resize_argmax_variants_int8.tflite (QEMU model tests on the M4 and the M55): every align_corners /
  half_pixel_centers combination of both resizes, up and down, on depths 1, 3, 5, 16 and 17 (word and byte tails,
  a predicated MVE tail), rows and columns that repeat; ARG_MAX and ARG_MIN over last axes of 1, 3, 16, 17 and 35
  values with few distinct values (ties go to the first index), one at the int8 limits, and one over a middle axis;
  a TRANSPOSE_CONV 3x2 stride 2 VALID on 17 channels to 7 with extreme per-channel scales and biases.
Weights and inputs are seeded random (the input zero points and scales are drawn, some extreme; RESIZE carries its
input's quantization).  Uses tests/compiler/tflite_builder.py (no TensorFlow):
  .venv/bin/python tests/models/make_resize_argmax_models.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder, fb  # noqa: E402


def _resize(b, kind, x, size, q, ac, hp, name):
    n, _, _, c = x.shape
    y = b.tensor(name, [n, size[0], size[1], c], "int8", *q)
    size_t = b.const(name + "_size", np.array(size, np.int32), "int32")
    if kind == "RESIZE_BILINEAR":
        opts = fb.ResizeBilinearOptionsT()
    else:
        opts = fb.ResizeNearestNeighborOptionsT()
    opts.alignCorners, opts.halfPixelCenters = ac, hp
    b.op(kind, [x, size_t], y, opts)
    return y


def _arg(b, kind, x, axis, name):
    shape = [d for i, d in enumerate(x.shape) if i != axis % len(x.shape)]
    y = b.tensor(name, shape, "int32")
    opts = fb.ArgMaxOptionsT() if kind == "ARG_MAX" else fb.ArgMinOptionsT()
    opts.outputType = fb.TensorType.INT32
    b.op(kind, [x, b.const(name + "_axis", np.array([axis], np.int32), "int32")], y, opts)
    return y


def seg_head():
    b = ModelBuilder("seg_head_int8")
    q = (0.05, -3)
    x = b.input("scores", [1, 48, 48, 16], "int8", *q)
    up = _resize(b, "RESIZE_BILINEAR", x, (96, 96), q, False, True, "bilinear")
    near = _resize(b, "RESIZE_NEAREST_NEIGHBOR", x, (96, 96), q, False, False, "nearest")
    b.output(_arg(b, "ARG_MAX", up, 3, "labels_bilinear"), _arg(b, "ARG_MAX", near, 3, "labels_nearest"))
    return b


def classifier():
    b = ModelBuilder("classifier_argmax_int8")
    x = b.input("logits", [1, 1000], "int8", 0.1, 12)
    b.output(_arg(b, "ARG_MAX", x, -1, "top"), _arg(b, "ARG_MIN", x, 1, "bottom"))
    return b


def tconv_decoder():
    rng = np.random.default_rng(191)
    b = ModelBuilder("tconv_decoder_int8")
    scale, zp = 0.02, -5
    x = b.input("x", [1, 12, 12, 32], "int8", scale, zp)
    for i, (k, ic, oc, out_hw) in enumerate(((3, 32, 16, 24), (4, 16, 8, 48))):
        ws = rng.uniform(0.5, 1.0, oc) * 1e-2
        w = b.const(f"t{i}_w", rng.integers(-127, 128, (oc, k, k, ic)).astype(np.int8), "int8", ws, 0, 0)
        mag = int(127 * 127 * np.sqrt(k * k * ic) / 8)
        bias = b.const(
            f"t{i}_b",
            rng.integers(-mag, mag + 1, oc).astype(np.int32),
            "int32",
            np.float32(scale) * ws.astype(np.float32),
            0,
        )
        # Output scale: three standard deviations of the sum at the int8 limit (about a quarter of the taps of a
        # stride-2 transposed convolution land on each output).
        taps = k * k * ic / 4
        scale = float(scale * ws.mean() * 3 * np.sqrt(taps) * 64 * 73 / 127)
        y = b.tensor(f"t{i}", [1, out_hw, out_hw, oc], "int8", scale, 3 - 6 * i)
        shape = b.const(f"t{i}_shape", np.array([1, out_hw, out_hw, oc], np.int32), "int32")
        b.op("TRANSPOSE_CONV", [shape, w, x, bias], y, {"padding": 0, "strideH": 2, "strideW": 2})
        x = y
    b.output(x)
    return b


def variants():
    rng = np.random.default_rng(1919)
    b = ModelBuilder("resize_argmax_variants_int8")
    outs = []
    combos = ((False, False), (True, False), (False, True))
    shapes = (
        ((5, 7, 3), (10, 14)),
        ((4, 6, 16), (7, 13)),
        ((9, 8, 17), (4, 5)),
        ((3, 3, 5), (8, 2)),
        ((1, 4, 1), (3, 9)),
    )
    for i, ((h, w, c), size) in enumerate(shapes):
        # Drawn zero points and scales, the int8 ends included: RESIZE only carries them.
        q = (float(rng.choice([1e-6, 0.05, 3000.0])), int(rng.choice([-128, -3, 0, 127])))
        x = b.input(f"x{i}", [2 if i == 0 else 1, h, w, c], "int8", *q)
        for kind in ("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"):
            for ac, hp in combos:
                outs.append(_resize(b, kind, x, size, q, ac, hp, f"{kind.lower()}{i}_ac{int(ac)}_hp{int(hp)}"))
    for i, (shape, axis) in enumerate(
        (([2, 3, 16], -1), ([5, 17], 1), ([1, 2, 2, 35], 3), ([4, 1], -1), ([3, 3], -1), ([2, 6, 9], 1))
    ):
        x = b.input(f"a{i}", shape, "int8", 0.5, int(rng.integers(-128, 128)))
        for kind in ("ARG_MAX", "ARG_MIN"):
            outs.append(_arg(b, kind, x, axis, f"{kind.lower()}{i}"))
    # TRANSPOSE_CONV with the kernels' other paths: 17 input channels (a word / 16-lane tail), 7 output channels (a
    # block of 4, then single channels), per-channel scales from a multiplier flushed to zero to left shifts, input
    # zero point -128, biases at the int32 limits, ReLU6.
    scales = np.array([1e-10, 3e-8, 0.004, 0.3, 40.0, 2000.0, 0.006])
    x = b.input("tc_in", [1, 3, 4, 17], "int8", 0.05, -128)
    w = b.const("tc_w", rng.integers(-128, 128, (7, 3, 2, 17)).astype(np.int8), "int8", scales, 0, 0)
    bias = np.array([2**31 - 1, -(2**31), 5, -7, 1000, -1000, 2**31 - 1], np.int64).astype(np.int32)
    bias_t = b.const("tc_b", bias, "int32", np.float32(0.05) * scales.astype(np.float32), 0)
    y = b.tensor("tconv", [1, 7, 8, 7], "int8", 0.2, 3)
    shape = b.const("tc_shape", np.array([1, 7, 8, 7], np.int32), "int32")
    opts = {"padding": 1, "strideH": 2, "strideW": 2, "fusedActivationFunction": 3}
    b.op("TRANSPOSE_CONV", [shape, w, x, bias_t], y, opts)
    outs.append(y)
    b.output(*outs)
    return b


MODELS = {
    "seg_head_int8.tflite": seg_head,
    "classifier_argmax_int8.tflite": classifier,
    "tconv_decoder_int8.tflite": tconv_decoder,
    "resize_argmax_variants_int8.tflite": variants,
}

if __name__ == "__main__":
    for name, make in MODELS.items():
        print(make().save(os.path.join(HERE, name)))
