"""SELECT_V2: output = condition ? x : y, all three broadcast to the
output, for float32, int8, int16 and int32 as TFLite Micro takes them. Quantized x, y and output must share one
quantization (TFLite Micro copies the stored values)."""

import numpy as np

from ..errors import UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import require_inputs, require_same_dtype, require_same_quant, shape_4d


def _strides(op, shape, out):
    s, o = shape_4d(op, shape, "operand"), shape_4d(op, out, "output")
    st, acc = [0] * 4, 1
    for i in range(3, -1, -1):
        if s[i] != 1 and s[i] != o[i]:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): operand shape {list(shape)} does not "
                f"broadcast to the output shape {list(out)}."
            )
        st[i] = acc if s[i] != 1 else 0
        acc *= s[i]
    return st


@register
class SelectV2(OpLowering):
    builtins = ("SELECT_V2",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/compare.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 3)
        cond, x, y, out = op.input(0), op.input(1), op.input(2), op.output
        if cond.dtype != "bool":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): condition '{cond.name}' has type {cond.dtype}; it must be bool."
            )
        dtype = require_same_dtype(op, x, y, out)
        if dtype in ("int8", "int16"):
            require_same_quant(
                op,
                x,
                out,
                "x",
                "output",
                f"{op.kind} copies stored values: x, y and the output must share one quantization.",
            )
            require_same_quant(
                op,
                y,
                out,
                "y",
                "output",
                f"{op.kind} copies stored values: x, y and the output must share one quantization.",
            )
        for t in (cond, x, y):
            _strides(op, t.shape, out.shape)

    def prepare(self, op):
        out = op.output
        op.kernel = "aot_select"
        op.params = dict(
            size=DTYPES[out.dtype].size,
            dims=np.array(shape_4d(op, out.shape, "output"), np.int32),
            st=[np.array(_strides(op, op.input(i).shape, out.shape), np.int32) for i in range(3)],
        )

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.input(1)),
                    ctx.ptr(op.input(2)),
                    ctx.ptr(op.output),
                    p["size"],
                    ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
                ]
                + [ctx.param(f"op{op.index}_strides{i}", p["st"][i], "int32_t") for i in range(3)],
            )
        ]
