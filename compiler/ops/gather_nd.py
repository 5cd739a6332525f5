"""GATHER_ND with constant indices: indices [..., k] pick slices of the input's trailing dimensions, so the op is a
GATHER of the input seen as [prod(shape[:k]), prod(shape[k:])] with each index row flattened at compile time
(aot/kernels/gather.h). Out-of-range indices fail the build (TFLite Micro fails the invocation)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_same_dtype


def _flat(op):
    x = op.input(0)
    shape = [int(d) for d in x.shape]
    idx = const_int_array(op, op.input(1), "indices")
    k = int(idx.shape[-1]) if idx.ndim else 0
    if idx.ndim < 1 or not 1 <= k <= len(shape):
        raise CompileError(
            f"Operator {op.index} (GATHER_ND): indices of shape {list(idx.shape)} for an input of rank {len(shape)}."
        )
    rows = idx.reshape(-1, k)
    if np.any(rows < 0) or np.any(rows >= np.array(shape[:k])):
        raise CompileError(f"Operator {op.index} (GATHER_ND): an index is outside the input shape {shape}.")
    mult = np.array([int(np.prod(shape[j + 1 : k])) for j in range(k)], np.int64)
    flat = (rows.astype(np.int64) * mult).sum(axis=1).astype(np.int32)
    return flat, int(np.prod(shape[:k])), int(np.prod(shape[k:])), list(idx.shape[:-1]) + shape[k:]


@register
class GatherNd(OpLowering):
    builtins = ("GATHER_ND",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/gather.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        require_same_dtype(op, op.input(0), op.output)
        if op.input(1).data is None:
            raise UnsupportedError(
                f"Operator {op.index} (GATHER_ND): indices '{op.input(1).name}' are computed at "
                "run time; only constant indices are supported."
            )
        _, _, _, want = _flat(op)
        if want != [int(d) for d in op.output.shape]:
            raise CompileError(
                f"Operator {op.index} (GATHER_ND): output '{op.output.name}' has shape "
                f"{list(op.output.shape)}; expected {want}."
            )

    def prepare(self, op):
        flat, n, inner, _ = _flat(op)
        op.kernel = "aot_gather"
        op.params = dict(idx=flat, n=n, inner=inner)

    def emit(self, op, ctx):
        p = op.params
        if op.output.num_elements == 0:
            return []
        return [
            ctx.call(
                "aot_gather",
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    DTYPES[op.output.dtype].size,
                    1,
                    p["n"],
                    p["inner"],
                    ctx.param(f"op{op.index}_indices", p["idx"], "int32_t"),
                    len(p["idx"]),
                ],
            )
        ]
