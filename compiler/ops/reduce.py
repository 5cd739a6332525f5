"""SUM (float32), REDUCE_MAX and REDUCE_MIN (float32, int8, int16), REDUCE_ALL (bool) and REDUCE_PROD (float32:
TFLite's builtin, which TFLite Micro does not offer; the ONNX frontend's ReduceProd) over any constant set of axes,
up to 4-D.

The quantized max / min keep the stored values, so input and output must share one quantization (TFLite Micro
checks the same). The quantized SUM is TFLite Micro's integer QuantizedMeanOrSum without the 1/count: the
zero-point-corrected int32 sum requantized once by s_in / s_out, i.e. MEAN's kernel with the count left out of its
multiplier.
"""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from ..quant_math import quantize_multiplier
from .common.checks import require_inputs, require_quant, require_same_dtype, require_same_quant
from .common.reduce import check_reduced_shape, reduction_4d

_KERNELS = {
    "SUM": "aot_sum",
    "REDUCE_MAX": "aot_reduce_max",
    "REDUCE_MIN": "aot_reduce_min",
    "REDUCE_ALL": "aot_reduce_all",
    "REDUCE_PROD": "aot_reduce_prod",
}


@register
class Reduce(OpLowering):
    builtins = tuple(_KERNELS)
    dtypes = ("float32", "int8", "int16", "bool")
    header = "aot/kernels/reduce.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        inp, out = op.input(0), op.output
        dtype = require_same_dtype(op, inp, out)
        if op.kind == "SUM" and dtype in ("int8", "int16"):
            require_quant(op, inp, "input")
            require_quant(op, out, "output")
            count = inp.num_elements // max(out.num_elements, 1)
            if dtype == "int16" and count > 1 << 16:
                raise UnsupportedError(
                    f"Operator {op.index} (SUM): int16 sum over {count} values; at most 65536 "
                    "(TFLite's int32 accumulator must not overflow)."
                )
            check_reduced_shape(op)
            return
        if op.kind == "REDUCE_PROD" and dtype != "float32":
            raise UnsupportedError(
                f"Operator {op.index} (REDUCE_PROD) on {dtype} tensor '{inp.name}': REDUCE_PROD is supported for "
                "float32."
            )
        if (op.kind == "REDUCE_ALL") != (dtype == "bool"):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on {dtype} tensor '{inp.name}': REDUCE_ALL takes "
                "bool, SUM / REDUCE_MAX / REDUCE_MIN take float32, int8 and int16."
            )
        if dtype in ("int8", "int16"):
            require_same_quant(
                op,
                inp,
                out,
                "input",
                "output",
                f"Quantized {op.kind} keeps the stored values: input and output must share one "
                "quantization, as TFLite Micro requires.",
            )
        check_reduced_shape(op)

    def prepare(self, op):
        in_dims, reduced, _ = reduction_4d(op)
        if op.kind == "SUM" and op.input(0).dtype in ("int8", "int16"):
            (si, zi), (so, zo) = op.input(0).quant.scalar(), op.output.quant.scalar()
            m, sh = quantize_multiplier(si / so)
            op.kernel = "aot_mean_s8" if op.input(0).dtype == "int8" else "aot_mean_s16"
            op.params = dict(in_dims=in_dims, reduced=reduced, q=(-zi, m, sh, zo))
            return
        suffix = {"float32": "f32", "int8": "s8", "int16": "s16", "bool": "bool"}[op.input(0).dtype]
        op.kernel = f"{_KERNELS[op.kind]}_{suffix}"
        op.params = dict(in_dims=in_dims, reduced=reduced)

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    ctx.param(f"op{op.index}_in_dims", p["in_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_reduced", p["reduced"], "int32_t"),
                ]
                + list(p.get("q", ())),
            )
        ]

    def headers(self, op):
        return ["aot/kernels/mean.h" if "q" in op.params else self.header]  # SUM of int8/int16: the MEAN kernel
