"""Element-wise unary math: ABS, NEG, SQRT, EXP, LOG, SQUARE, SIN, COS, FLOOR, CEIL, ROUND, and ERF and
SOFTPLUS (float32 kinds only the ONNX frontend produces: Erf, Softplus, Gelu).

TFLite Micro's reference kernels take these in float32 only, except ABS (also int8 and int16, quantized: the
magnitude rescaled from the input to the output scale when they differ) — so do we. RSQRT, which TFLite Micro
also runs in int8, has its own module (rsqrt.py). The float kernels are one loop each over the C library function
(aot/kernels/unary.h).
"""

import numpy as np

from ..quant_math import quantize_multiplier
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import unary_check

FLOAT_ONLY = ("NEG", "SQRT", "EXP", "LOG", "SQUARE", "SIN", "COS", "FLOOR", "CEIL", "ROUND", "ERF", "SOFTPLUS")


@register
class UnaryMath(OpLowering):
    builtins = ("ABS",) + FLOAT_ONLY
    dtypes = ("int8", "int16", "float32")
    elementwise = True
    header = "aot/kernels/unary.h"

    def check(self, op):
        allowed = self.dtypes if op.kind == "ABS" else ("float32",)
        unary_check(op, allowed)

    def prepare(self, op):
        inp, out = op.input(0), op.output
        p = dict(size=inp.num_elements)
        if inp.dtype == "float32":
            op.kernel = f"aot_{op.kind.lower()}_f32"
        else:
            si, zi = inp.quant.scalar()
            so, zo = out.quant.scalar()
            rescale = np.float32(si) != np.float32(so)
            m, sh = quantize_multiplier(float(np.float32(np.float32(si) / np.float32(so)))) if rescale else (0, 0)
            p.update(in_zp=zi, out_zp=zo, rescale=int(rescale), mult=m, shift=sh)
            op.kernel = "aot_abs_s8" if inp.dtype == "int8" else "aot_abs_s16"
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
            args += [p["in_zp"], p["out_zp"], p["rescale"], p["mult"], p["shift"]]
        elif op.input(0).dtype == "int16":
            args += [p["rescale"], p["mult"], p["shift"]]
        return [ctx.call(op.kernel, args)]
