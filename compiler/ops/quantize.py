"""QUANTIZE lowering: float32 -> int8 and int8 -> int8 (requantization).

float32 -> int8 divides by the output scale and rounds in float, as TFLite's
AffineQuantize does; int8 -> int8 rescales by s_in / s_out with a
compile-time multiplier and shift (TFLite's Requantize).
"""

from ..errors import UnsupportedError
from ..quant_math import quantize_multiplier
from ._base import OpLowering, register
from ._common import require_inputs, require_quant, require_same_shape


@register
class Quantize(OpLowering):
    builtins = ("QUANTIZE",)
    elementwise = True
    dtypes = ("int8",)
    header = "aot/kernels/quantize.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if inp.dtype not in ("float32", "int8"):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' has type {inp.dtype}; "
                "QUANTIZE is supported from float32 or int8 to int8 only."
            )
        require_same_shape(op, inp, out)
        require_quant(op, out, "output")
        if inp.dtype == "int8":
            require_quant(op, inp, "input")

    def prepare(self, op):
        inp, out = op.input(0), op.output
        so, zo = out.quant.scalar()
        p = dict(size=out.num_elements, out_zp=zo)
        if inp.dtype == "float32":
            p.update(scale=so)
            op.kernel = "aot_quantize_f32_s8"
        else:
            si, zi = inp.quant.scalar()
            m, sh = quantize_multiplier(si / so)
            p.update(in_zp=zi, mult=m, shift=sh)
            op.kernel = "aot_requantize_s8"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]]
        if op.kernel == "aot_quantize_f32_s8":
            args += [ctx.f32(p["scale"]), p["out_zp"]]
        else:
            args += [p["in_zp"], p["mult"], p["shift"], p["out_zp"]]
        return [ctx.call(op.kernel, args)]
