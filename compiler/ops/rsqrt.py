"""RSQRT: float32 (1 / sqrtf(x), aot/kernels/unary.h) and int8 as TFLite Micro computes it (crt/src/kernels/
rsqrt_s8.c: a fixed-point inverse square root of x - input zero point, rescaled by the multiplier of
1 / (sqrt(input_scale) * output_scale)).  TFLite Micro's RSQRT takes no int16.

An output rescaling whose final right shift would exceed 31 bits (TFLite Micro's C++ leaves such shifts undefined)
is refused with one paragraph naming the tensors and scales."""

import numpy as np

from ..errors import UnsupportedError
from ..quant_math import quantize_multiplier
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import unary_check

# Bits the reference keeps between its two rescalings (the inverse square root applied to 1 << 20).
EXTRA_BITS = 20


def rsqrt_multiplier(si: float, so: float) -> tuple[int, int]:
    """TFLite Micro's SetRsqrtOutputMultiplier: sqrt and product in float32, the reciprocal in double."""
    prod = np.float32(np.sqrt(np.float32(si), dtype=np.float32) * np.float32(so))
    return quantize_multiplier(1.0 / float(prod))


@register
class Rsqrt(OpLowering):
    builtins = ("RSQRT",)
    dtypes = ("float32", "int8")
    elementwise = True
    header = "aot/kernels/unary.h"

    def check(self, op):
        if unary_check(op, self.dtypes) == "int8":
            self._int8_params(op)

    def _int8_params(self, op):
        inp, out = op.input(0), op.output
        si, zi = inp.quant.scalar()
        so, zo = out.quant.scalar()
        mult, shift = rsqrt_multiplier(si, so)
        # At the 2^-12 boundary the float32 product can round onto 2^12 while the exact factor lies just below
        # 2^-12: the tflite-micro interpreter then takes the 32-bit shift (its output saturates for every input),
        # so a factor below 2^-12 in double is refused too.
        exact = 1.0 / (np.sqrt(float(np.float32(si))) * float(np.float32(so)))
        if mult != 0 and (shift - EXTRA_BITS < -31 or exact < 2.0**-12):
            raise UnsupportedError(
                f"Operator {op.index} (RSQRT) on int8 tensor '{inp.name}' (scale {si:.6g}) into '{out.name}' "
                f"(scale {so:.6g}): the output rescaling 1 / (sqrt(input_scale) * output_scale) = "
                f"{1.0 / (np.sqrt(si) * so):.6g} needs a right shift of {EXTRA_BITS - shift} bits, beyond the 31 "
                "that TFLite Micro's arithmetic defines; int8 RSQRT is supported when that factor is at least "
                "2^-12. Re-quantize the output with a smaller scale."
            )
        return dict(in_zp=zi, out_zp=zo, mult=mult, shift=shift)

    def prepare(self, op):
        p = dict(size=op.input(0).num_elements)
        if op.input(0).dtype == "int8":
            p.update(self._int8_params(op))
            op.kernel = "aot_rsqrt_s8"
        else:
            op.kernel = "aot_rsqrt_f32"
        op.params = p
        offer_table(op)

    def headers(self, op):
        return _lut_s8.headers(op, self.header)

    def emit(self, op, ctx):
        if _lut_s8.is_table(op):
            return _lut_s8.emit_table(op, ctx)
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]]
        if op.input(0).dtype == "int8":
            args += [p["in_zp"], p["out_zp"], p["mult"], p["shift"]]
        return [ctx.call(op.kernel, args)]
