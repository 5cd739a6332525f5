"""ELU (x < 0 ? exp(x) - 1 : x) in float32 and int8. The int8 form is TFLite Micro's: a 256-entry table built at
compile time by dequantizing each input value, applying the float function and requantizing with round half away
from zero, all in float32 as TFLite Micro does (exp rounded once to float32, as the C library's expf does)."""

import math

import numpy as np

from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import unary_check


def elu_table(in_scale: float, in_zp: int, out_scale: float, out_zp: int) -> np.ndarray:
    f32 = np.float32
    inv = f32(1) / f32(out_scale)
    table = np.zeros(256, np.int8)
    for v in range(-128, 128):
        x = f32(f32(in_scale) * f32(v - in_zp))
        y = f32(f32(math.exp(float(x))) - f32(1)) if x < 0 else x
        r = float(f32(y * inv))
        r = math.copysign(math.floor(abs(r) + 0.5), r)
        q = int(f32(f32(r) + f32(out_zp)))
        table[v & 0xFF] = max(-128, min(127, q))
    return table


@register
class Elu(OpLowering):
    builtins = ("ELU",)
    dtypes = ("float32", "int8")
    elementwise = True

    def check(self, op):
        super().check(op)
        unary_check(op, self.dtypes)

    def prepare(self, op):
        inp, out = op.input(0), op.output
        p = dict(size=inp.num_elements)
        if inp.dtype == "int8":
            (si, zi), (so, zo) = inp.quant.scalar(), out.quant.scalar()
            p["table"] = elu_table(si, zi, so, zo)
            op.kernel = "aot_lut_s8"
        else:
            op.kernel = "aot_elu_f32"
        op.params = p
        offer_table(op)

    def headers(self, op):
        return _lut_s8.headers(op, "aot/kernels/unary.h")

    def emit(self, op, ctx):
        if _lut_s8.is_table(op):
            return _lut_s8.emit_table(op, ctx)
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), op.params["size"]])]
