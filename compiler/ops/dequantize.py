"""DEQUANTIZE lowering: int8 / uint8 / int16 -> float32 (x = scale * (q - zero_point))."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_inputs, require_quant, require_same_shape

_KERNELS = {"int8": "aot_dequantize_s8_f32", "uint8": "aot_dequantize_u8_f32", "int16": "aot_dequantize_s16_f32"}


@register
class Dequantize(OpLowering):
    builtins = ("DEQUANTIZE",)
    dtypes = ("float32",)
    header = "aot/kernels/dequantize.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if inp.dtype not in _KERNELS:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' has type {inp.dtype}; "
                f"DEQUANTIZE is supported from {', '.join(_KERNELS)} to float32 only."
            )
        require_same_shape(op, inp, out)
        require_quant(op, inp, "input", int16_zero_point_ok=True)

    def prepare(self, op):
        scale, zp = op.input(0).quant.scalar()
        op.params = dict(size=op.output.num_elements, scale=scale, zp=zp)
        op.kernel = _KERNELS[op.input(0).dtype]

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"], ctx.f32(p["scale"]), p["zp"]])
        ]
