"""Generates the int8 networks of the weights-blob tests (aot_model_library(weights = "blob")): one architecture
trained twice, and a third network of another architecture.

- blob_a_int8.tflite, blob_b_int8.tflite: input 16x16x1, CONV 3x3 (8, ReLU), DEPTHWISE 3x3 (ReLU), CONV 1x1
  (16, ReLU), average pool, FULLY_CONNECTED 10 (ReLU), FULLY_CONNECTED 4 with its output quantized as a trained
  model's logits are in this test (fixed range, so the output zero point is the same), SOFTMAX.  Seeds 31 and 32:
  every weight, bias, per-channel and activation scale differs between the two; zero points are the ones ReLU and
  softmax give, which a retraining keeps.
- blob_other_int8.tflite: the same layers with 12 channels in the 1x1 convolution: another architecture, which
  aot_weights_blob refuses (tests/weights_blob:other_architecture_fails).

They live here, not in tests/models, whose every model has golden digests of its code (test_codegen_golden.py).

    .venv/bin/python tests/weights_blob/make_blob_models.py [OUT_DIR]   # (re)writes the three files (default: here)
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from calibrated_net import CalibratedNet  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def net(seed, pointwise=16):
    n = CalibratedNet(seed, f"weights-blob test network, seed {seed} (tests/weights_blob/make_blob_models.py)")
    x = n.input("input", [1, 16, 16, 1], 0.02, 0)
    x = n.conv("conv", x, 8, 3, stride=2)
    x = n.depthwise("depthwise", x)
    x = n.conv("pointwise", x, pointwise, 1)
    x = n.global_avg_pool("avg_pool", x)
    x = n.fc("dense", x, 10)
    # The logits' quantization as a deployment fixes it (range [-8, 8)): the same zero point for every training.
    x = n.fc("logits", x, 4, act="NONE", beta=0.0, gamma=(1.5, 2.5), quant=(np.float32(16.0 / 256.0), 0))
    return n, n.output(n.softmax("probabilities", x))


MODELS = {
    "blob_a_int8.tflite": lambda: net(31),
    "blob_b_int8.tflite": lambda: net(32),
    "blob_other_int8.tflite": lambda: net(31, pointwise=12),
}


def main(out_dir=HERE):
    for name, build in MODELS.items():
        _, data = build()
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
