"""SOFTMAX lowering over the last dimension (int8 -> int8, int8 -> int16, float32).

int8 parameters follow TFLite: beta * input_scale is turned into a Q5.26
input multiplier plus left shift, and diff_min bounds differences whose exp
underflows; the output must have scale 1/256 and zero point -128 (int8) or, as TFLite Micro requires for an int16 output of an
int8 softmax, scale 1/65536 and zero point -32768.
"""

from ..errors import UnsupportedError
from ..quant_math import calculate_input_radius, quantize_multiplier_greater_than_one
from ._base import OpLowering, register
from ._common import require_inputs, require_quant, require_same_dtype

_SCALED_DIFF_INTEGER_BITS = 5


@register
class Softmax(OpLowering):
    builtins = ("SOFTMAX",)
    header = "aot/kernels/softmax.h"

    dtypes = ("int8", "int16", "float32")

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if inp.dtype == "int8" and out.dtype == "int16":
            require_quant(op, inp, "input")
            scale, zp = out.quant.scalar() if out.quant is not None else (None, None)
            if zp != -32768 or abs(scale - 1.0 / 65536) > 0.001 / 65536:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int16 output '{out.name}' of an int8 softmax has scale "
                    f"{scale} and zero point {zp}; TFLite requires scale 1/65536 and zero point -32768.")
            return
        dtype = require_same_dtype(op, inp, out)
        if dtype == "int16":
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): int16 input; SOFTMAX is supported for int8 "
                                   "input (int8 or int16 output) and float32.")
        if dtype == "int8":
            require_quant(op, inp, "input")
            qo = require_quant(op, out, "output")
            scale, zp = qo.scalar()
            if zp != -128 or abs(scale - 1.0 / 256) > 0.001 / 256:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int8 output '{out.name}' has scale "
                    f"{scale} and zero point {zp}; TFLite requires scale 1/256 and zero point -128."
                )

    def prepare(self, op):
        inp = op.input(0)
        depth = inp.shape[-1] if inp.shape else 1
        beta = float(op.options.get("Beta", 1.0))
        p = dict(outer=inp.num_elements // depth, depth=depth, beta=beta)
        if inp.dtype == "int8":
            in_scale = float(inp.quant.scale[0])
            real = min(beta * in_scale * float(1 << (31 - _SCALED_DIFF_INTEGER_BITS)),
                       float((1 << 31) - 1))
            if not real > 1.0:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): input '{inp.name}' has scale {in_scale:g} and beta "
                    f"{beta:g}; their product must exceed 2^-{31 - _SCALED_DIFF_INTEGER_BITS} for TFLite's int8 "
                    "softmax (TFLite Micro rejects such a model as well). The tensor's range is degenerate: "
                    "re-quantize the model with representative data.")
            mult, left = quantize_multiplier_greater_than_one(real)
            diff_min = -calculate_input_radius(_SCALED_DIFF_INTEGER_BITS, left)
            p.update(mult=mult, left=left, diff_min=diff_min)
            op.kernel = "aot_softmax_s8_s16" if op.output.dtype == "int16" else "aot_softmax_s8"
        else:
            op.kernel = "aot_softmax_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        if op.kernel != "aot_softmax_f32":
            args = [ctx.ptr(op.input(0)), p["outer"], p["depth"], p["mult"], p["left"],
                    p["diff_min"], ctx.ptr(op.output)]
        else:
            args = [ctx.ptr(op.input(0)), p["outer"], p["depth"], ctx.f32(p["beta"]),
                    ctx.ptr(op.output)]
        return [ctx.call(op.kernel, args)]
