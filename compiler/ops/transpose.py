"""TRANSPOSE lowering: a constant permutation of up to 6 dimensions, any element type (data only moves).

The kernel is the shared strided copy: for output dimension d the input step is the input stride of the
permuted axis perm[d], so one dense pass over the output does the whole permutation.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype

MAX_RANK = 6


def row_major_strides(shape) -> list:
    strides, acc = [0] * len(shape), 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = acc
        acc *= int(shape[i])
    return strides


def pad_view(dims: list, strides: list) -> tuple:
    """Left-pad a view to the kernel's fixed 6 dimensions (size 1, step 0)."""
    pad = MAX_RANK - len(dims)
    return (
        np.array([1] * pad + [int(d) for d in dims], np.int32),
        np.array([0] * pad + [int(s) for s in strides], np.int32),
    )


def emit_strided_copy(op, ctx, start: int = 0) -> list:
    p = op.params
    return [
        ctx.call(
            "aot_strided_copy",
            [
                ctx.ptr(op.input(0)),
                ctx.ptr(op.output),
                DTYPES[op.output.dtype].size,
                ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
                ctx.param(f"op{op.index}_steps", p["steps"], "int32_t"),
                start,
            ],
        )
    ]


@register
class Transpose(OpLowering):
    builtins = ("TRANSPOSE",)
    dtypes = ("int8", "int16", "float32", "int32")
    header = "aot/kernels/strided_copy.h"

    def _perm(self, op) -> list:
        inp = op.input(0)
        perm = [int(v) for v in const_int_array(op, op.input(1), "the permutation").reshape(-1)]
        rank = len(inp.shape)
        if sorted(perm) != list(range(rank)):
            raise CompileError(
                f"Operator {op.index} ({op.kind}): permutation {perm} is not a permutation of the "
                f"{rank} dimensions of input '{inp.name}'."
            )
        return perm

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        inp, out = op.input(0), op.output
        require_same_dtype(op, inp, out)
        if len(inp.shape) > MAX_RANK:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' has rank "
                f"{len(inp.shape)}; TRANSPOSE is supported up to {MAX_RANK}-D."
            )
        perm = self._perm(op)
        if [int(inp.shape[a]) for a in perm] != [int(d) for d in out.shape]:
            raise CompileError(
                f"Operator {op.index} ({op.kind}): output '{out.name}' has shape "
                f"{list(out.shape)}; permuting {list(inp.shape)} by {perm} gives another shape."
            )
        if (
            inp.dtype != "float32"
            and inp.quant is not None
            and out.quant is not None
            and inp.quant.scalar() != out.quant.scalar()
        ):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): {inp.dtype} input and output are quantized "
                "differently; TRANSPOSE moves values without rescaling."
            )

    def prepare(self, op):
        inp = op.input(0)
        perm = self._perm(op)
        strides = row_major_strides(inp.shape)
        dims, steps = pad_view([inp.shape[a] for a in perm], [strides[a] for a in perm])
        op.params = dict(dims=dims, steps=steps)
        op.kernel = "aot_strided_copy"

    def emit(self, op, ctx):
        return emit_strided_copy(op, ctx)
