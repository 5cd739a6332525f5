"""`--qdq_exact`: Conv and Gemm / MatMul of a QDQ graph computed as onnxruntime computes the graph as written.

onnxruntime dequantizes, runs the float operator and quantizes the result once, rounding half to even; its value
is the exact integer product requantized once (checked: equal on every output of the example's first convolution).
The int8 kernels requantize in fixed point as TFLite Micro does, rounding twice (in the high multiply and in the
shift), which lands one step off wherever the two roundings straddle a boundary. With this option those layers
run as QLinearConv / QLinearMatMul already do: the integer product on float32 kernels with integer values (exact
while partial sums stay below 2^24, checked at compile time), then QUANTIZE_ONNX multiplies by
x_scale * w_scale / y_scale in double precision and rounds half to even. Slower than the int8 kernels.
Element-wise arithmetic (elementwise.py) falls back to its float operator between the DequantizeLinear and
QuantizeLinear nodes, which is the graph as written.
"""

import numpy as np

from .. import qdq_mode
from .quant import check_exact, quantize_onnx, requant_multiplier
from .values import QInfo


def enabled() -> bool:
    return qdq_mode.EXACT


def centered(ctx, t, name: str):
    """float32 tensor of (q - zero_point) for the int8 tensor t (exact integers)."""
    b = ctx.b
    zp = int(np.asarray(t.quant.zero_point).reshape(-1)[0])
    view = b.new_tensor(
        f"{name}:centered_q", t.shape, "int8", b.quant_params(QInfo(np.ones(1, np.float32), np.full(1, zp, np.int64)))
    )
    b.add_op("RESHAPE", [t], [view])
    f = b.new_tensor(f"{name}:centered", t.shape, "float32")
    b.add_op("DEQUANTIZE", [view], [f])
    return f


def check(ctx, weights_int, bias_int) -> None:
    """The float evaluation is exact for these integer weights and bias (else one paragraph)."""
    w = np.abs(np.asarray(weights_int, np.int64))
    check_exact(ctx, w.reshape(w.shape[0], -1).sum(axis=1), 0 if bias_int is None else np.abs(bias_int))


def requantize(ctx, acc, out_q: QInfo, layout: str, x_scale, w_scale, axis: int):
    """The float accumulators acc requantized once, half to even, into the int8 output value of the node."""
    mult = requant_multiplier(np.float32(x_scale), np.asarray(w_scale, np.float32), np.asarray(out_q.scale, np.float32))
    zps = np.full(mult.size, int(np.asarray(out_q.zero_point).reshape(-1)[0]))
    return quantize_onnx(ctx, acc, ctx.out_name(), out_q, layout, "multiply", mult, zps, axis)
