"""DEQUANTIZE lowering: int8 -> float32 (x = scale * (q - zero_point))."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from ._common import require_inputs, require_quant, require_same_shape


@register
class Dequantize(OpLowering):
    builtins = ("DEQUANTIZE",)
    dtypes = ("float32",)
    header = "aot/kernels/dequantize.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if inp.dtype != "int8":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' has type {inp.dtype}; "
                "DEQUANTIZE is supported from int8 to float32 only."
            )
        require_same_shape(op, inp, out)
        require_quant(op, inp, "input")

    def prepare(self, op):
        scale, zp = op.input(0).quant.scalar()
        op.params = dict(size=op.output.num_elements, scale=scale, zp=zp)
        op.kernel = "aot_dequantize_s8_f32"

    def emit(self, op, ctx):
        p = op.params
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"],
                                     ctx.f32(p["scale"]), p["zp"]])]
