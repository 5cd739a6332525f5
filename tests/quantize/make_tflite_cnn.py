"""Writes tflite_cnn_float.tflite and tflite_cnn_calib.npz: a seeded float .tflite classifier (Conv 3x3 + ReLU, a
1x1 Conv, Fully connected to 4 classes) with a SignatureDef, as the TFLite converter writes one, and 48 calibration
images, for quantizing a float .tflite in the build (aot_quantize with ai-edge-quantizer, docs/quantize.md).

    .venv/bin/python tests/quantize/make_tflite_cnn.py     # no TensorFlow needed (tests/compiler/tflite_builder.py)

The weights are seeded random, not trained: what is checked is the quantizer's path and the int8 model's exactness,
and random weights give the classifier's four scores distinct values to agree on. The images are blobs in one
quadrant of a 12x12 image plus noise, so the calibration ranges come from structured data. Same bytes every run.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ACT, ModelBuilder  # noqa: E402

SEED = 30
H = W = 12


def images(rng, n):
    yy, xx = np.mgrid[0:H, 0:W]
    out = np.empty((n, 1, H, W, 1), np.float32)
    for i in range(n):
        q = i % 4
        cy = rng.uniform(1.5, 4.5) + (H // 2 if q // 2 else 0)
        cx = rng.uniform(1.5, 4.5) + (W // 2 if q % 2 else 0)
        blob = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * rng.uniform(0.8, 1.6) ** 2))
        out[i, 0, :, :, 0] = blob + rng.normal(0, 0.05, (H, W))
    return out


def build(rng) -> ModelBuilder:
    b = ModelBuilder("tflite_cnn_float: seeded float CNN for aot_quantize (tests/quantize/make_tflite_cnn.py)")
    b.signature = "serving_default"
    x = b.input("image", [1, H, W, 1], "float32")
    w1 = b.const("conv1_w", rng.normal(0, 0.5, (8, 3, 3, 1)).astype(np.float32), "float32")
    b1 = b.const("conv1_b", rng.normal(0, 0.1, (8,)).astype(np.float32), "float32")
    h1 = b.op(
        "CONV_2D",
        [x, w1, b1],
        out=b.tensor("conv1", [1, 5, 5, 8], "float32"),
        options={"padding": 1, "strideW": 2, "strideH": 2, "fusedActivationFunction": ACT["RELU"]},
    )
    w2 = b.const("conv2_w", rng.normal(0, 0.4, (8, 1, 1, 8)).astype(np.float32), "float32")
    b2 = b.const("conv2_b", rng.normal(0, 0.1, (8,)).astype(np.float32), "float32")
    h2 = b.op(
        "CONV_2D",
        [h1, w2, b2],
        out=b.tensor("conv2", [1, 5, 5, 8], "float32"),
        options={"padding": 1, "strideW": 1, "strideH": 1, "fusedActivationFunction": ACT["RELU"]},
    )
    w3 = b.const("fc_w", rng.normal(0, 0.15, (4, 200)).astype(np.float32), "float32")
    b3 = b.const("fc_b", rng.normal(0, 0.1, (4,)).astype(np.float32), "float32")
    y = b.op(
        "FULLY_CONNECTED",
        [h2, w3, b3],
        out=b.tensor("logits", [1, 4], "float32"),
        options={"fusedActivationFunction": ACT["NONE"]},
    )
    b.output(y)
    return b


def main(out_dir: str = HERE) -> None:
    rng = np.random.default_rng(SEED)
    build(rng).save(os.path.join(out_dir, "tflite_cnn_float.tflite"))
    np.savez(os.path.join(out_dir, "tflite_cnn_calib.npz"), image=images(rng, 48))


if __name__ == "__main__":
    main(*sys.argv[1:])
