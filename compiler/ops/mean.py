"""MEAN lowering over any constant set of axes, up to 4-D (int8, int16, float32).

int8 and int16 match TFLite Micro's integer QuantizedMeanOrSum: the sum of
(q - zp_in) is requantized once with a multiplier for s_in / s_out that has
1/count folded in at compile time.  keep_dims only changes the declared
output shape, never the row-major layout, so it needs no code.
"""

from ..errors import UnsupportedError
from ..quant_math import fold_count_into_multiplier, quantize_multiplier
from ._base import OpLowering, register
from .common.checks import require_inputs, require_quant, require_same_dtype
from .common.reduce import check_reduced_shape, reduction_4d


@register
class Mean(OpLowering):
    builtins = ("MEAN",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/mean.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        inp, out = op.input(0), op.output
        dtype = require_same_dtype(op, inp, out)
        check_reduced_shape(op)
        if dtype != "float32":
            require_quant(op, inp, "input")
            require_quant(op, out, "output")
            count = inp.num_elements // max(out.num_elements, 1)
            if dtype == "int16" and count > 1 << 16:
                raise UnsupportedError(
                    f"Operator {op.index} ({op.kind}): int16 mean over {count} values; at most 65536 (the int32 "
                    "sum of TFLite's kernel must not overflow)."
                )

    def prepare(self, op):
        inp, out = op.input(0), op.output
        in_dims, reduced, count = reduction_4d(op)
        p = dict(in_dims=in_dims, reduced=reduced)
        if inp.dtype != "float32":
            si, zi = inp.quant.scalar()
            so, zo = out.quant.scalar()
            m, sh = fold_count_into_multiplier(*quantize_multiplier(si / so), count)
            p.update(in_off=-zi, mult=m, shift=sh, out_off=zo)
            op.kernel = "aot_mean_s8" if inp.dtype == "int8" else "aot_mean_s16"
        else:
            op.kernel = "aot_mean_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        args = [
            ctx.ptr(op.input(0)),
            ctx.ptr(op.output),
            ctx.param(f"op{op.index}_in_dims", p["in_dims"], "int32_t"),
            ctx.param(f"op{op.index}_reduced", p["reduced"], "int32_t"),
        ]
        if op.input(0).dtype != "float32":
            args += [p["in_off"], p["mult"], p["shift"], p["out_off"]]
        return [ctx.call(op.kernel, args)]
