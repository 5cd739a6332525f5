"""SOFTMAX lowering over the last dimension (int8 -> int8, int8 -> int16, int16 -> int16, float32).

int8 parameters follow TFLite: beta * input_scale is turned into a Q5.26
input multiplier plus left shift, and diff_min bounds differences whose exp
underflows; the output must have scale 1/256 and zero point -128 (int16 output
of an int8 input: scale 1/65536, zero point -32768, TFLite's one asymmetric int16).
int16 follows TFLite's table scheme: beta * input_scale / (10 / 65535) as a
multiplier and shift (differences of [-65535, 0] span exp's table range
[-10, 0]), the exp and 1 / (1 + x) tables (common/lut_int16.py) as constants; the
output must have scale 1/32768 and zero point 0.
"""

from ..errors import UnsupportedError
from ..quant_math import calculate_input_radius, quantize_multiplier, quantize_multiplier_greater_than_one
from ._base import OpLowering, register
from .common.lut_int16 import softmax_luts
from .common.checks import require_inputs, require_quant, require_same_dtype

_SCALED_DIFF_INTEGER_BITS = 5


@register
class Softmax(OpLowering):
    builtins = ("SOFTMAX",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/softmax.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if (inp.dtype, out.dtype) == ("int8", "int16"):
            require_quant(op, inp, "input")
            scale, zp = require_quant(op, out, "output", int16_zero_point_ok=True).scalar()
            if zp != -32768 or abs(scale - 1.0 / 65536) > 0.001 / 65536:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int16 output '{out.name}' of an int8 input has scale "
                    f"{scale} and zero point {zp}; TFLite requires scale 1/65536 and zero point -32768."
                )
            return
        dtype = require_same_dtype(op, inp, out)
        if dtype == "int8":
            require_quant(op, inp, "input")
            qo = require_quant(op, out, "output")
            scale, zp = qo.scalar()
            if zp != -128 or abs(scale - 1.0 / 256) > 0.001 / 256:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int8 output '{out.name}' has scale "
                    f"{scale} and zero point {zp}; TFLite requires scale 1/256 and zero point -128."
                )
        if dtype == "int16":
            require_quant(op, inp, "input")
            scale, _ = require_quant(op, out, "output").scalar()
            if abs(scale - 1.0 / 32768) > 0.001 / 32768:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int16 output '{out.name}' has scale {scale}; TFLite "
                    "requires scale 1/32768 and zero point 0."
                )
            depth = int(inp.shape[-1]) if inp.shape else 1
            if depth > 1 << 16:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int16 softmax over {depth} values; at most 65536 per row "
                    "(the sum of the row's exps must fit 32 bits, as in TFLite)."
                )

    def prepare(self, op):
        inp = op.input(0)
        depth = inp.shape[-1] if inp.shape else 1
        beta = float(op.options.get("Beta", 1.0))
        p = dict(outer=inp.num_elements // depth, depth=depth, beta=beta)
        if inp.dtype == "int8":
            in_scale = float(inp.quant.scale[0])
            real = min(beta * in_scale * float(1 << (31 - _SCALED_DIFF_INTEGER_BITS)), float((1 << 31) - 1))
            if not real > 1.0:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): input '{inp.name}' has scale {in_scale:g} and beta "
                    f"{beta:g}; their product must exceed 2^-{31 - _SCALED_DIFF_INTEGER_BITS} for TFLite's int8 "
                    "softmax (TFLite Micro rejects such a model as well). The tensor's range is degenerate: "
                    "re-quantize the model with representative data."
                )
            mult, left = quantize_multiplier_greater_than_one(real)
            diff_min = -calculate_input_radius(_SCALED_DIFF_INTEGER_BITS, left)
            p.update(mult=mult, left=left, diff_min=diff_min)
            op.kernel = "aot_softmax_s8" if op.output.dtype == "int8" else "aot_softmax_s8_s16"
        elif inp.dtype == "int16":
            mult, shift = quantize_multiplier(float(inp.quant.scale[0]) * beta / (10.0 / 65535.0))
            p.update(mult=mult, shift=shift, luts=softmax_luts())
            op.kernel = "aot_softmax_s16"
        else:
            op.kernel = "aot_softmax_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        if op.input(0).dtype == "int8":
            args = [
                ctx.ptr(op.input(0)),
                p["outer"],
                p["depth"],
                p["mult"],
                p["left"],
                p["diff_min"],
                ctx.ptr(op.output),
            ]
        elif op.input(0).dtype == "int16":
            exp_lut, recip_lut = p["luts"]
            args = [
                ctx.ptr(op.input(0)),
                p["outer"],
                p["depth"],
                p["mult"],
                p["shift"],
                ctx.param("softmax_exp_lut", exp_lut, "int16_t"),
                ctx.param("softmax_recip_lut", recip_lut, "int16_t"),
                ctx.ptr(op.output),
            ]
        else:
            args = [ctx.ptr(op.input(0)), p["outer"], p["depth"], ctx.f32(p["beta"]), ctx.ptr(op.output)]
        return [ctx.call(op.kernel, args)]
