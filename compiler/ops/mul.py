"""MUL lowering with broadcasting (int8, int16, float32).

int8 and int16 (zero points 0) follow TFLite: both inputs are offset by their zero points, multiplied
in int32 and requantized once with the multiplier for s1 * s2 / s_out, then
offset and clamped to the fused activation range.  For int8, when the short form of that requantization is proved
exact (common/mul_s8_fast.py) and the operands broadcast as one row loop (common/checks.rows_form), the kernel table
picks the row kernels (aot_mul_s8_rows_mve on Helium, aot_mul_s8_rows on the DSP cores); otherwise the 4-D walker.
"""

from ..quant_math import quantize_multiplier
from .common import mul_s8_fast as _mul_s8_fast
from ._base import OpLowering, register
from .common.checks import (
    activation_range_f32,
    activation_range_quantized,
    broadcast_4d,
    broadcast_args,
    broadcast_params,
    rows_form,
    fused_activation,
    require_inputs,
    require_quant,
    require_same_dtype,
)
from .common.kernel import own_emit
from .kernel_table import Layer, select


@register
class Mul(OpLowering):
    builtins = ("MUL",)
    dtypes = ("int8", "int16", "float32")
    elementwise = True
    header = "aot/kernels/mul.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        a, b, out = op.input(0), op.input(1), op.output
        dtype = require_same_dtype(op, a, b, out)
        fused_activation(op)
        broadcast_4d(op, a.shape, b.shape, out.shape)
        if dtype != "float32":
            for t, what in ((a, "first input"), (b, "second input"), (out, "output")):
                require_quant(op, t, what)

    def prepare(self, op):
        a, b, out = op.input(0), op.input(1), op.output
        act = fused_activation(op)
        p = broadcast_params(op)
        if out.dtype != "float32":
            s1, z1 = a.quant.scalar()
            s2, z2 = b.quant.scalar()
            so, zo = out.quant.scalar()
            # Same evaluation order as TFLite's Prepare (in double).
            mo, sho = quantize_multiplier(s1 * s2 / so)
            p.update(
                off1=-z1, off2=-z2, mo=mo, sho=sho, out_off=zo, act=activation_range_quantized(act, so, zo, out.dtype)
            )
            if out.dtype == "int8":
                p["short"] = _mul_s8_fast.short_params(z1, z2, zo, mo, sho, p["act"])
                p["rows"] = rows_form(p)
                select(op, p, Layer())
                return
            op.kernel = "aot_mul_s16"
        else:
            p.update(act=activation_range_f32(act))
            op.kernel = "aot_mul_f32"
        op.params = p

    def emit(self, op, ctx):
        emit = own_emit(op)
        if emit is not None:
            return emit(op, ctx)  # the int8 row kernels (ops/kernels/elementwise.py)
        p = op.params
        args = broadcast_args(op, ctx, p)
        if op.output.dtype != "float32":
            args += [p["off1"], p["off2"], p["mo"], p["sho"], p["out_off"], p["act"][0], p["act"][1]]
        else:
            args += [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])]
        return [ctx.call(op.kernel, args)]
