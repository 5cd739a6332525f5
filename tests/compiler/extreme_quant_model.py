"""Int8 layers whose per-channel quantization is drawn to be extreme (tests/compiler/test_extreme_quant.py and
tests/models/make_extreme_quant.py).

Per output channel the effective scale in * filter / out is drawn from: ordinary (2^-12..2^-7), near-dead
(2^-31..2^-23: right shifts past 22), dead (below 2^-32: multiplier 0), and near-dead channels whose bias puts
the output on a step between two values; biases near the int32 limits (a dead channel's float bias divided by its
tiny scale) or ordinary.  With left_shifts, every third channel has an effective scale of 0.5..2.8 (shift >= 0).
"""

import numpy as np

IN_SCALE, OUT_SCALE = 0.05, 0.2


def _effective_scales(rng, n, left_shifts):
    """Per channel (effective scale, at an output step)."""
    kind = rng.integers(0, 5, n)
    e = np.where(
        kind == 0,
        2.0 ** rng.uniform(-12, -7, n),
        np.where(
            kind == 1,
            2.0 ** rng.uniform(-31, -23, n),
            np.where(kind == 2, 2.0 ** rng.uniform(-40, -33, n), 2.0 ** rng.uniform(-28, -24, n)),
        ),
    )
    if left_shifts:
        e[::3] = 2.0 ** rng.uniform(-1, 1.5, len(e[::3]))
    return e, (kind == 4) & (e < 2.0**-20)


def add_layer(b, x, kind, k, oc, rng, out_zp, act, left_shifts=False, in_scale=IN_SCALE, out_scale=OUT_SCALE, name="l"):
    """Appends CONV_2D (k x k, SAME), DEPTHWISE_CONV_2D (k x k, multiplier 1) or FULLY_CONNECTED reading x;
    returns its output tensor."""
    eff, edge = _effective_scales(rng, oc, left_shifts)
    ws = eff * out_scale / in_scale
    if kind == "FULLY_CONNECTED":
        fshape, axis, taps = (oc, x.shape[-1]), 0, x.shape[-1]
    elif kind == "CONV_2D":
        fshape, axis, taps = (oc, k, k, x.shape[3]), 0, k * k * x.shape[3]
    else:
        fshape, axis, taps = (1, k, k, oc), 3, k * k
    wts = rng.integers(-127, 128, size=fshape).astype(np.int8)
    limit = (1 << 31) - 1 - 128 * 127 * taps
    big = rng.random(oc) < 0.4
    bias = np.where(big, rng.integers(-limit, limit + 1, oc), rng.integers(-3000, 3000, oc))
    edge_bias = np.round(rng.choice([-0.5, 0.5], oc) / eff) + rng.integers(-2000, 2000, oc)
    bias = np.where(edge, np.clip(edge_bias, -limit, limit), bias).astype(np.int32)
    wt = b.const(f"{name}_w", wts, "int8", ws, 0, quantized_dimension=axis)
    bt = b.const(f"{name}_b", bias, "int32", np.float32(in_scale) * ws.astype(np.float32), 0, quantized_dimension=0)
    if kind == "FULLY_CONNECTED":
        rows = int(np.prod(x.shape[:-1]))
        y = b.tensor(f"{name}_y", [rows, oc], "int8", out_scale, out_zp)
        b.op(kind, [x, wt, bt], y, {"fusedActivationFunction": act})
    else:
        n, h, w, _ = x.shape
        y = b.tensor(f"{name}_y", [n, h, w, oc], "int8", out_scale, out_zp)
        opts = {
            "padding": 0,
            "strideH": 1,
            "strideW": 1,
            "fusedActivationFunction": act,
            "dilationHFactor": 1,
            "dilationWFactor": 1,
        }
        if kind == "DEPTHWISE_CONV_2D":
            opts["depthMultiplier"] = 1
        b.op(kind, [x, wt, bt], y, opts)
    return y
