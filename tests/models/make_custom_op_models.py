"""Generates the model with a CUSTOM operator that examples/user_kernels runs with a user kernel, and its twin.

- user_custom_int8.tflite: x [1, 32] int8 -> FULLY_CONNECTED 24 -> CUSTOM:ClampFloor(h, floor) -> FULLY_CONNECTED
  10 -> y. ClampFloor is an operator of this example's, not TFLite's: out = max(h, floor[0]) on the raw int8
  values (floor a const int8 tensor of h's quantization); its custom options are a FlexBuffer map {"version": 1}.
- user_custom_twin_int8.tflite: the same network with the built-in MAXIMUM in place of ClampFloor, which TFLite
  Micro runs: the reference outputs of the example come from it (same input tensor, so the same seeded inputs).
Weights are seeded and drawn over the whole int8 range; scales are chosen so the outputs spread over the int8 range
(checked here with the TFLite Micro interpreter).

    .venv/bin/python tests/models/make_custom_op_models.py [OUT_DIR]   # (re)writes the two files (default: here)
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "compiler"))
from tflite_builder import ModelBuilder  # noqa: E402


def build(custom: bool, upto_h: bool = False) -> ModelBuilder:
    """The network (custom: with ClampFloor, else the MAXIMUM twin); upto_h: only its first layer, output h."""
    rng = np.random.default_rng(2024)
    b = ModelBuilder("examples/user_kernels: " + ("ClampFloor custom operator" if custom else "MAXIMUM twin"))
    x = b.input("x", [1, 32], "int8", scale=0.05, zero_point=-3)
    w1 = b.const("w1", rng.integers(-127, 128, (24, 32)).astype(np.int8), "int8", scale=0.004, zero_point=0)
    b1 = b.const("b1", rng.integers(-2000, 2000, 24).astype(np.int32), "int32", scale=0.05 * 0.004, zero_point=0)
    h = b.op("FULLY_CONNECTED", [x, w1, b1], out=b.tensor("h", [1, 24], "int8", 0.06, 2))
    if upto_h:
        b.output(h)
        return b
    floor = b.const("floor", np.array([-20], np.int8), "int8", scale=0.06, zero_point=2)
    g = b.tensor("g", [1, 24], "int8", 0.06, 2)
    if custom:
        b.op("CUSTOM:ClampFloor", [h, floor], out=g, options={"version": 1})
    else:
        b.op("MAXIMUM", [h, floor], out=g)
    w2 = b.const("w2", rng.integers(-127, 128, (10, 24)).astype(np.int8), "int8", scale=0.01, zero_point=0)
    b2 = b.const("b2", rng.integers(-500, 500, 10).astype(np.int32), "int32", scale=0.06 * 0.01, zero_point=0)
    y = b.op("FULLY_CONNECTED", [g, w2, b2], out=b.tensor("y", [1, 10], "int8", 0.2, -5))
    b.output(y)
    return b


def main(out_dir: str) -> None:
    paths = [
        build(True).save(os.path.join(out_dir, "user_custom_int8.tflite")),
        build(False).save(os.path.join(out_dir, "user_custom_twin_int8.tflite")),
    ]
    sys.path.insert(0, os.path.dirname(HERE))
    from compiler.oracle import tflm_outputs

    rng = np.random.default_rng(0)
    cases = [[rng.integers(-128, 128, (1, 32)).astype(np.int8)] for _ in range(20)]
    ys = np.stack([np.asarray(o[0]).reshape(-1) for o in tflm_outputs(paths[1], cases, 1)])
    spread, edge = int(ys.max()) - int(ys.min()), float(np.mean((ys == -128) | (ys == 127)))
    print(f"twin outputs: range {ys.min()}..{ys.max()}, {edge:.0%} at the int8 ends")
    assert spread > 100 and edge < 0.2, "outputs do not spread over the int8 range"
    for p in paths:
        print("wrote", p)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
