"""TANH lowering (int8, int16, float32).

int8 follows TFLite Micro's reference kernel (gemmlowp fixed point, not
TFLite's float-built table): the input is rescaled to Q4.27 with a multiplier
and left shift computed here, inputs beyond the saturation radius are clamped,
and the output must use TFLite's fixed quantization (scale 1/128, zp 0).  That
arithmetic runs at compile time over the 256 int8 values into a lookup table
(common/lut_s8.py) when the kernel table picks one (32 values or more).
int16 interpolates in the 256-entry sigmoid table (aot/sigmoid_s16.h) after the
input rescaling of common/sigmoid_s16_rescale.py, as TFLite Micro's int16 kernel does.
"""

from ..quant_math import gemmlowp_input_rescale
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.sigmoid_s16_rescale import sigmoid_s16_rescale
from .common.checks import require_fixed_quant, unary_check


@register
class Tanh(OpLowering):
    builtins = ("TANH",)
    dtypes = ("int8", "int16", "float32")
    elementwise = True
    header = "aot/kernels/tanh.h"

    def check(self, op):
        super().check(op)
        dtype = unary_check(op, self.dtypes)
        if dtype == "int8":
            require_fixed_quant(op, op.output, "output", 1.0 / 128, 0, "1/128")
        elif dtype == "int16":
            sigmoid_s16_rescale(op, (0, 1))

    def prepare(self, op):
        inp = op.input(0)
        p = dict(size=inp.num_elements)
        if inp.dtype == "int8":
            scale, zp = inp.quant.scalar()
            mult, shift, radius = gemmlowp_input_rescale(scale, 4)
            p.update(zp=zp, radius=radius, mult=mult, shift=shift)
            op.kernel = "aot_tanh_s8"
        elif inp.dtype == "int16":
            mult, shift = sigmoid_s16_rescale(op, (0, 1))
            p.update(mult=mult, shift=shift)
            op.kernel = "aot_tanh_s16"
        else:
            op.kernel = "aot_tanh_f32"
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
            args += [p["zp"], p["radius"], p["mult"], p["shift"]]
        elif op.input(0).dtype == "int16":
            args += [p["mult"], p["shift"]]
        return [ctx.call(op.kernel, args)]
