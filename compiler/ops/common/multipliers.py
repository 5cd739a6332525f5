"""Per-output-channel requantization multipliers of an int8 or int16x8 layer (TFLite's double math), shared by the
int8 convolutions (common/conv.py) and the int16x8 layers (common/int16.py)."""

import numpy as np

from ...errors import CompileError
from ...quant_math import quantize_multiplier


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
