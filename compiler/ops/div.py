"""DIV lowering with up to 4-D broadcasting: float32 (IEEE division) and int8 (TFLite Micro's quantized DIV).

int8 follows TFLite Micro's reference arithmetic as the `tflite_micro` interpreter (its x86-64 build) computes it,
bit for bit (crt/src/kernels/div_s8.c): the divisor's Newton-Raphson reciprocal, the dividend shifted up by its
headroom, then one rounding right shift by headroom + reciprocal exponent - output exponent.  Two details are not
what the C++ source says but what that build does, and the kernel matches them:
  - the multiplier input1_scale / (input2_scale * output_scale) is computed from the float32 scales in double
    precision (rounding it in float32 first changes ties, e.g. 0.05 / (0.1 * 0.02));
  - for small quotients the final shift reaches 32..63 bits, which C++ leaves undefined; x86-64 takes the count
    modulo 32 and the rounding mask becomes all ones.
Scales for which some input pair would need a shift below 0 or above 63 (where the build's behaviour changes
again) are refused with one paragraph naming the tensors and their scales.  A divisor equal to its zero point
(x / 0, which TFLite Micro's kernel asserts never happens) gives the same finite value as that build.
"""

import numpy as np

from ..errors import UnsupportedError
from ..quant_math import quantize_multiplier
from ._base import OpLowering, register
from .common.checks import (
    activation_range_f32,
    activation_range_quantized,
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    fused_activation,
    require_inputs,
    require_quant,
    require_same_dtype,
)

FIELDS = ("input1_zero_point", "input2_zero_point", "output_zero_point", "multiplier", "shift", "act_min", "act_max")


def _leading_sign_bits(v: int) -> int:
    """Redundant sign bits of an int32 (31 for 0 and -1), as the reference's CountLeadingSignBits."""
    u = ~v & 0xFFFFFFFF if v < 0 else v
    return 32 - u.bit_length() - 1


def shift_range(zp1: int, zp2: int, shift: int) -> tuple[int, int]:
    """(min, max) of the final right shift over every int8 dividend and divisor with these zero points."""
    dividends = [x - zp1 for x in range(-128, 128)]
    divisors = {abs(x - zp2) for x in range(-128, 128)}
    # The sign of the divisor moves to the dividend, so both signs of every dividend occur.
    headrooms = [_leading_sign_bits(s * v) for v in dividends for s in (1, -1)]
    recip_shifts = [d.bit_length() - 1 for d in divisors]  # -1 for a zero divisor
    return min(headrooms) + min(recip_shifts) - shift, max(headrooms) + max(recip_shifts) - shift


def div_s8_params(op, a, b, out) -> dict:
    """The kernel's constants, or UnsupportedError for scales outside the shifts the reference build defines."""
    s1, z1 = require_quant(op, a, "first input").scalar()
    s2, z2 = require_quant(op, b, "second input").scalar()
    so, zo = require_quant(op, out, "output").scalar()
    real = float(np.float32(s1)) / (float(np.float32(s2)) * float(np.float32(so)))
    mult, shift = quantize_multiplier(real)
    if mult != 0:
        lo, hi = shift_range(z1, z2, shift)
        if lo < 0 or hi > 63:
            raise UnsupportedError(
                f"Operator {op.index} (DIV) on int8 tensors '{a.name}' (scale {s1:.6g}, zero point {z1}) / "
                f"'{b.name}' (scale {s2:.6g}, zero point {z2}) into '{out.name}' (scale {so:.6g}, zero point "
                f"{zo}): the rescaling factor {real:.6g} makes TFLite Micro's final rounding shift range over "
                f"{lo}..{hi} bits for these zero points, and outside 0..63 bits that shift is undefined behaviour "
                "in its C++ (its result depends on the compiler); int8 DIV is supported when "
                "input1_scale / (input2_scale * output_scale) lies roughly between 2^-26 and 2^22. Re-quantize "
                "the output with a scale closer to the quotient's range."
            )
    act_min, act_max = activation_range_quantized(fused_activation(op), so, zo, "int8")
    return dict(
        input1_zero_point=z1,
        input2_zero_point=z2,
        output_zero_point=zo,
        multiplier=mult,
        shift=shift,
        act_min=act_min,
        act_max=act_max,
    )


@register
class Div(OpLowering):
    builtins = ("DIV",)
    dtypes = ("float32", "int8")
    elementwise = True
    header = "aot/kernels/div.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        dtype = require_same_dtype(op, a, b, out)
        fused_activation(op)
        broadcast_4d(op, a.shape, b.shape, out.shape)
        if dtype == "int8":
            div_s8_params(op, a, b, out)

    def prepare(self, op):
        a, b, out = op.input(0), op.input(1), op.output
        p = broadcast_params(op)
        if out.dtype == "int8":
            p["s8"] = div_s8_params(op, a, b, out)
            op.kernel = "aot_div_s8"
        else:
            p["act"] = activation_range_f32(fused_activation(op))
            op.kernel = "aot_div_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = broadcast_args(op, ctx, p)
        if op.output.dtype == "int8":
            args.append(
                ctx.param_struct(f"op{op.index}_div", "aot_div_s8_params", FIELDS, [p["s8"][k] for k in FIELDS])
            )
        else:
            args += [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])]
        return [ctx.call(op.kernel, args)]
