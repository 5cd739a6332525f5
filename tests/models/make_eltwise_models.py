"""Generates the int8 models of the element-wise binary kernels (committed next to this script):
- eltwise_int8.tflite (bench): a chain of int8 binary ops on 1x48x48x32 tensors, every op of the chain on a large
  tensor: ADD and SUB same-shape, ADD with a per-channel [1,1,1,32] constant, MUL same-shape, MUL by a scalar
  [1,1,1,1] constant and by a per-channel constant, MAXIMUM, MINIMUM and SQUARED_DIFFERENCE same-shape;
- eltwise_variants_int8.tflite (QEMU model tests on the M4 and the M55): the same ops on odd sizes (word and byte
  tails, a predicated MVE tail), broadcast shapes (per channel, scalar, the broadcast operand first), fused
  activations, and quantization parameters drawn extreme (scales over several decades, zero points at the limits).
Inputs and constants are seeded random.  Uses tests/compiler/tflite_builder.py (no TensorFlow):
  .venv/bin/python tests/models/make_eltwise_models.py
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compiler"))

from tflite_builder import ModelBuilder  # noqa: E402

_OPTIONS = {"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}


def _binary(b, kind, x, y, shape, q, name, act=0):
    out = b.tensor(name, shape, "int8", *q)
    opts = {"fusedActivationFunction": act} if kind in _OPTIONS else None
    b.op(kind, [x, y], out, opts)
    return out


def _const(b, rng, name, shape, q):
    return b.const(name, rng.integers(-128, 128, shape).astype(np.int8), "int8", *q)


def eltwise():
    rng = np.random.default_rng(1919)
    b = ModelBuilder("eltwise_int8")
    shape = [1, 48, 48, 32]
    x = b.input("x", shape, "int8", 0.04, -7)
    y = b.input("y", shape, "int8", 0.03, 11)
    t = _binary(b, "ADD", x, y, shape, (0.06, 3), "add")
    t = _binary(b, "SUB", t, x, shape, (0.05, -2), "sub")
    t = _binary(b, "ADD", t, _const(b, rng, "bias_c", [1, 1, 1, 32], (0.02, 5)), shape, (0.055, 1), "add_c")
    t = _binary(b, "MUL", t, y, shape, (0.08, -4), "mul")
    t = _binary(b, "MUL", t, _const(b, rng, "gain_s", [1, 1, 1, 1], (0.01, -9)), shape, (0.07, 2), "mul_s")
    t = _binary(b, "MUL", t, _const(b, rng, "gain_c", [1, 1, 1, 32], (0.012, 3)), shape, (0.06, -1), "mul_c")
    t = _binary(b, "MAXIMUM", t, y, shape, (0.06, -1), "max")
    t = _binary(b, "MINIMUM", t, x, shape, (0.06, -1), "min")
    t = _binary(b, "SQUARED_DIFFERENCE", t, y, shape, (0.2, -128), "sqd")
    b.output(t)
    return b


def _q(rng):
    """An int8 quantization drawn over several decades, zero points anywhere (the limits included)."""
    scale = float(10 ** rng.uniform(-3.5, 0.5))
    zp = int(rng.choice([-128, 127, 0, int(rng.integers(-128, 128))]))
    return scale, zp


def variants():
    rng = np.random.default_rng(2026)
    b = ModelBuilder("eltwise_variants_int8")
    outs = []
    # (h, w, c): word and byte tails, one below the MVE vector, one element.
    sizes = ((3, 5, 7), (2, 3, 17), (1, 1, 1), (4, 4, 16), (5, 3, 33))
    for i, (h, w, c) in enumerate(sizes):
        full = [1, h, w, c]
        qx, qy = _q(rng), _q(rng)
        x = b.input(f"x{i}", full, "int8", *qx)
        y = b.input(f"y{i}", full, "int8", *qy)
        for kind in ("ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE"):
            act = int(rng.choice([0, 0, 1, 3])) if kind in _OPTIONS else 0
            outs.append(_binary(b, kind, x, y, full, _q(rng), f"{kind.lower()}{i}", act))
        for kind in ("ADD", "SUB", "MUL"):
            for bshape in ([1, 1, 1, c], [1, 1, 1, 1], [1, 1, w, c]):
                k = _const(b, rng, f"{kind.lower()}{i}_k{len(outs)}", bshape, _q(rng))
                first = bool(rng.integers(0, 2))
                ops = (k, x) if first else (x, k)
                act = int(rng.choice([0, 1, 3]))
                outs.append(_binary(b, kind, *ops, full, _q(rng), f"{kind.lower()}{i}_b{len(outs)}", act))
    b.output(*outs)
    return b


def main():
    for make in (eltwise, variants):
        b = make()
        path = os.path.join(HERE, b._description + ".tflite")
        with open(path, "wb") as f:
            f.write(b.build())
        print(path)


if __name__ == "__main__":
    main()
