"""LOGISTIC lowering (int8, float32).

int8 follows TFLite Micro's reference kernel (gemmlowp fixed point, not a
lookup table): the input is rescaled to Q4.27 with a multiplier and left
shift computed here, inputs beyond the saturation radius are clamped, and
the output must use TFLite's fixed quantization (scale 1/256, zp -128).
"""

from ..quant_math import gemmlowp_input_rescale
from ._base import OpLowering, register
from ._common import require_fixed_quant, unary_check


@register
class Logistic(OpLowering):
    builtins = ("LOGISTIC",)
    elementwise = True
    header = "aot/kernels/logistic.h"

    def check(self, op):
        super().check(op)
        if unary_check(op) == "int8":
            require_fixed_quant(op, op.output, "output", 1.0 / 256, -128, "1/256")

    def prepare(self, op):
        inp = op.input(0)
        p = dict(size=inp.num_elements)
        if inp.dtype == "int8":
            scale, zp = inp.quant.scalar()
            mult, shift, radius = gemmlowp_input_rescale(scale, 4)
            p.update(zp=zp, radius=radius, mult=mult, shift=shift)
            op.kernel = "aot_logistic_s8"
        else:
            op.kernel = "aot_logistic_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]]
        if op.kernel == "aot_logistic_s8":
            args += [p["zp"], p["radius"], p["mult"], p["shift"]]
        return [ctx.call(op.kernel, args)]
