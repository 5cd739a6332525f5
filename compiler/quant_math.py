"""Compile-time fixed-point quantization math with TFLite's exact rounding.

All helpers operate on Python floats (IEEE double, like the C++ `double` the
TFLite kernels use) so the multipliers and shifts are bit-identical to what
TFLite Micro computes in its Prepare() functions.
"""

import math

import numpy as np

from .errors import CompileError


class QuantRangeError(CompileError):
    """A rescaling factor the fixed-point kernels cannot represent (from degenerate quantization scales).

    Raised by the helpers below; passes/prepare_ops.py re-raises it naming the operator and its tensors' scales.
    """


def round_half_away(x: float) -> int:
    """std::round semantics (ties away from zero), exact for any double."""
    fl = math.floor(abs(x))
    frac = abs(x) - fl  # exact: subtracting the integer part loses nothing
    r = fl + 1 if frac >= 0.5 else fl
    return int(r if x >= 0 else -r)


def quantize_multiplier(real: float) -> tuple[int, int]:
    """TFLite QuantizeMultiplier: real ~= m * 2^(shift - 31), m in [2^30, 2^31)."""
    if real == 0.0:
        return 0, 0
    q, shift = math.frexp(real)
    q_fixed = round_half_away(q * float(1 << 31))
    assert q_fixed <= (1 << 31)
    if q_fixed == (1 << 31):
        q_fixed //= 2
        shift += 1
    if shift < -31:
        # Too small to represent: the reference flushes to zero.
        return 0, 0
    if shift > 31:
        # The kernels shift the input left by `shift` in 32 bits: beyond 31 that is undefined behaviour in C.
        raise QuantRangeError(
            f"the rescaling factor {real:.6g} is too large for a 32-bit fixed-point multiplier (at most 2^31)"
        )
    return int(q_fixed), int(shift)


def quantize_multiplier_smaller_than_one(real: float) -> tuple[int, int]:
    if not 0.0 < real < 1.0:
        raise QuantRangeError(f"the rescaling factor {real:.6g} must be between 0 and 1 (exclusive)")
    return quantize_multiplier(real)


def quantize_multiplier_greater_than_one(real: float) -> tuple[int, int]:
    if not real > 1.0:
        raise QuantRangeError(f"the rescaling factor {real:.6g} must be greater than 1")
    return quantize_multiplier(real)


def quantize_value_f32(value: float, scale: float, zero_point: int) -> int:
    """zero_point + round(value / scale) computed in float32 like TFLite."""
    q = np.float32(value) / np.float32(scale)
    return int(zero_point) + round_half_away(float(q))


def calculate_input_radius(input_integer_bits: int, input_left_shift: int, total_signed_bits: int = 31) -> int:
    """Largest input difference that does not saturate after rescaling."""
    max_input_rescaled = (
        1.0
        * ((1 << input_integer_bits) - 1)
        * float(1 << (total_signed_bits - input_integer_bits))
        / float(1 << input_left_shift)
    )
    return int(math.floor(max_input_rescaled))


# --- helpers for MEAN, LOGISTIC/TANH and HARD_SWISH ---------------------------------


def fold_count_into_multiplier(multiplier: int, shift: int, count: int) -> tuple[int, int]:
    """TFLite's QuantizedMeanOrSum: fold 1/count into (multiplier, shift).

    The multiplier is pre-scaled by 2^k (k = floor(log2(count)), capped at 32
    and so that the final shift stays >= -31) and divided by count with
    truncating integer division, exactly like the reference's int64 math.
    """
    if multiplier == 0 or count <= 0:
        return multiplier, shift
    k = min(count.bit_length() - 1, 32, 31 + shift)
    return (multiplier << k) // count, shift - k


def gemmlowp_input_rescale(input_scale: float, integer_bits: int = 4) -> tuple[int, int, int]:
    """(multiplier, left shift, input radius) of TFLM's int8 LOGISTIC/TANH Prepare.

    input_scale * 2^(31 - integer_bits) is split with frexp into a Q0.31
    multiplier and a left shift; inputs at least `radius` away from the zero
    point saturate the output.
    """
    real = float(np.float32(input_scale)) * float(1 << (31 - integer_bits))
    q, shift = math.frexp(real)
    mult = round_half_away(q * float(1 << 31))
    if mult == (1 << 31):  # cannot happen for float32 scales; keep the value representable
        mult //= 2
        shift += 1
    if not 0 <= shift <= 31:
        # A negative or over-wide left shift of the input has no fixed-point meaning (and is UB in the kernel).
        raise QuantRangeError(
            f"the input scale {float(input_scale):.6g} is outside the range its fixed-point "
            f"rescaling supports (2^-{32 - integer_bits} to 2^{integer_bits})"
        )
    return int(mult), int(shift), calculate_input_radius(integer_bits, shift)


def downscale_multiplier_to_int16(multiplier: int) -> int:
    """TFLite DownScaleInt32ToInt16Multiplier: Q0.31 -> Q0.15, rounding."""
    if multiplier >= (1 << 31) - 1 - (1 << 15):
        return (1 << 15) - 1
    return (multiplier + (1 << 15)) >> 16
