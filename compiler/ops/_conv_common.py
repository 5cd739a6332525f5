"""Shared int8 convolution parameter computation (conv, depthwise, fully connected)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..passes.fold_zero_point import fold_input_offset
from ..quant_math import quantize_multiplier
from ._common import require_quant


def check_int8_weights(op, inp, filt, bias, out, channel_axis: int):
    require_quant(op, inp, "input")
    require_quant(op, out, "output")
    fq = require_quant(op, filt, "filter", per_channel_ok=True)
    if filt.dtype != "int8":
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' is {filt.dtype}; int8 "
            "operators need int8 filters (int4/int16 weights are not supported)."
        )
    if np.any(fq.zero_point != 0):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' has non-zero zero points; "
            "only symmetric int8 weights (zero_point 0) are supported."
        )
    if fq.per_channel and fq.axis != channel_axis:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' is quantized along axis "
            f"{fq.axis}; per-channel quantization must be along the output channel axis "
            f"{channel_axis}."
        )
    if bias is not None and bias.dtype != "int32":
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): bias '{bias.name}' is {bias.dtype}; int8 "
            "operators need int32 biases."
        )


def channel_multipliers(op, inp, filt, out, channels: int):
    """Per-output-channel (multiplier, shift) arrays, TFLite double math."""
    in_s = float(inp.quant.scale[0])
    out_s = float(out.quant.scale[0])
    fs = filt.quant.scale
    if len(fs) not in (1, channels):
        raise CompileError(
            f"Operator {op.index} ({op.kind}): filter '{filt.name}' has {len(fs)} scales for "
            f"{channels} output channels."
        )
    mults, shifts = [], []
    for c in range(channels):
        f_s = float(fs[c if len(fs) > 1 else 0])
        m, s = quantize_multiplier(in_s * f_s / out_s)
        mults.append(m)
        shifts.append(s)
    return np.array(mults, np.int32), np.array(shifts, np.int32)


def int8_bias(bias, channels: int):
    if bias is None:
        return np.zeros(channels, np.int32)
    return bias.data.astype(np.int32).reshape(channels)


def maybe_fold(weights_by_channel, bias_arr, input_zero_point: int, can_fold: bool):
    """Fold -zp * sum(w) into the bias when every tap is always in bounds."""
    input_offset = -int(input_zero_point)
    if can_fold and input_offset != 0:
        try:
            return fold_input_offset(weights_by_channel, bias_arr, input_offset), 0, True
        except OverflowError:
            pass  # keep the exact unfolded form rather than wrap around
    return bias_arr, input_offset, False
