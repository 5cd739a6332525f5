"""Input rescaling of the int16 LOGISTIC and TANH kernels (aot/sigmoid_s16.h), computed as TFLite Micro does.

The table kernels read their input as Q3.12 times 3 (the table spans +-10.7 rather than +-8). A power-of-two input
scale that already is Q3.12 (or, for TANH, Q4.11) becomes the multiplier 3 (6) with no shift; any other scale gets a
15-bit multiplier scale * 4096 * 3, doubled with one more right shift while it stays at or below 32767 / 2. Both
tensors must be symmetric and the output scale 2^-15. The kernels take the resolved (multiplier, shift) pair, so
the power-of-two case costs nothing at run time.
"""

import math

import numpy as np

from ...errors import UnsupportedError

_INPUT_INTEGER_BITS = 3
_OUTPUT_FRACTION_BITS = 15


def _checked_log2(x: float):
    """(rounded log2, whether x is a power of two to TFLite's 1e-3 tolerance), in float32 like TFLite."""
    l2 = np.float32(math.log(np.float32(x))) * np.float32(1.0 / math.log(2.0))
    rounded = np.float32(math.floor(float(l2) + 0.5)) if l2 >= 0 else np.float32(-math.floor(-float(l2) + 0.5))
    return int(rounded), abs(float(np.float32(l2 - rounded))) < 1e-3


def sigmoid_s16_rescale(op, pot_shifts) -> tuple:
    """(multiplier, right shift) for an int16 LOGISTIC (pot_shifts (0,)) or TANH (pot_shifts (0, 1)) operator.
    UnsupportedError when the output scale is not 2^-15 or the input scale is too large for the 15-bit multiplier."""
    inp, out = op.input(0), op.output
    in_scale, _ = inp.quant.scalar()
    out_scale, _ = out.quant.scalar()
    out_log2, out_pot = _checked_log2(out_scale)
    if not out_pot or out_log2 != -_OUTPUT_FRACTION_BITS:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): int16 output '{out.name}' has scale {out_scale:.9g}; TFLite's int16 "
            f"{op.kind} requires the output scale 2^-15 (1/32768) with zero point 0."
        )
    in_log2, pot = _checked_log2(in_scale)
    left_shift = (15 - _INPUT_INTEGER_BITS) + in_log2
    if pot and left_shift in pot_shifts:
        return 3 << left_shift, 0
    multiplier = float(np.float32(in_scale)) * 4096.0 * 3.0
    shift = 0
    while multiplier <= 32767.0 / 2.0 and shift <= 30:
        shift += 1
        multiplier *= 2.0
    if multiplier > 32767.0:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): int16 input '{inp.name}' has scale {in_scale:.9g}; TFLite's int16 "
            f"{op.kind} takes input scales up to {32767 / 12288:.6g} (a 15-bit input multiplier)."
        )
    return int(multiplier), shift
